package pictures

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Picture is one made picture, under the path its records name.
type Picture struct {
	Path string
	// Type is image/png or image/jpeg, as the path's extension says.
	Type          string
	Width, Height int
	Data          []byte
}

// job is how to draw one picture: its size, and key, which names its content (what is drawn,
// its size and everything it shows). Pictures with the same key are the same bytes, drawn
// once: every player of a team wears the same cutout, and a team's four fanart pictures are
// one.
type job struct {
	key  string
	w, h int
	draw func(p *painter, dst *image.RGBA)
}

// Sizes follow the public service's where drawing them stays quick; the event pictures,
// a thousand of each in the demo, are smaller than its 1280x720 (docs/PICTURES.md).
func (c *Collector) job(path string, w want) job {
	l := c.lookOf(w)
	own := l // pictures that carry their record's own name, in its team's colours
	if w.name != "" && w.team == "" || strings.HasPrefix(w.folder, "honour/") || w.folder == "milestone/logo" || w.folder == "channel/logo" {
		own.name, own.short = w.name, ""
	}
	own.label = w.label
	whole := func(f func(p *painter, dst *image.RGBA, r image.Rectangle)) func(*painter, *image.RGBA) {
		return func(p *painter, dst *image.RGBA) { f(p, dst, dst.Bounds()) }
	}
	card := func(key string, w, h int, l look) job {
		return job{fmt.Sprintf("card|%s|%d|%v", key, w, l), w, h, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.card(dst, r, l) })}
	}
	switch f := w.folder; {
	case f == "team/badge" || f == "league/badge" || f == "league/badgearchive":
		return job{fmt.Sprintf("badge|%v", own), 512, 512, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.badge(dst, r, own) })}
	case f == "team/equipment":
		body, sleeves := l.c1, l.c2
		if strings.Contains(path, "-Away") {
			body, sleeves = l.c2, l.c1
		} else if strings.Contains(path, "-Third") {
			body, sleeves = color.NRGBA{0x24, 0x1F, 0x20, 255}, l.c1
		}
		return job{fmt.Sprintf("kit|%v|%v", body, sleeves), 400, 400, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.shirt(dst, r, body, sleeves) })}
	case f == "player/cutout" || f == "player/render":
		return job{fmt.Sprintf("cutout|%v", l), 400, 500, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.player(dst, r, l) })}
	case f == "player/thumb":
		return job{fmt.Sprintf("pthumb|%v", l), 400, 400, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) {
			box(dst, r, darker(l.c2, 0.9))
			p.player(dst, r, l)
		})}
	case f == "event/thumb":
		home, hok := c.teams[w.home]
		away, aok := c.teams[w.away]
		if !hok || !aok { // an individual sport's event: its name on its league's colours
			return card("", thumbW, thumbH, own)
		}
		return job{fmt.Sprintf("vs|%v|%v", home, away), thumbW, thumbH, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.versus(dst, r, home, away) })}
	case strings.HasPrefix(f, "event/"):
		// An event's poster, banner and square are its league's: drawing the two badges in
		// each shape too would triple the time the demo's pictures take.
		width, height := eventSize(f)
		lg, ok := c.leagues[w.league]
		if !ok {
			lg = own
		}
		return card("", width, height, lg)
	case strings.HasSuffix(f, "/trophy"):
		return job{fmt.Sprintf("trophy|%v", l.c1), 512, 512, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.trophy(dst, r, l) })}
	case strings.HasPrefix(f, "flags/"):
		n, _ := strconv.Atoi(strings.TrimPrefix(f, "flags/"))
		n = max(16, min(n, 256))
		c3 := palette[hash(w.name+"3")%uint32(len(palette))]
		return job{path, n, n, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.flag(dst, r, own, c3, hash(w.name)%2 == 0) })}
	case f == "icons/sports":
		return job{path, 128, 128, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.icon(dst, r, own) })}
	case f == "sports/bw":
		j := card("bw", fanartW, fanartH, own)
		return job{j.key, j.w, j.h, func(p *painter, dst *image.RGBA) { j.draw(p, dst); grey(dst) }}
	case f == "team/banner" || f == "league/banner":
		return card("", 1000, 185, l)
	case strings.HasSuffix(f, "/poster") || strings.HasSuffix(f, "/posterarchive"):
		return card("", 680, 1000, own)
	case strings.HasSuffix(path, ".png"): // logos: team, league, venue, channel, honour, milestone
		return job{fmt.Sprintf("logo|%v", own), 400, 155, whole(func(p *painter, dst *image.RGBA, r image.Rectangle) { p.wordmark(dst, r, own) })}
	case f == "player/fanart" || f == "team/fanart":
		return card("", fanartW, fanartH, l)
	default: // venue pictures, league fanart, sport thumbs
		return card("", fanartW, fanartH, own)
	}
}

