package media

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/draw"
)

// JPEGQuality is the quality of a JPEG copy: no visible loss at the sizes copies have.
const JPEGQuality = 85

// scale makes the copy of src, an original of type typ, at most width pixels wide with its
// aspect kept, and encodes it in the original's format: a WebP's copy is a lossless WebP
// (encodeWebP), a GIF's copy is of its first frame.
func scale(src image.Image, typ string, width int) (data []byte, outType string, w, h int, err error) {
	b := src.Bounds()
	w = min(width, b.Dx())
	h = max(1, (b.Dy()*w+b.Dx()/2)/b.Dx())
	// Catmull-Rom weighs every source pixel under the kernel: a stripe pattern averages
	// out instead of aliasing as nearest-neighbour would. Premultiplied RGBA scales
	// transparent edges without dark fringes.
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	var out bytes.Buffer
	switch typ {
	case JPEG:
		err = jpeg.Encode(&out, dst, &jpeg.Options{Quality: JPEGQuality})
	case GIF:
		err = gif.Encode(&out, paletted(dst, src), nil)
	case PNG:
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, dst)
	case WebP:
		err = encodeWebP(&out, dst)
	default:
		err = fmt.Errorf("%w: %s", ErrUnsupported, typ)
	}
	if err != nil {
		return nil, "", 0, 0, fmt.Errorf("media: encode a copy: %w", err)
	}
	return out.Bytes(), typ, w, h, nil
}

// paletted puts a scaled GIF frame back on the original's palette (dithered), so that its
// colours and its transparent entry stay; a GIF is paletted, so src always has one.
func paletted(img *image.RGBA, src image.Image) *image.Paletted {
	pal := color.Palette{color.Black, color.White}
	if p, ok := src.(*image.Paletted); ok && len(p.Palette) > 0 {
		pal = p.Palette
	}
	dst := image.NewPaletted(img.Bounds(), pal)
	draw.FloydSteinberg.Draw(dst, dst.Bounds(), img, image.Point{})
	return dst
}
