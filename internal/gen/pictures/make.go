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

// job says how the picture at path is drawn: its folder says what it is, and the records
// whom it shows (docs/PICTURES.md).
func (c *Collector) job(path string, w want) job {
	l := c.lookOf(w)
	own := l // pictures that carry their record's own name, in its team's colours
	if w.name != "" && w.team == "" || strings.HasPrefix(w.folder, "honour/") || w.folder == "milestone/logo" || w.folder == "channel/logo" {
		own.name, own.short = w.name, ""
	}
	own.label = w.label
	switch f := w.folder; {
	case f == "team/badge" || f == "league/badge" || f == "league/badgearchive":
		return drawn("badge", 512, 512, own, (*painter).badge)
	case f == "team/equipment":
		kit := look{c1: l.c1, c2: l.c2}
		if strings.Contains(path, "-Away") {
			kit.c1, kit.c2 = l.c2, l.c1
		} else if strings.Contains(path, "-Third") {
			kit.c1 = color.NRGBA{0x24, 0x1F, 0x20, 255}
			kit.c2 = l.c1
		}
		return drawn("kit", 400, 400, kit, (*painter).shirt)
	case f == "player/cutout" || f == "player/render":
		return drawn("cutout", 400, 500, l, (*painter).player)
	case f == "player/thumb":
		return drawn("pthumb", 400, 400, l, (*painter).portrait)
	case f == "event/thumb":
		home, hok := c.teams[w.home]
		away, aok := c.teams[w.away]
		if !hok || !aok { // an individual sport's event: its name on its league's colours
			return drawn("card", thumbW, thumbH, own, (*painter).card)
		}
		return job{fmt.Sprintf("vs|%v|%v", home, away), thumbW, thumbH, func(p *painter, dst *image.RGBA) { p.versus(dst, dst.Bounds(), home, away) }}
	case strings.HasPrefix(f, "event/"):
		// An event's poster, banner and square are its league's: drawing the two badges in
		// each shape too would triple the time the demo's pictures take.
		lg, ok := c.leagues[w.league]
		if !ok {
			lg = own
		}
		width, height := eventSize(f)
		return drawn("card", width, height, lg, (*painter).card)
	case strings.HasSuffix(f, "/trophy"):
		return drawn("trophy", 512, 512, look{c1: l.c1}, (*painter).trophy) // only the ribbon is the owner's
	case strings.HasPrefix(f, "flags/"):
		n, _ := strconv.Atoi(strings.TrimPrefix(f, "flags/"))
		return drawn("flag", max(16, min(n, 256)), max(16, min(n, 256)), own, (*painter).flag)
	case f == "icons/sports":
		return drawn("icon", 128, 128, own, (*painter).icon)
	case f == "sports/bw":
		j := drawn("bw", fanartW, fanartH, own, (*painter).card)
		return job{j.key, j.w, j.h, func(p *painter, dst *image.RGBA) { j.draw(p, dst); grey(dst) }}
	case f == "team/banner" || f == "league/banner":
		return drawn("card", 1000, 185, l, (*painter).card)
	case strings.HasSuffix(f, "/poster") || strings.HasSuffix(f, "/posterarchive"):
		return drawn("card", 680, 1000, own, (*painter).card)
	case strings.HasSuffix(path, ".png"): // logos: team, league, venue, channel, honour, milestone
		return drawn("logo", 400, 155, own, (*painter).wordmark)
	case f == "player/fanart" || f == "team/fanart":
		return drawn("card", fanartW, fanartH, l, (*painter).card)
	default: // venue pictures, league fanart, sport thumbs
		return drawn("card", fanartW, fanartH, own, (*painter).card)
	}
}

// drawn is the job of a picture that shows l, drawn by f over its whole w x h. Its key is
// everything the picture depends on.
func drawn(kind string, w, h int, l look, f func(p *painter, dst *image.RGBA, r image.Rectangle, l look)) job {
	return job{fmt.Sprintf("%s|%dx%d|%v", kind, w, h, l), w, h, func(p *painter, dst *image.RGBA) { f(p, dst, dst.Bounds(), l) }}
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
