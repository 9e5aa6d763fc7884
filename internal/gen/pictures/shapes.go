package pictures

import (
	"image"
	"image/color"
	"image/draw"
)

// The pictures themselves. Each draws into a rectangle of a canvas, so the same badge is
// the picture at /team/badge and a part of every event thumbnail its team plays in.

// look is what a picture shows of its subject: a name, the letters a badge carries, two
// colours and a label (a season, an event's round).
type look struct {
	name, short string
	c1, c2      color.NRGBA
	round       bool
	label       string
}

// badge is a crest: a shield or a roundel in the subject's colours with its initials.
func (p *painter) badge(dst *image.RGBA, r image.Rectangle, l look) {
	w := r.Dx()
	ring, field := l.c2, l.c1
	text := ink(field, l.c2)
	if l.round {
		p.fill(dst, r, ellipse, darker(ring, 0.8))
		p.fill(dst, inset(r, w/40), ellipse, ring)
		p.fill(dst, inset(r, w/14), ellipse, field)
		p.fill(dst, inset(r, w/7), ellipse, ring)
		p.fill(dst, inset(r, w/7+w/60), ellipse, field)
	} else {
		p.fill(dst, r, shield, darker(ring, 0.8))
		p.fill(dst, inset(r, w/40), shield, ring)
		in := inset(r, w/14)
		p.fill(dst, in, shield, field)
		// A chief (the band across the top) where the shield's sides are still straight.
		chief := image.Rect(in.Min.X, in.Min.Y, in.Max.X, in.Min.Y+in.Dy()/5)
		box(dst, chief, ring)
	}
	if l.label == "" {
		p.text(dst, initials(l.name, l.short), r.Min.X+w/2, r.Min.Y+r.Dy()*53/100, w*30/100, w*58/100, text)
		return
	}
	// A season's badge: the initials raised, the season below them inside the field.
	p.text(dst, initials(l.name, l.short), r.Min.X+w/2, r.Min.Y+r.Dy()*45/100, w*26/100, w*54/100, text)
	p.text(dst, l.label, r.Min.X+w/2, r.Min.Y+r.Dy()*67/100, w/12, w*46/100, text)
}

// wordmark is a logo: the name on a bar of the subject's colour, on transparency.
func (p *painter) wordmark(dst *image.RGBA, r image.Rectangle, l look) {
	h := r.Dy()
	bar := image.Rect(r.Min.X, r.Min.Y+h/6, r.Max.X, r.Max.Y-h/6)
	box(dst, bar, l.c1)
	box(dst, image.Rect(bar.Min.X, bar.Max.Y-bar.Dy()/8, bar.Max.X, bar.Max.Y), l.c2)
	p.text(dst, l.name, r.Min.X+r.Dx()/2, r.Min.Y+h/2-h/30, h*30/100, r.Dx()*90/100, ink(l.c1, l.c2))
}

// card is a photograph's stand-in (fanart, banners, posters, venue pictures): the subject's
// colours with a band across and its name.
func (p *painter) card(dst *image.RGBA, r image.Rectangle, l look) {
	box(dst, r, l.c1)
	p.fill(dst, image.Rect(r.Min.X+r.Dx()*45/100, r.Min.Y, r.Min.X+r.Dx()*85/100, r.Max.Y), diagonal, l.c2)
	strip := image.Rect(r.Min.X, r.Max.Y-r.Dy()/4, r.Max.X, r.Max.Y)
	box(dst, strip, darker(l.c1, 0.6))
	size := min(r.Dy()/6, r.Dx()/10)
	p.text(dst, l.name, r.Min.X+r.Dx()/2, strip.Min.Y+strip.Dy()/2, size, r.Dx()*9/10, color.NRGBA{255, 255, 255, 255})
	if l.label != "" {
		p.text(dst, l.label, r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/3, size*2/3, r.Dx()*8/10, ink(l.c1, l.c2))
	}
}

