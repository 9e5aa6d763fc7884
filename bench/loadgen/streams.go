package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// streamsConfig is one run of `loadgen streams`.
type streamsConfig struct {
	addr     string // server, host:port
	key      string // sent in X-API-KEY
	path     string // the stream to open
	n        int    // streams
	sources  int    // source addresses 127.0.0.1..127.0.0.<sources>
	pid      int    // the server's process, for its RSS
	pprof    string // the server's --pprof address: a GC is forced before each RSS reading
	heap     string // file for a heap profile with the streams open ("": none)
	changes  int    // changes imported, one at a time
	importer []string
	settle   time.Duration
	timeout  time.Duration
	// readBuf is each stream's read buffer (default 512 bytes, for many idle streams); a
	// stream that brings records a second reads them in fewer calls with a larger one.
	readBuf int
}

// streamsResult is what `loadgen streams` prints.
type streamsResult struct {
	Streams      int     `json:"streams"`
	Changes      int     `json:"changes"`
	OpenSeconds  float64 `json:"open_seconds"`
	RSSBeforeKB  int64   `json:"rss_before_kb"`
	RSSAfterKB   int64   `json:"rss_after_kb"`
	RSSPerStream float64 `json:"rss_kb_per_stream"`
	// From the server's runtime (with -pprof), the streams open: heap in use and stacks.
	HeapInuseKB int64   `json:"heap_inuse_kb,omitempty"`
	StackKB     int64   `json:"stack_inuse_kb,omitempty"`
	Delivered   int     `json:"delivered"`
	Missed      int     `json:"missed"`
	ImportMS    float64 `json:"import_ms_median"`
	P50MS       float64 `json:"delivery_p50_ms"`
	P99MS       float64 `json:"delivery_p99_ms"`
	MaxMS       float64 `json:"delivery_max_ms"`
	SpreadP99MS float64 `json:"spread_p99_ms"`
}

func streamsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen streams", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c streamsConfig
	fs.StringVar(&c.addr, "addr", "", "server address, host:port (loopback)")
	keyFile := fs.String("key-file", "", "file holding the key the streams are opened with")
	fs.StringVar(&c.path, "path", "/api/v2/json/stream/livescore", "stream path")
	fs.IntVar(&c.n, "n", 10000, "streams to open")
	fs.IntVar(&c.sources, "sources", 4, "source addresses 127.0.0.1 .. 127.0.0.N the streams are spread over")
	fs.IntVar(&c.pid, "pid", 0, "the server's process id, for its RSS (/proc/PID/status)")
	fs.StringVar(&c.pprof, "pprof", "", "the server's --pprof address; a GC is forced there before each RSS reading")
	fs.StringVar(&c.heap, "heap-profile", "", "with -pprof: write the server's heap profile with the streams open to this file")
	fs.IntVar(&c.changes, "changes", 3, "changes imported one after the other, each awaited on every stream")
	sportsdb := fs.String("sportsdb", "", "the sportsdb binary that imports the changes")
	db := fs.String("db", "", "the server's database (--db of the import)")
	fs.DurationVar(&c.settle, "settle", 2*time.Second, "wait before each RSS reading")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Second, "how long a change is awaited on every stream")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.addr == "" || *keyFile == "" || c.pid <= 0 || *sportsdb == "" || *db == "" {
		return errors.New("streams: -addr, -key-file, -pid, -sportsdb and -db are required")
	}
	if c.n < 1 || c.sources < 1 || c.sources > 254 || c.changes < 1 {
		return errors.New("streams: -n, -changes at least 1, -sources within 1..254")
	}
	kb, err := os.ReadFile(*keyFile)
	if err != nil {
		return fmt.Errorf("streams: %w", err)
	}
	c.key = strings.TrimSpace(string(kb))
	dir, err := os.MkdirTemp("", "loadgen-streams-")
	if err != nil {
		return fmt.Errorf("streams: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "livescore.json")
	c.importer = []string{*sportsdb, "import", "--db", *db, file}
	if err := raiseFileLimit(c.n + 256); err != nil {
		return err
	}
	res, err := runStreams(ctx, c, file, stderr)
	if err != nil {
		return err
	}
	out, err := json.Marshal(map[string]any{"type": "streams", "streams": res})
	if err != nil {
		return fmt.Errorf("streams: %w", err)
	}
	fmt.Fprintf(stderr, "%d streams opened in %.1fs; server RSS %d -> %d KB, %.1f KB per stream\n",
		res.Streams, res.OpenSeconds, res.RSSBeforeKB, res.RSSAfterKB, res.RSSPerStream)
	fmt.Fprintf(stderr, "server runtime with the streams open: heap in use %d KB, stacks %d KB\n", res.HeapInuseKB, res.StackKB)
	fmt.Fprintf(stderr, "%d changes: %d deliveries, %d missed; from the start of each import: p50 %.0f ms, p99 %.0f ms, max %.0f ms (import %.0f ms); first to p99 arrival %.0f ms\n",
		res.Changes, res.Delivered, res.Missed, res.P50MS, res.P99MS, res.MaxMS, res.ImportMS, res.SpreadP99MS)
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}

// raiseFileLimit lifts the soft limit of open files to want (or the hard limit, if lower):
// every stream holds a socket.
func raiseFileLimit(want int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("streams: open files limit: %w", err)
	}
	if lim.Cur >= uint64(want) {
		return nil
	}
	lim.Cur = min(uint64(want), lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("streams: raise the open files limit: %w", err)
	}
	if lim.Cur < uint64(want) {
		return fmt.Errorf("streams: %d streams need %d open files, the hard limit is %d (raise it: ulimit -Hn)", want-256, want, lim.Max)
	}
	return nil
}

