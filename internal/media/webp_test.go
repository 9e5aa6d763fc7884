package media

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/webp"
)

// Every pixel written by encodeWebP comes back from golang.org/x/image/webp as it went in,
// whatever the picture: one colour, two, a photograph's noise, transparency, one pixel, a
// long thin strip, a channel of many values whose code is deep.
func TestWebPRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fill := func(w, h int, f func(x, y int) color.NRGBA) *image.NRGBA {
		m := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				m.SetNRGBA(x, y, f(x, y))
			}
		}
		return m
	}
	skewed := func() uint8 { // a few values very often, most seldom: a code up to 15 deep
		if rng.IntN(2) == 0 {
			return uint8(rng.IntN(2))
		}
		return uint8(rng.ExpFloat64() * 20)
	}
	for name, m := range map[string]*image.NRGBA{
		"one pixel":   fill(1, 1, func(int, int) color.NRGBA { return color.NRGBA{10, 20, 30, 255} }),
		"one colour":  fill(40, 30, func(int, int) color.NRGBA { return color.NRGBA{200, 0, 7, 255} }),
		"two colours": fill(40, 30, func(x, _ int) color.NRGBA { return color.NRGBA{uint8(x % 2 * 255), 0, 0, 255} }),
		"three greys": fill(30, 30, func(x, _ int) color.NRGBA { v := uint8(x % 3 * 100); return color.NRGBA{v, v, v, 255} }),
		"noise": fill(64, 48, func(int, int) color.NRGBA {
			return color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
		}),
		"transparent": fill(33, 17, func(x, y int) color.NRGBA { return color.NRGBA{uint8(x * 7), uint8(y * 13), 90, uint8(x * y)} }),
		"strip":       fill(500, 1, func(x, _ int) color.NRGBA { return color.NRGBA{uint8(x), uint8(x / 2), uint8(x / 3), 255} }),
		"deep codes":  fill(200, 200, func(int, int) color.NRGBA { return color.NRGBA{skewed(), skewed(), skewed(), 255} }),
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := encodeWebP(&b, m); err != nil {
				t.Fatal(err)
			}
			if info, err := Inspect(b.Bytes()); err != nil || info.Type != WebP || info.Width != m.Rect.Dx() || info.Height != m.Rect.Dy() {
				t.Fatalf("inspected %+v, %v", info, err)
			}
			got, err := webp.Decode(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got.Bounds() != m.Bounds() {
				t.Fatalf("bounds %v, want %v", got.Bounds(), m.Bounds())
			}
			for y := range m.Rect.Dy() {
				for x := range m.Rect.Dx() {
					if g := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA); g != m.NRGBAAt(x, y) {
						t.Fatalf("(%d,%d) is %v, want %v", x, y, g, m.NRGBAAt(x, y))
					}
				}
			}
		})
	}
}

// Code lengths are kept within what the format can say: 15 bits for a symbol, 7 for a
// length's own code.
func TestLimitedLengths(t *testing.T) {
	counts := make([]int, 40)
	for i := range counts {
		counts[i] = 1 << min(i, 30) // Fibonacci-like skew: a plain Huffman code is 39 deep
	}
	for _, limit := range []int{15, 7} {
		ls := limitedLengths(counts, limit)
		kraft := 0.0
		for _, l := range ls {
			if int(l) > limit || l == 0 {
				t.Fatalf("limit %d: lengths %v", limit, ls)
			}
			kraft += 1 / float64(uint(1)<<l)
		}
		if kraft != 1 {
			t.Fatalf("limit %d: the code is not complete (Kraft sum %v)", limit, kraft)
		}
	}
}
