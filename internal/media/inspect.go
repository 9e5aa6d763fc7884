// Package media is what sportsdb does with the pictures it keeps (docs/PICTURES.md): it reads
// an image's type and size from its header, refuses what it must before any decoding, stores
// originals, and makes the smaller copies on their first request, a bounded number at once.
package media

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"
)

// Limits of an original, checked where it enters (upload, mirror): over them it is never
// decoded, so a small file that declares a huge picture cannot make the server allocate it.
const (
	MaxBytes  = 50 << 20
	MaxPixels = 40_000_000
)

// The media types sportsdb keeps. SVG is none of them: it is a document that can carry
// scripts, not a picture.
const (
	PNG  = "image/png"
	JPEG = "image/jpeg"
	GIF  = "image/gif"
	WebP = "image/webp"
)

// Reasons an image is refused; each comes wrapped with a message a client may read.
var (
	// ErrUnsupported: the bytes are no PNG, JPEG, GIF or WebP (HTTP 415).
	ErrUnsupported = errors.New("not a PNG, JPEG, GIF or WebP image")
	// ErrTooLarge: over MaxBytes or MaxPixels (HTTP 413).
	ErrTooLarge = errors.New("image too large")
	// ErrMalformed: the header or the picture cannot be read: truncated or damaged (HTTP 400).
	ErrMalformed = errors.New("malformed image")
)

// Info is what an image's header says.
type Info struct {
	Type          string
	Width, Height int
}

// Inspect reads the type and the size of an image from its first bytes and its header
// only, and refuses it when it is over the limits: nothing is decoded. A header that reads
// well says nothing of the rest; Check decodes.
func Inspect(data []byte) (Info, error) {
	if len(data) > MaxBytes {
		return Info{}, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(data), MaxBytes)
	}
	typ := sniff(data)
	if typ == "" {
		return Info{}, ErrUnsupported
	}
	cfg, err := formats[typ].config(bytes.NewReader(data))
	if err != nil {
		return Info{}, fmt.Errorf("%w: %s header: %v", ErrMalformed, name(typ), err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Info{}, fmt.Errorf("%w: %s of %dx%d pixels", ErrMalformed, name(typ), cfg.Width, cfg.Height)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > MaxPixels {
		return Info{}, fmt.Errorf("%w: %dx%d is %d pixels, at most %d", ErrTooLarge, cfg.Width, cfg.Height, px, MaxPixels)
	}
	return Info{Type: typ, Width: cfg.Width, Height: cfg.Height}, nil
}

// sniff names the type of data by its signature, or "".
func sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return JPEG
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return GIF
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return WebP
	}
	return ""
}

type format struct {
	config func(r *bytes.Reader) (image.Config, error)
	decode func(r *bytes.Reader) (image.Image, error)
}

// formats are the decoders by type, called directly: image.Decode would try whatever
// format another package registered.
var formats = map[string]format{
	PNG:  {config: func(r *bytes.Reader) (image.Config, error) { return png.DecodeConfig(r) }, decode: func(r *bytes.Reader) (image.Image, error) { return png.Decode(r) }},
	JPEG: {config: func(r *bytes.Reader) (image.Config, error) { return jpeg.DecodeConfig(r) }, decode: func(r *bytes.Reader) (image.Image, error) { return jpeg.Decode(r) }},
	GIF:  {config: func(r *bytes.Reader) (image.Config, error) { return gif.DecodeConfig(r) }, decode: func(r *bytes.Reader) (image.Image, error) { return gif.Decode(r) }},
	WebP: {config: func(r *bytes.Reader) (image.Config, error) { return webp.DecodeConfig(r) }, decode: func(r *bytes.Reader) (image.Image, error) { return webp.Decode(r) }},
}

func name(typ string) string {
	switch typ {
	case PNG:
		return "PNG"
	case JPEG:
		return "JPEG"
	case GIF:
		return "GIF"
	case WebP:
		return "WebP"
	}
	return typ
}

// decode decodes the whole picture of data, whose header Inspect read as info: a truncated
// or damaged file fails here. For a GIF it is the first frame.
func decode(data []byte, info Info) (image.Image, error) {
	img, err := formats[info.Type].decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, name(info.Type), err)
	}
	if p, ok := img.(*image.Paletted); ok && info.Type == GIF {
		img = onScreen(p, info)
	}
	if b := img.Bounds(); b.Dx() != info.Width || b.Dy() != info.Height {
		return nil, fmt.Errorf("%w: %s decodes to %dx%d, its header says %dx%d", ErrMalformed, name(info.Type),
			b.Dx(), b.Dy(), info.Width, info.Height)
	}
	return img, nil
}

// onScreen puts a GIF's first frame on its logical screen, the size its header gives (a
// frame may cover part of it), the rest transparent where the palette has a transparent
// entry; the palette stays, for the copy's.
func onScreen(frame *image.Paletted, info Info) *image.Paletted {
	screen := image.Rect(0, 0, info.Width, info.Height)
	if frame.Rect == screen || !frame.Rect.In(screen) {
		return frame
	}
	out := image.NewPaletted(screen, frame.Palette)
	for i, c := range frame.Palette {
		if _, _, _, a := c.RGBA(); a == 0 {
			for j := range out.Pix {
				out.Pix[j] = uint8(i)
			}
			break
		}
	}
	for y := frame.Rect.Min.Y; y < frame.Rect.Max.Y; y++ {
		copy(out.Pix[out.PixOffset(frame.Rect.Min.X, y):], frame.Pix[frame.PixOffset(frame.Rect.Min.X, y):frame.PixOffset(frame.Rect.Max.X, y)])
	}
	return out
}