// sseConn is one open stream: it reports on arrived the time each livescore event arrived.
type sseConn struct {
	conn net.Conn
	r    *bufio.Reader
}

// runStreams opens the streams, reads the server's RSS before and after, then imports each
// change and times its arrival on every stream.
func runStreams(ctx context.Context, c streamsConfig, file string, stderr io.Writer) (streamsResult, error) {
	res := streamsResult{Streams: c.n, Changes: c.changes}
	before, err := serverRSS(ctx, c)
	if err != nil {
		return res, err
	}
	start := time.Now()
	conns, err := openStreams(ctx, c)
	defer func() {
		for _, s := range conns {
			s.conn.Close()
		}
	}()
	if err != nil {
		return res, err
	}
	res.OpenSeconds = time.Since(start).Seconds()
	after, err := serverRSS(ctx, c)
	if err != nil {
		return res, err
	}
	res.RSSBeforeKB, res.RSSAfterKB = before, after
	res.RSSPerStream = float64(after-before) / float64(c.n)
	if c.pprof != "" {
		if res.HeapInuseKB, res.StackKB, err = memStats(ctx, c.pprof); err != nil {
			return res, err
		}
	}
	if c.pprof != "" && c.heap != "" {
		if err := saveProfile(ctx, "http://"+c.pprof+"/debug/pprof/heap", c.heap); err != nil {
			return res, err
		}
	}

	// Every stream reads in its own goroutine and notes the arrival of its k-th event in
	// slot k of its own: no lock or channel shared by the readers while they are timed.
	arrivals := make([][]time.Time, c.changes)
	pending := make([]atomic.Int64, c.changes)
	all := make([]chan struct{}, c.changes) // closed when change k reached every stream
	for k := range c.changes {
		arrivals[k] = make([]time.Time, c.n)
		pending[k].Store(int64(c.n))
		all[k] = make(chan struct{})
	}
	var wg sync.WaitGroup
	for i, s := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := 0
			for {
				line, err := s.r.ReadSlice('\n')
				if err != nil {
					return
				}
				if !strings.HasPrefix(string(line), "event: livescore") || k >= c.changes {
					continue
				}
				arrivals[k][i] = time.Now()
				if pending[k].Add(-1) == 0 {
					close(all[k])
				}
				k++
			}
		}()
	}
	defer wg.Wait()
	defer func() {
		for _, s := range conns {
			s.conn.Close()
		}
	}()

	var lat, spread, imports []time.Duration
	for round := range c.changes {
		body := fmt.Sprintf(`{"livescore":[{"idLiveScore":"990000001","strSport":"Soccer","strHomeTeam":"Streams Bench","strAwayTeam":"Load","intHomeScore":"%d","intAwayScore":"0","strStatus":"1H","strProgress":"%d"}]}`,
			time.Now().UnixNano(), round+1)
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			return res, fmt.Errorf("streams: %w", err)
		}
		t0 := time.Now()
		cmd := exec.CommandContext(ctx, c.importer[0], c.importer[1:]...)
		cmd.Stderr = stderr
		if err := cmd.Run(); err != nil {
			return res, fmt.Errorf("streams: import: %w", err)
		}
		imports = append(imports, time.Since(t0))
		timedOut := false
		select {
		case <-all[round]:
		case <-time.After(c.timeout):
			// The readers end before their slots are read.
			timedOut = true
			for _, s := range conns {
				s.conn.Close()
			}
			wg.Wait()
		case <-ctx.Done():
			return res, ctx.Err()
		}
		ats := slices.DeleteFunc(slices.Clone(arrivals[round]), time.Time.IsZero)
		var first time.Time
		if len(ats) > 0 {
			first = slices.MinFunc(ats, time.Time.Compare)
		}
		var since []time.Duration
		for _, at := range ats {
			lat = append(lat, at.Sub(t0))
			since = append(since, at.Sub(first))
		}
		res.Delivered += len(ats)
		res.Missed += c.n - len(ats)
		slices.Sort(since)
		if len(since) > 0 {
			spread = append(spread, percentile(since, 99))
		}
		if timedOut {
			res.Missed += (c.changes - round - 1) * c.n
			break
		}
	}
	slices.Sort(lat)
	slices.Sort(imports)
	slices.Sort(spread)
	if len(lat) > 0 {
		res.P50MS, res.P99MS, res.MaxMS = ms(percentile(lat, 50)), ms(percentile(lat, 99)), ms(lat[len(lat)-1])
	}
	res.ImportMS = ms(percentile(imports, 50))
	if len(spread) > 0 {
		res.SpreadP99MS = ms(spread[len(spread)-1])
	}
	if res.Missed > 0 {
		return res, fmt.Errorf("streams: %d of %d deliveries missing after %s", res.Missed, c.n*c.changes, c.timeout)
	}
	return res, nil
}