// versus is an event's picture: the two teams' badges side by side (on top of each other in
// a portrait frame) on their colours.
func (p *painter) versus(dst *image.RGBA, r image.Rectangle, home, away look) {
	w, h := r.Dx(), r.Dy()
	box(dst, r, darker(home.c1, 0.85))
	white := color.NRGBA{255, 255, 255, 255}
	if h > w*6/5 { // portrait: home above, away below
		box(dst, image.Rect(r.Min.X, r.Min.Y+h/2, r.Max.X, r.Max.Y), darker(away.c1, 0.85))
		s := min(w*70/100, h*36/100)
		p.stamp(dst, square(r.Min.X+w/2, r.Min.Y+h/4, s), home)
		p.stamp(dst, square(r.Min.X+w/2, r.Min.Y+h*3/4, s), away)
		p.text(dst, "VS", r.Min.X+w/2, r.Min.Y+h/2, s/4, w, white)
		return
	}
	// The away half, its edge slanted; only the slant goes through the rasterizer.
	box(dst, image.Rect(r.Min.X+w*55/100, r.Min.Y, r.Max.X, r.Max.Y), darker(away.c1, 0.85))
	p.fill(dst, image.Rect(r.Min.X+w*45/100, r.Min.Y, r.Min.X+w*55/100, r.Max.Y), slant, darker(away.c1, 0.85))
	s := min(h*72/100, w*36/100)
	p.stamp(dst, square(r.Min.X+w*25/100, r.Min.Y+h/2, s), home)
	p.stamp(dst, square(r.Min.X+w*75/100, r.Min.Y+h/2, s), away)
	p.text(dst, "VS", r.Min.X+w/2, r.Min.Y+h/2, s/4, w/8, white)
}

// stamp draws a badge kept from an earlier event picture of the same size: a team plays
// in many events, and copying its badge is far quicker than drawing it again.
func (p *painter) stamp(dst *image.RGBA, r image.Rectangle, l look) {
	key := badgeKey{l, r.Dx()}
	b := p.badges.get(key, func() *image.RGBA {
		b := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		p.badge(b, b.Bounds(), l)
		return b
	})
	draw.Draw(dst, r, b, image.Point{}, draw.Over)
}

// slant is the triangle under a rectangle's diagonal from the top right.
var slant = polygon(1, 0, 1, 1, 0, 1)

// square is the square of side s centred on (cx, cy).
func square(cx, cy, s int) image.Rectangle {
	return image.Rect(cx-s/2, cy-s/2, cx-s/2+s, cy-s/2+s)
}

// player is a cutout: head and shoulders in the team's shirt, on transparency.
func (p *painter) player(dst *image.RGBA, r image.Rectangle, l look) {
	w, h := r.Dx(), r.Dy()
	skin := color.NRGBA{0x3a, 0x3a, 0x40, 255}
	head := image.Rect(r.Min.X+w*34/100, r.Min.Y+h*6/100, r.Min.X+w*66/100, r.Min.Y+h*40/100)
	neck := image.Rect(r.Min.X+w*44/100, r.Min.Y+h*34/100, r.Min.X+w*56/100, r.Min.Y+h*50/100)
	box(dst, neck, skin)
	p.fill(dst, head, ellipse, skin)
	body := image.Rect(r.Min.X, r.Min.Y+h*44/100, r.Max.X, r.Max.Y)
	p.fill(dst, body, torso, l.c1)
	collar := image.Rect(r.Min.X+w*40/100, r.Min.Y+h*44/100, r.Min.X+w*60/100, r.Min.Y+h*52/100)
	p.fill(dst, collar, vee, l.c2)
	p.text(dst, initials(l.name, l.short), r.Min.X+w/2, r.Min.Y+h*76/100, h/9, w/2, ink(l.c1, l.c2))
}

// portrait is a player's thumbnail: the cutout on the team's second colour.
func (p *painter) portrait(dst *image.RGBA, r image.Rectangle, l look) {
	box(dst, r, darker(l.c2, 0.9))
	p.player(dst, r, l)
}

// torso is shoulders sloping down to the frame's bottom edge.
func torso(pn pen) {
	pn.move(0.02, 1)
	pn.cube(0.02, 0.35, 0.15, 0.08, 0.38, 0.02)
	pn.line(0.62, 0.02)
	pn.cube(0.85, 0.08, 0.98, 0.35, 0.98, 1)
	pn.close()
}

