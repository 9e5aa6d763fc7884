package media

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// Pictures made for the tests: a gradient with a sharp edge, so a scaled copy can be told
// from one made by nearest-neighbour.

func picture(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{R: uint8(x * 255 / max(w-1, 1)), G: uint8(y * 255 / max(h-1, 1)), B: 0, A: 255}
			if (x/4+y/4)%2 == 0 {
				c.B = 255
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, picture(w, h)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, picture(w, h), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gifOf(t testing.TB, w, h int) []byte {
	t.Helper()
	p := image.NewPaletted(image.Rect(0, 0, w, h), palette.Plan9)
	draw.Draw(p, p.Bounds(), picture(w, h), image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := gif.Encode(&b, p, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webpOf is a 1x1 lossless WebP (no WebP encoder is at hand).
func webpOf(t testing.TB) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pngClaiming is a small PNG whose header claims w x h pixels (its CRC made right).
func pngClaiming(t testing.TB, w, h uint32) []byte {
	b := pngOf(t, 2, 2)
	// signature (8), length (4), "IHDR" (4), then width and height.
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// jpegClaiming is a small JPEG whose frame header claims w x h pixels.
func jpegClaiming(t testing.TB, w, h uint16) []byte {
	b := jpegOf(t, 8, 8)
	i := bytes.Index(b, []byte{0xff, 0xc0})
	if i < 0 {
		t.Fatal("no SOF0 in the JPEG")
	}
	// marker (2), length (2), precision (1), then height and width.
	binary.BigEndian.PutUint16(b[i+5:], h)
	binary.BigEndian.PutUint16(b[i+7:], w)
	return b
}

// gifClaiming is a small GIF whose logical screen is w x h.
func gifClaiming(t testing.TB, w, h uint16) []byte {
	b := gifOf(t, 2, 2)
	binary.LittleEndian.PutUint16(b[6:], w)
	binary.LittleEndian.PutUint16(b[8:], h)
	return b
}

// webpClaiming is a lossless WebP whose header claims w x h pixels (each at most 16384).
func webpClaiming(t testing.TB, w, h uint32) []byte {
	b := webpOf(t)
	bits := (w - 1) | (h-1)<<14
	binary.LittleEndian.PutUint32(b[21:], bits|binary.LittleEndian.Uint32(b[21:])&^(1<<28-1))
	return b
}