// openStreams opens c.n streams, a few hundred at a time, each from one of the source
// addresses in turn (one address has about 28,000 ephemeral ports).
func openStreams(ctx context.Context, c streamsConfig) ([]*sseConn, error) {
	conns := make([]*sseConn, c.n)
	errs := make(chan error, 1)
	sem := make(chan struct{}, 256)
	var wg sync.WaitGroup
	for i := range c.n {
		select {
		case sem <- struct{}{}:
		case err := <-errs:
			wg.Wait()
			return compact(conns), err
		case <-ctx.Done():
			wg.Wait()
			return compact(conns), ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			s, err := openStream(ctx, c, net.IPv4(127, 0, 0, byte(1+i%c.sources)))
			if err != nil {
				select {
				case errs <- fmt.Errorf("streams: stream %d: %w", i+1, err):
				default:
				}
				return
			}
			conns[i] = s
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		return compact(conns), err
	default:
	}
	return conns, nil
}

func compact(conns []*sseConn) []*sseConn {
	return slices.DeleteFunc(conns, func(s *sseConn) bool { return s == nil })
}

// openStream sends the request by hand and reads up to the stream's first block (the retry
// line), so that a stream counted as open is one the server serves.
func openStream(ctx context.Context, c streamsConfig, src net.IP) (*sseConn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: src}, Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(c.timeout))
	req := "GET " + c.path + " HTTP/1.1\r\nHost: " + c.addr + "\r\nX-API-KEY: " + c.key + "\r\nAccept: text/event-stream\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	r := bufio.NewReaderSize(conn, max(c.readBuf, 512))
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		conn.Close()
		return nil, fmt.Errorf("HTTP %d %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	// The stream is read below the chunked framing: chunk sizes are lines of their own, and
	// each event is written and flushed at once, so an event's lines arrive whole.
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			conn.Close()
			return nil, err
		}
		if strings.HasPrefix(string(line), "retry:") {
			break
		}
	}
	_ = conn.SetDeadline(time.Time{})
	return &sseConn{conn: conn, r: r}, nil
}

// serverRSS reads VmRSS of the server after a forced GC (with -pprof) and a pause.
func serverRSS(ctx context.Context, c streamsConfig) (int64, error) {
	if c.pprof != "" {
		if err := saveProfile(ctx, "http://"+c.pprof+"/debug/pprof/heap?gc=1", os.DevNull); err != nil {
			return 0, err
		}
	}
	select {
	case <-time.After(c.settle):
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	rss, err := procStatus(c.pid, "VmRSS")
	if err != nil {
		return 0, fmt.Errorf("streams: %w", err)
	}
	return rss, nil
}

// memStats reads HeapInuse and StackInuse of the server's runtime, in KB, from the text
// form of its heap profile.
func memStats(ctx context.Context, pprof string) (heap, stack int64, err error) {
	f, err := os.CreateTemp("", "loadgen-heap-")
	if err != nil {
		return 0, 0, fmt.Errorf("streams: %w", err)
	}
	f.Close()
	defer os.Remove(f.Name())
	if err := saveProfile(ctx, "http://"+pprof+"/debug/pprof/heap?debug=1", f.Name()); err != nil {
		return 0, 0, err
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return 0, 0, fmt.Errorf("streams: %w", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "# HeapInuse = "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			heap = n >> 10
		}
		if v, ok := strings.CutPrefix(l, "# Stack = "); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			stack = n >> 10
		}
	}
	return heap, stack, nil
}

// saveProfile writes the answer of a profiling handler at url into file.
func saveProfile(ctx context.Context, url, file string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("streams: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("streams: profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("streams: profile: HTTP %d", resp.StatusCode)
	}
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("streams: %w", err)
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return fmt.Errorf("streams: profile: %w", err)
	}
	return f.Close()
}