// vee is a shirt's collar.
var vee = polygon(0, 0, 1, 0, 0.5, 1)

// shirt is a team's kit: a shirt of the first colour with sleeves and collar of the second.
func (p *painter) shirt(dst *image.RGBA, r image.Rectangle, l look) {
	p.fill(dst, r, tee(true), l.c2)
	p.fill(dst, r, tee(false), l.c1)
	w := r.Dx()
	p.fill(dst, image.Rect(r.Min.X+w*40/100, r.Min.Y+r.Dy()*10/100, r.Min.X+w*60/100, r.Min.Y+r.Dy()*20/100), vee, l.c2)
}

// tee is a shirt's outline with its sleeves, or its body alone.
func tee(sleeves bool) shape {
	return func(pn pen) {
		pn.move(0.30, 0.10)
		pn.line(0.40, 0.10)
		pn.cube(0.45, 0.16, 0.55, 0.16, 0.60, 0.10)
		pn.line(0.70, 0.10)
		if sleeves {
			pn.line(0.95, 0.30)
			pn.line(0.86, 0.44)
		}
		pn.line(0.76, 0.36)
		pn.line(0.76, 0.92)
		pn.line(0.24, 0.92)
		pn.line(0.24, 0.36)
		if sleeves {
			pn.line(0.14, 0.44)
			pn.line(0.05, 0.30)
		}
		pn.close()
	}
}

// trophy is a cup with its ribbon in the subject's colour.
func (p *painter) trophy(dst *image.RGBA, r image.Rectangle, l look) {
	gold := color.NRGBA{0xd4, 0xaf, 0x37, 255}
	w, h := r.Dx(), r.Dy()
	at := func(x0, y0, x1, y1 int) image.Rectangle {
		return image.Rect(r.Min.X+w*x0/100, r.Min.Y+h*y0/100, r.Min.X+w*x1/100, r.Min.Y+h*y1/100)
	}
	p.fill(dst, at(18, 14, 40, 40), ellipse, darker(gold, 0.8))
	p.fill(dst, at(60, 14, 82, 40), ellipse, darker(gold, 0.8))
	p.fill(dst, at(28, 8, 72, 60), bowl, gold)
	box(dst, at(45, 56, 55, 76), darker(gold, 0.85))
	box(dst, at(32, 76, 68, 92), gold)
	box(dst, at(32, 80, 68, 87), l.c1)
}

// bowl is a cup's bowl: flat on top, round below.
func bowl(pn pen) {
	pn.move(0, 0)
	pn.line(1, 0)
	pn.cube(1, 0.7, 0.7, 1, 0.5, 1)
	pn.cube(0.3, 1, 0, 0.7, 0, 0)
	pn.close()
}

// flag is three bands of colours the country's name picks, across or upright.
func (p *painter) flag(dst *image.RGBA, r image.Rectangle, l look) {
	c3 := palette[hash(l.name+"3")%uint32(len(palette))]
	upright := hash(l.name)%2 == 0
	w, h := r.Dx(), r.Dy()
	f := image.Rect(r.Min.X, r.Min.Y+h/8, r.Max.X, r.Max.Y-h/8)
	for i, c := range []color.NRGBA{l.c1, l.c2, c3} {
		band := image.Rect(f.Min.X, f.Min.Y+f.Dy()*i/3, f.Max.X, f.Min.Y+f.Dy()*(i+1)/3)
		if upright {
			band = image.Rect(f.Min.X+w*i/3, f.Min.Y, f.Min.X+w*(i+1)/3, f.Max.Y)
		}
		box(dst, band, c)
	}
}

// icon is a sport's round icon with its first letter.
func (p *painter) icon(dst *image.RGBA, r image.Rectangle, l look) {
	green := color.NRGBA{0x2e, 0x9e, 0x4f, 255}
	p.fill(dst, r, ellipse, green)
	p.text(dst, string([]rune(initials(l.name, ""))[:1]), r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2, r.Dy()/2, r.Dx()*7/10, color.NRGBA{255, 255, 255, 255})
}
