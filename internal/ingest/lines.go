package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"sportsdb/internal/record"
)

// An NDJSON file is parsed on several goroutines, a chunk of whole lines each, while the
// caller stores the records in file order: the importer then keeps the cores busy that the
// store leaves idle, and what it stores, and in which order, is what reading line by line
// gives. Parsing is all the goroutines do. A line they do not take as it is (a record over
// several lines, anything invalid) hands the rest of the file to the line-by-line reader,
// which also words every error, so messages name the same line and byte either way.

// chunkSize is the usual size of a chunk; a longer line makes its chunk longer.
const chunkSize = 256 << 10

// lineChunk is a run of whole lines and, once parsed, its records.
type lineChunk struct {
	buf    []byte // the chunk's buffer, reused once the chunk is stored
	data   []byte // the lines: the start of buf
	line   int    // number of the first line
	offset int64  // file offset of data[0]
	parsed chan struct{}

	recs  []record.Record
	lines []int // line of each record
	// rest is where the line-by-line reader must go on (an index into data, on restLine),
	// or -1 when every line was parsed.
	rest, restLine int
	unknown        map[unknownField]int
}

// lineParser parses chunks on one goroutine.
type lineParser struct {
	obj *objectParser
	b   *builder
}

func (lp *lineParser) parse(c *lineChunk, fills []fill) {
	lp.b.fills = fills
	clear(lp.b.unknown)
	c.rest = -1
	line := c.line
	for pos := 0; pos < len(c.data); line++ {
		end := bytes.IndexByte(c.data[pos:], '\n')
		next := pos + end + 1
		if end < 0 {
			end, next = len(c.data)-pos, len(c.data)
		}
		text := c.data[pos : pos+end]
		if !blank(text) {
			n, err := lp.obj.parse(text)
			if err != nil || !blank(text[n:]) {
				c.rest, c.restLine = pos, line
				break
			}
			r, err := lp.b.build(lp.obj)
			if err != nil {
				c.rest, c.restLine = pos, line
				break
			}
			c.recs = append(c.recs, r)
			c.lines = append(c.lines, line)
		}
		pos = next
	}
	for uf, n := range lp.b.unknown {
		c.unknown[uf] += n
	}
}

// blank says whether a line holds nothing but white space.
func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// chunker cuts a file into chunks of whole lines.
type chunker struct {
	src    io.Reader
	size   int
	carry  []byte // what was read after the last whole line
	line   int
	offset int64
	eof    bool
	empty  int // reads in a row that gave nothing
	free   [][]byte
}

// next returns the next chunk, or nil at the end of the file.
func (ck *chunker) next() (*lineChunk, error) {
	if ck.eof {
		return nil, nil
	}
	var buf []byte
	if n := len(ck.free); n > 0 {
		buf, ck.free = ck.free[n-1], ck.free[:n-1]
	}
	if cap(buf) < max(ck.size, 2*len(ck.carry)) {
		buf = make([]byte, max(ck.size, 2*len(ck.carry)))
	}
	buf = buf[:cap(buf)]
	n := copy(buf, ck.carry)
	cut := -1 // the end of the last whole line in buf[:n]
	for !ck.eof {
		if n == len(buf) {
			if cut >= 0 {
				break
			}
			if len(buf) >= maxValue {
				return nil, fmt.Errorf("a line longer than %d MB", maxValue>>20)
			}
			grown := make([]byte, 2*len(buf))
			copy(grown, buf[:n])
			buf = grown
		}
		m, err := ck.src.Read(buf[n:])
		if i := bytes.LastIndexByte(buf[n:n+m], '\n'); i >= 0 {
			cut = n + i + 1
		}
		n += m
		if errors.Is(err, io.EOF) {
			ck.eof = true
		} else if err != nil {
			return nil, fmt.Errorf("read: %w", err)
		}
		if ck.empty = ck.empty + 1; m > 0 {
			ck.empty = 0
		} else if ck.empty > 100 {
			return nil, fmt.Errorf("read: %w", io.ErrNoProgress)
		}
	}
	if ck.eof {
		cut = n
	}
	ck.carry = append(ck.carry[:0], buf[cut:n]...)
	c := &lineChunk{buf: buf, data: buf[:cut], line: ck.line, offset: ck.offset,
		parsed: make(chan struct{}), unknown: map[unknownField]int{}}
	if ck.offset == 0 && bytes.HasPrefix(c.data, []byte("\xef\xbb\xbf")) {
		c.data, c.offset = c.data[3:], 3
	}
	ck.line += bytes.Count(c.data, []byte{'\n'})
	ck.offset = c.offset + int64(len(c.data))
	return c, nil
}

// readLines reads the records of an NDJSON file and gives each to keep, in file order.
// When the parsers leave a line to it, br reads the rest of the file.
func (imp *importer) readLines(src io.Reader, fills []fill, br *bodyReader, keep func(record.Record) error) error {
	workers := runtime.GOMAXPROCS(0)
	for len(imp.lps) < workers {
		imp.lps = append(imp.lps, &lineParser{obj: newObjectParser(), b: newBuilder()})
	}
	jobs := make(chan *lineChunk, 2*workers)
	var wg sync.WaitGroup
	defer wg.Wait() // the parsers are used again for the next file
	defer close(jobs)
	for _, lp := range imp.lps[:workers] {
		wg.Go(func() {
			for c := range jobs {
				lp.parse(c, fills)
				close(c.parsed)
			}
		})
	}
	ck := &chunker{src: src, size: imp.chunk, line: 1}
	var queue []*lineChunk // chunks handed out, in file order
	for {
		// Keep every parser busy, and one chunk more ready for each.
		for len(queue) < 2*workers && !ck.eof {
			c, err := ck.next()
			if err != nil {
				return err
			}
			if c == nil {
				break
			}
			jobs <- c
			queue = append(queue, c)
		}
		if len(queue) == 0 {
			return nil
		}
		c := queue[0]
		queue = queue[1:]
		<-c.parsed
		for uf, n := range c.unknown {
			imp.b.noteUnknown(uf, n)
		}
		for i, r := range c.recs {
			if err := keep(r); err != nil {
				return &FileError{Where: fmt.Sprintf("line %d", c.lines[i]), Err: err}
			}
		}
		if c.rest >= 0 {
			// The parsers are still busy with the chunks after this one; their work is
			// dropped, the line-by-line reader reads the same bytes.
			rest := []io.Reader{bytes.NewReader(c.data[c.rest:])}
			for _, q := range queue {
				rest = append(rest, bytes.NewReader(q.data))
			}
			rest = append(rest, bytes.NewReader(ck.carry), src)
			imp.r.reset(io.MultiReader(rest...))
			imp.r.base = c.offset + int64(c.rest)
			return br.readLines(c.restLine)
		}
		ck.free = append(ck.free, c.buf)
	}
}
