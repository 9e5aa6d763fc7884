package media

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

func TestInspect(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		want Info
	}{
		{"png", pngOf(t, 30, 20), Info{PNG, 30, 20}},
		{"jpeg", jpegOf(t, 31, 17), Info{JPEG, 31, 17}},
		{"gif", gifOf(t, 9, 40), Info{GIF, 9, 40}},
		{"webp", webpOf(t), Info{WebP, 1, 1}},
		// 40 megapixels exactly is allowed.
		{"png at the pixel limit", pngClaiming(t, 8000, 5000), Info{PNG, 8000, 5000}},
	} {
		got, err := Inspect(tc.data)
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}

// Over the limits an image is refused from its header: the claimed pictures here would
// need gigabytes to decode, and the files are a few hundred bytes.
func TestInspectRefuses(t *testing.T) {
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"png over 40 MP", pngClaiming(t, 8000, 5001), ErrTooLarge},
		{"png huge", pngClaiming(t, 100000, 100000), ErrTooLarge},
		{"jpeg over 40 MP", jpegClaiming(t, 65000, 65000), ErrTooLarge},
		{"gif over 40 MP", gifClaiming(t, 65535, 65535), ErrTooLarge},
		{"webp over 40 MP", webpClaiming(t, 16384, 16384), ErrTooLarge},
		{"over 50 MB", append(pngOf(t, 2, 2), make([]byte, MaxBytes)...), ErrTooLarge},
		{"svg", svg, ErrUnsupported},
		{"text", []byte("hello"), ErrUnsupported},
		{"empty", nil, ErrUnsupported},
		{"bmp", []byte("BM\x00\x00\x00\x00"), ErrUnsupported},
		{"png signature only", pngOf(t, 4, 4)[:8], ErrMalformed},
		{"png of no pixels", pngClaiming(t, 0, 5), ErrMalformed},
		{"jpeg marker only", []byte{0xff, 0xd8, 0xff, 0xe0}, ErrMalformed},
	} {
		if _, err := Inspect(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// A header that reads well says nothing of the rest: a truncated file fails its decode.
func TestDecodeTruncated(t *testing.T) {
	for name, data := range map[string][]byte{
		"png":  pngOf(t, 64, 64),
		"jpeg": jpegOf(t, 64, 64),
		"gif":  gifOf(t, 64, 64),
	} {
		info, err := Inspect(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := decode(data, info); err != nil {
			t.Fatalf("%s whole: %v", name, err)
		}
		cut := data[:len(data)*2/3]
		if _, err := Inspect(cut); err != nil {
			t.Fatalf("%s truncated: the header should still read: %v", name, err)
		}
		if _, err := decode(cut, info); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s truncated: %v, want ErrMalformed", name, err)
		}
	}
	if !bytes.Equal(webpOf(t)[:4], []byte("RIFF")) {
		t.Fatal("the WebP sample is not RIFF")
	}
}

// A GIF whose first frame covers part of its screen is a GIF of its screen's size.
func TestGIFFrameSmallerThanScreen(t *testing.T) {
	pal := color.Palette{color.Transparent, color.White}
	frame := image.NewPaletted(image.Rect(10, 5, 20, 15), pal)
	for i := range frame.Pix {
		frame.Pix[i] = 1
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0},
		Config: image.Config{ColorModel: pal, Width: 40, Height: 30}}); err != nil {
		t.Fatal(err)
	}
	info, err := Inspect(b.Bytes())
	if err != nil || info != (Info{GIF, 40, 30}) {
		t.Fatalf("%+v, %v", info, err)
	}
	img, err := decode(b.Bytes(), info)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
		t.Error("outside the frame is not transparent")
	}
	if r, _, _, _ := img.At(15, 10).RGBA(); r != 0xffff {
		t.Error("the frame is not where it was")
	}
}
