package pictures

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// boldFont is parsed once; a face of it holds caches and is not safe for concurrent use, so
// every painter keeps its own faces.
var boldFont = func() *sfnt.Font {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		panic("pictures: the bundled Go Bold font does not parse: " + err.Error())
	}
	return f
}()

// painter draws the shapes and text every picture is made of. It is used by one goroutine;
// the badges it keeps are shared.
type painter struct {
	faces  map[int]font.Face
	z      *vector.Rasterizer
	badges *badgeCache
}

func newPainter(badges *badgeCache) *painter {
	return &painter{faces: map[int]font.Face{}, z: vector.NewRasterizer(1, 1), badges: badges}
}

type badgeKey struct {
	l    look
	size int
}

// badgeCache keeps the badges drawn for event thumbnails, for all the painters of one Make:
// about 15 MB for the demo's 124 teams.
type badgeCache struct {
	mu sync.Mutex
	m  map[badgeKey]*image.RGBA
}

func newBadgeCache() *badgeCache { return &badgeCache{m: map[badgeKey]*image.RGBA{}} }

// get returns the badge kept under k, drawing it with draw the first time. Two painters may
// both draw a badge first; they draw the same pixels, and one is kept.
func (c *badgeCache) get(k badgeKey, draw func() *image.RGBA) *image.RGBA {
	c.mu.Lock()
	b, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return b
	}
	b = draw()
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.m[k]; ok {
		return kept
	}
	c.m[k] = b
	return b
}

func (p *painter) face(size int) font.Face {
	if f, ok := p.faces[size]; ok {
		return f
	}
	f, err := opentype.NewFace(boldFont, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic("pictures: a face of the bundled font: " + err.Error())
	}
	p.faces[size] = f
	return f
}

// shape is an outline in the unit square, drawn into any rectangle: one badge outline serves
// a 512 px badge and the 200 px badges of an event thumbnail, drawn sharp at both sizes
// rather than scaled.
type shape func(pen)

// pen maps unit coordinates onto a rasterizer whose origin is a rectangle's corner.
type pen struct {
	z    *vector.Rasterizer
	w, h float32
}

func (p pen) move(x, y float32) { p.z.MoveTo(x*p.w, y*p.h) }
func (p pen) line(x, y float32) { p.z.LineTo(x*p.w, y*p.h) }
func (p pen) cube(ax, ay, bx, by, cx, cy float32) {
	p.z.CubeTo(ax*p.w, ay*p.h, bx*p.w, by*p.h, cx*p.w, cy*p.h)
}
func (p pen) close() { p.z.ClosePath() }

// fill draws s into r of dst in c.
func (p *painter) fill(dst *image.RGBA, r image.Rectangle, s shape, c color.Color) {
	r = r.Intersect(dst.Bounds())
	if r.Empty() {
		return
	}
	p.z.Reset(r.Dx(), r.Dy())
	s(pen{z: p.z, w: float32(r.Dx()), h: float32(r.Dy())})
	p.z.Draw(dst, r, image.NewUniform(c), image.Point{})
}

// kappa places the control points of a cubic that draws a quarter circle.
const kappa = 0.5523

func ellipse(pn pen) {
	k := float32(kappa / 2)
	pn.move(1, 0.5)
	pn.cube(1, 0.5+k, 0.5+k, 1, 0.5, 1)
	pn.cube(0.5-k, 1, 0, 0.5+k, 0, 0.5)
	pn.cube(0, 0.5-k, 0.5-k, 0, 0.5, 0)
	pn.cube(0.5+k, 0, 1, 0.5-k, 1, 0.5)
	pn.close()
}

// box fills the rectangle r of dst in c: a plain copy, many times quicker than the
// rasterizer, which walks every pixel of its rectangle whatever the shape.
func box(dst *image.RGBA, r image.Rectangle, c color.Color) {
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, draw.Over)
}

// shield is the heater shield of most football crests.
func shield(pn pen) {
	pn.move(0, 0)
	pn.line(1, 0)
	pn.line(1, 0.5)
	pn.cube(1, 0.78, 0.75, 0.92, 0.5, 1)
	pn.cube(0.25, 0.92, 0, 0.78, 0, 0.5)
	pn.close()
}

// polygon is the shape through the points x0, y0, x1, y1, ...
func polygon(xy ...float32) shape {
	return func(pn pen) {
		pn.move(xy[0], xy[1])
		for i := 2; i+1 < len(xy); i += 2 {
			pn.line(xy[i], xy[i+1])
		}
		pn.close()
	}
}

// diagonal is the band from the top right to the bottom left of a rectangle.
var diagonal = polygon(0.6, 0, 1, 0, 0.4, 1, 0, 1)

// inset returns r shrunk by d on every side.
func inset(r image.Rectangle, d int) image.Rectangle {
	return image.Rect(r.Min.X+d, r.Min.Y+d, r.Max.X-d, r.Max.Y-d)
}

// text draws s centred on (cx, cy) in the largest size up to size that fits width.
func (p *painter) text(dst *image.RGBA, s string, cx, cy, size, width int, c color.Color) {
	if s == "" || size < 4 {
		return
	}
	f := p.face(size)
	adv := font.MeasureString(f, s).Ceil()
	for adv > width && size > 6 {
		size = size * width / adv
		if size < 6 {
			size = 6
		}
		f = p.face(size)
		adv = font.MeasureString(f, s).Ceil()
	}
	m := f.Metrics()
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f}
	// Capitals sit between the baseline and the cap height: centre that span.
	d.Dot = fixed.Point26_6{X: fixed.I(cx - adv/2), Y: fixed.I(cy) + m.CapHeight/2}
	d.DrawString(s)
}

// initials are what a badge shows: the short name when the record has one ("ARS"),
// otherwise the first letters of the name's words, at most three.
func initials(name, short string) string {
	if s := strings.TrimSpace(short); s != "" && len([]rune(s)) <= 4 {
		return strings.ToUpper(s)
	}
	var out []rune
	for _, w := range strings.Fields(name) {
		r := []rune(w)
		if unicode.IsLetter(r[0]) || unicode.IsDigit(r[0]) {
			out = append(out, unicode.ToUpper(r[0]))
		}
		if len(out) == 3 {
			break
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return string(out)
}

// parseColour reads "#EF0107"; ok is false for anything else.
func parseColour(s string) (color.NRGBA, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(s) != 6 {
		return color.NRGBA{}, false
	}
	var v [3]uint8
	for i := range 3 {
		hi, ok1 := hexDigit(s[2*i])
		lo, ok2 := hexDigit(s[2*i+1])
		if !ok1 || !ok2 {
			return color.NRGBA{}, false
		}
		v[i] = hi<<4 | lo
	}
	return color.NRGBA{v[0], v[1], v[2], 255}, true
}

func hexDigit(c byte) (uint8, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func luminance(c color.NRGBA) float64 {
	return (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
}

// ink is the colour to write on bg: preferred when it stands out, else white or black.
func ink(bg, preferred color.NRGBA) color.NRGBA {
	if math.Abs(luminance(bg)-luminance(preferred)) >= 0.3 {
		return preferred
	}
	if luminance(bg) > 0.55 {
		return color.NRGBA{0x14, 0x14, 0x14, 255}
	}
	return color.NRGBA{255, 255, 255, 255}
}

// darker is c with its channels scaled by f (0..1).
func darker(c color.NRGBA, f float64) color.NRGBA {
	return color.NRGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), 255}
}
