package media

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"image"
	"image/draw"
	"io"
	"sort"
)

// encodeWebP writes m as a lossless WebP (VP8L, "WebP Lossless Bitstream Specification"):
// no transforms, no color cache, one prefix code per channel, every pixel a literal. The
// copies of WebP originals are made with it, so that a copy has its original's format;
// golang.org/x/image/webp reads it, and the tests check that every pixel comes back.
// Literal coding compresses less than libwebp's transforms and backward references; a copy
// that would be larger than its original is not kept as such (the original's bytes stand
// for it).
func encodeWebP(w io.Writer, m image.Image) error {
	b := m.Bounds()
	if b.Dx() < 1 || b.Dy() < 1 || b.Dx() > 1<<14 || b.Dy() > 1<<14 {
		return errors.New("webp: an image of 1 to 16384 pixels a side")
	}
	px := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(px, px.Bounds(), m, b.Min, draw.Src)

	// Channel order of a VP8L pixel's codes: green, red, blue, alpha.
	var hist [4][256]int
	alpha := false
	for i := 0; i < len(px.Pix); i += 4 {
		r, g, bl, a := px.Pix[i], px.Pix[i+1], px.Pix[i+2], px.Pix[i+3]
		hist[0][g]++
		hist[1][r]++
		hist[2][bl]++
		hist[3][a]++
		alpha = alpha || a != 0xff
	}

	var bw bitWriter
	bw.write(0x2f, 8)
	bw.write(uint64(b.Dx()-1), 14)
	bw.write(uint64(b.Dy()-1), 14)
	bw.write(boolBit(alpha), 1)
	bw.write(0, 3) // version
	bw.write(0, 1) // no transform
	bw.write(0, 1) // no color cache
	bw.write(0, 1) // one prefix code group for the whole image
	var codes [4]prefixCode
	for c := range codes {
		// Green's alphabet also holds the 24 length codes, unused here.
		size := 256
		if c == 0 {
			size = 256 + 24
		}
		counts := make([]int, size)
		copy(counts, hist[c][:])
		codes[c] = writePrefixCode(&bw, counts)
	}
	writePrefixCode(&bw, make([]int, 40)) // distance codes: none used
	for i := 0; i < len(px.Pix); i += 4 {
		codes[0].put(&bw, px.Pix[i+1])
		codes[1].put(&bw, px.Pix[i])
		codes[2].put(&bw, px.Pix[i+2])
		codes[3].put(&bw, px.Pix[i+3])
	}
	payload := bw.bytes()

	pad := len(payload) & 1
	var hdr [20]byte
	copy(hdr[0:], "RIFF")
	binary.LittleEndian.PutUint32(hdr[4:], uint32(4+8+len(payload)+pad))
	copy(hdr[8:], "WEBPVP8L")
	binary.LittleEndian.PutUint32(hdr[16:], uint32(len(payload)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	if _, err := w.Write(payload); err != nil {
		return err
	}
	if pad == 1 {
		_, err := w.Write([]byte{0})
		return err
	}
	return nil
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// bitWriter packs bits least significant first, as VP8L reads them.
type bitWriter struct {
	buf   []byte
	acc   uint64
	nbits uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nbits
	w.nbits += n
	for w.nbits >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nbits -= 8
	}
}

func (w *bitWriter) bytes() []byte {
	if w.nbits > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nbits = 0, 0
	}
	return w.buf
}

// prefixCode is a canonical prefix code: each symbol's code, its bits reversed for a
// least-significant-first writer, and its length (0: not used, or a code of one symbol,
// which takes no bits).
type prefixCode struct {
	bits    []uint16
	lengths []uint8
}

func (c prefixCode) put(w *bitWriter, sym byte) {
	if n := c.lengths[sym]; n > 0 {
		w.write(uint64(c.bits[sym]), uint(n))
	}
}

// codeLengthOrder is the order the code length code's lengths are written in.
var codeLengthOrder = [19]int{17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// writePrefixCode writes the prefix code of the symbols counted (a simple code for at most
// two symbols below 256, else a normal one) and returns it.
func writePrefixCode(w *bitWriter, counts []int) prefixCode {
	var used []int
	for s, n := range counts {
		if n > 0 {
			used = append(used, s)
		}
	}
	if len(used) <= 2 && (len(used) == 0 || used[len(used)-1] < 256) {
		code := prefixCode{bits: make([]uint16, len(counts)), lengths: make([]uint8, len(counts))}
		w.write(1, 1) // simple
		if len(used) == 0 {
			used = []int{0}
		}
		w.write(uint64(len(used)-1), 1)
		if used[0] < 2 {
			w.write(0, 1)
			w.write(uint64(used[0]), 1)
		} else {
			w.write(1, 1)
			w.write(uint64(used[0]), 8)
		}
		if len(used) == 2 {
			w.write(uint64(used[1]), 8)
			code.lengths[used[0]], code.lengths[used[1]] = 1, 1
			code.bits[used[0]], code.bits[used[1]] = 0, 1
		}
		return code
	}
	lengths := limitedLengths(counts, 15)
	code := canonical(lengths)

	// The lengths are written with a code of their own (literal lengths 0-15 only).
	var lenCounts [19]int
	for _, l := range lengths {
		lenCounts[l]++
	}
	lenLengths := limitedLengths(lenCounts[:], 7)
	if n := nonZero(lenLengths); n == 1 {
		// A code of one symbol would take no bits to read: give it a partner, so that every
		// length read takes one.
		for s := range lenLengths {
			if lenLengths[s] == 0 {
				lenLengths[s] = 1
				break
			}
		}
		for s := range lenLengths {
			if lenLengths[s] != 0 {
				lenLengths[s] = 1
			}
		}
	}
	lenCode := canonical(lenLengths)
	last := 3
	for i, s := range codeLengthOrder {
		if lenLengths[s] != 0 {
			last = max(last, i)
		}
	}
	w.write(0, 1) // normal
	w.write(uint64(last+1-4), 4)
	for _, s := range codeLengthOrder[:last+1] {
		w.write(uint64(lenLengths[s]), 3)
	}
	w.write(0, 1) // every symbol's length follows
	for _, l := range lengths {
		w.write(uint64(lenCode.bits[l]), uint(lenCode.lengths[l]))
	}
	return code
}

func nonZero(ls []uint8) int {
	n := 0
	for _, l := range ls {
		if l != 0 {
			n++
		}
	}
	return n
}

// canonical assigns the canonical codes of lengths: shorter first, then by symbol, each
// code's bits reversed for a least-significant-first writer.
func canonical(lengths []uint8) prefixCode {
	var perLength [16]int
	for _, l := range lengths {
		perLength[l]++
	}
	perLength[0] = 0
	var next [16]int
	code := 0
	for l := 1; l < 16; l++ {
		code = (code + perLength[l-1]) << 1
		next[l] = code
	}
	c := prefixCode{bits: make([]uint16, len(lengths)), lengths: lengths}
	for s, l := range lengths {
		if l == 0 {
			continue
		}
		v, r := next[l], 0
		next[l]++
		for i := 0; i < int(l); i++ {
			r = r<<1 | v>>i&1
		}
		c.bits[s] = uint16(r)
	}
	return c
}

// limitedLengths are Huffman code lengths of counts, none longer than limit: while the
// code is too deep, the counts are halved (kept above zero), which flattens it.
func limitedLengths(counts []int, limit int) []uint8 {
	c := append([]int(nil), counts...)
	for {
		ls := huffmanLengths(c)
		deepest := 0
		for _, l := range ls {
			deepest = max(deepest, int(l))
		}
		if deepest <= limit {
			return ls
		}
		for i, n := range c {
			if n > 0 {
				c[i] = max(1, n/2)
			}
		}
	}
}

// huffmanLengths are the code lengths of a Huffman code of counts (0 for a symbol not
// counted; 1 for the only symbol counted).
func huffmanLengths(counts []int) []uint8 {
	ls := make([]uint8, len(counts))
	h := &nodeHeap{}
	var parent []int
	for s, n := range counts {
		if n > 0 {
			heap.Push(h, hnode{weight: n, id: len(parent), symbol: s})
			parent = append(parent, -1)
		}
	}
	if h.Len() == 1 {
		ls[(*h)[0].symbol] = 1
		return ls
	}
	leaves := len(parent)
	for h.Len() > 1 {
		a, b := heap.Pop(h).(hnode), heap.Pop(h).(hnode)
		id := len(parent)
		parent = append(parent, -1)
		parent[a.id], parent[b.id] = id, id
		heap.Push(h, hnode{weight: a.weight + b.weight, id: id, symbol: -1})
	}
	depth := make([]uint8, len(parent))
	for id := len(parent) - 2; id >= 0; id-- { // parents come after their children
		depth[id] = depth[parent[id]] + 1
	}
	i := 0
	syms := make([]int, 0, leaves)
	for s, n := range counts {
		if n > 0 {
			syms = append(syms, s)
		}
	}
	sort.Ints(syms)
	for _, s := range syms {
		ls[s] = depth[i]
		i++
	}
	return ls
}

type hnode struct {
	weight, id, symbol int
}

// nodeHeap orders nodes by weight, then by id, so that a code is the same every time.
type nodeHeap []hnode

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].weight != h[j].weight {
		return h[i].weight < h[j].weight
	}
	return h[i].id < h[j].id
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(hnode)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