// Smaller than the public service's pictures where the demo names many: its thousand event
// thumbnails, its few hundred stand-ins for photographs (1280x720 there) and logos
// (800x310). Encoding is most of the time the pictures take, and a new demo database waits
// for them.
const (
	thumbW, thumbH   = 480, 270
	fanartW, fanartH = 640, 360
)

// eventSize is the size of an event's poster, banner and square, as the public service's.
func eventSize(folder string) (w, h int) {
	switch folder {
	case "event/poster":
		return 680, 1000
	case "event/banner":
		return 1000, 185
	}
	return 700, 700
}

// grey turns an opaque picture black and white, in place, with the luma weights
// color.GrayModel uses; by hand, since image/draw has no quick path from RGBA to Gray and
// goes through color.Color for every pixel.
func grey(dst *image.RGBA) {
	px := dst.Pix
	for i := 0; i+3 < len(px); i += 4 {
		y := uint8((19595*uint32(px[i]) + 38470*uint32(px[i+1]) + 7471*uint32(px[i+2]) + 1<<15) >> 16)
		px[i], px[i+1], px[i+2] = y, y, y
	}
}

// Make draws every picture noted and calls fn with each: the pictures of one content
// together (they share their bytes, which fn must not change), contents in the order of
// their first path. Several goroutines draw; fn is called from the caller's.
func (c *Collector) Make(ctx context.Context, fn func(Picture) error) error {
	contents := c.contents()
	workers := min(runtime.GOMAXPROCS(0), 4)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		data []byte
		err  error
	}
	slots := make([]chan result, len(contents))
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	next := make(chan int)
	// ahead bounds how far drawing runs ahead of fn, and so the bytes held at once.
	ahead := make(chan struct{}, 2*workers)
	go func() {
		defer close(next)
		for i := range contents {
			select {
			case ahead <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	badges := newBadgeCache()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPainter(badges)
			for i := range next {
				data, err := encode(p, contents[i].job, contents[i].paths[0])
				slots[i] <- result{data, err}
			}
		}()
	}
	defer wg.Wait()
	for i, ct := range contents {
		var res result
		select {
		case res = <-slots[i]:
		case <-ctx.Done():
			return fmt.Errorf("pictures: %w", ctx.Err())
		}
		<-ahead
		if res.err != nil {
			return fmt.Errorf("pictures: %s: %w", ct.paths[0], res.err)
		}
		for _, path := range ct.paths {
			if err := fn(Picture{Path: path, Type: mediaType(path), Width: ct.job.w, Height: ct.job.h, Data: res.data}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Picture draws the picture at path alone; ok is false when no record names it.
func (c *Collector) Picture(path string) (pic Picture, ok bool, err error) {
	w, ok := c.wants[path]
	if !ok {
		return Picture{}, false, nil
	}
	j := c.job(path, w)
	data, err := encode(newPainter(newBadgeCache()), j, path)
	if err != nil {
		return Picture{}, true, fmt.Errorf("pictures: %s: %w", path, err)
	}
	return Picture{Path: path, Type: mediaType(path), Width: j.w, Height: j.h, Data: data}, true, nil
}

// content is one picture's bytes to draw and every path that shows them.
type content struct {
	job   job
	paths []string
}

func (c *Collector) contents() []*content {
	var out []*content
	byKey := map[string]*content{}
	for _, path := range c.Paths() {
		j := c.job(path, c.wants[path])
		ct := byKey[j.key]
		if ct == nil {
			ct = &content{job: j}
			byKey[j.key] = ct
			out = append(out, ct)
		}
		ct.paths = append(ct.paths, path)
	}
	return out
}

func mediaType(path string) string {
	if strings.HasSuffix(path, ".png") {
		return "image/png"
	}
	return "image/jpeg"
}

// encode draws j and encodes it as its path's extension says: PNG with transparency around
// badges, cutouts and logos, as the public service's are; JPEG for photographs' stand-ins.
func encode(p *painter, j job, path string) ([]byte, error) {
	dst := image.NewRGBA(image.Rect(0, 0, j.w, j.h))
	j.draw(p, dst)
	var b bytes.Buffer
	var err error
	if mediaType(path) == "image/png" {
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, dst)
	} else {
		err = jpeg.Encode(&b, dst, &jpeg.Options{Quality: 82})
	}
	return b.Bytes(), err
}
