package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// line is one entry of a request list: a request target and the X-API-KEY header it carries
// ("" for none). In the file it is TARGET or TARGET<TAB>KEY, one per line.
type line struct {
	target, key string
}

func readList(path string) ([]line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("request list: %w", err)
	}
	defer f.Close()
	var out []line
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		target, key, _ := strings.Cut(text, "\t")
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n") || strings.ContainsAny(key, "\t\r\n") {
			return nil, fmt.Errorf("request list %s line %d: want /PATH?QUERY, optionally a tab and a key: %q", path, n, text)
		}
		out = append(out, line{target, key})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("request list %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("request list %s is empty", path)
	}
	return out, nil
}

// load describes one measured run.
type load struct {
	addr        string   // host:port
	more        []string // further addresses: requests go round-robin over addr and these
	list        []line
	connections int
	duration    time.Duration
	warmup      time.Duration // requests sent before measuring starts, not counted
	rate        float64       // requests per second for a constant-rate run; 0 = as fast as possible
	timeout     time.Duration
	// once sends each request of the list at most once, in order across all connections:
	// the run ends when the list does or the duration is over, whichever comes first.
	once bool
}

// result is what one run measured. Latencies of a constant-rate run count from when each
// request was due, not when it was sent, so a stalled server is not hidden by a stalled
// client (coordinated omission).
type result struct {
	Label     string         `json:"label,omitempty"`
	Workload  string         `json:"workload,omitempty"`
	Server    string         `json:"server,omitempty"`
	Rate      float64        `json:"target_rate,omitempty"`
	Conns     int            `json:"connections"`
	Seconds   float64        `json:"seconds"`
	Requests  int            `json:"requests"`
	RPS       float64        `json:"rps"`
	P50       float64        `json:"p50_ms"`
	P90       float64        `json:"p90_ms"`
	P99       float64        `json:"p99_ms"`
	Max       float64        `json:"max_ms"`
	Errors    int            `json:"errors"`
	NetErrors int            `json:"net_errors"`
	Status    map[string]int `json:"status"`
	BodyBytes int64          `json:"body_bytes"`
	// Once: each request of the list was sent at most once; ListEnded: the list ran out
	// before the duration did (Seconds is then the time the list took).
	Once      bool `json:"once,omitempty"`
	ListEnded bool `json:"list_ended,omitempty"`
	// Cache is the server's response cache over the run, when its metrics were read.
	Cache      *cacheUse `json:"cache,omitempty"`
	FirstError string    `json:"first_error,omitempty"`
	// BySize splits the answers by body size, to show which sizes make the tail.
	BySize []sizeClass `json:"by_size,omitempty"`
}

// sizeClass is the latency of the answers whose body size is below Below bytes (0: no
// bound) and at least the bound of the class before it. Tail counts those among the slowest
// 1% of the run.
type sizeClass struct {
	Below    int     `json:"below_bytes"`
	Requests int     `json:"requests"`
	P50      float64 `json:"p50_ms"`
	P99      float64 `json:"p99_ms"`
	Tail     int     `json:"in_slowest_1pct"`
}

// sizeBounds are the upper bounds of the size classes: the answers the server writes from
// memory in one write, from memory in one held write, from a file, and large ones.
var sizeBounds = []int{4 << 10, 16 << 10, 64 << 10, 0}

type workerStats struct {
	answers  []sizedLatency
	status   map[int]int
	netErrs  int
	bytes    int64
	firstErr error
	last     time.Time // when the worker's last answer came
}

// runLoad drives the server with l and returns what it measured.
func runLoad(ctx context.Context, l load) (result, error) {
	if l.connections < 1 || l.duration <= 0 {
		return result{}, errors.New("run: want at least one connection and a positive duration")
	}
	host := l.addr
	reqs := make([]request, len(l.list))
	for i, ln := range l.list {
		reqs[i] = buildRequest(host, ln.target, ln.key)
	}
	if l.once {
		l.warmup = 0 // a warm-up would spend requests that are to be sent once
	}
	start := time.Now().Add(l.warmup)
	end := start.Add(l.duration)
	var due chan time.Time
	if l.rate > 0 {
		due = make(chan time.Time, 1<<16)
		go schedule(ctx, due, start, end, l.rate)
	}
	var shared *atomic.Int64
	if l.once {
		shared = &atomic.Int64{}
	}
	addrs := append([]string{l.addr}, l.more...)
	stats := make([]*workerStats, l.connections)
	var wg sync.WaitGroup
	for w := range l.connections {
		st := &workerStats{status: map[int]int{}}
		stats[w] = st
		conns := make([]*conn, len(addrs))
		for i, a := range addrs {
			conns[i] = newConn(a, l.timeout)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Workers start at spread offsets so they do not all ask for the same thing.
			work(ctx, conns, reqs, w*len(reqs)/l.connections, shared, start, end, due, st)
		}()
	}
	wg.Wait()
	return summarise(stats, l, start), nil
}

// schedule sends the due time of each request of a constant-rate run.
func schedule(ctx context.Context, due chan<- time.Time, start, end time.Time, rate float64) {
	defer close(due)
	interval := time.Duration(float64(time.Second) / rate)
	if d := time.Until(start); d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return
		}
	}
	for i := 0; ; i++ {
		t := start.Add(time.Duration(i) * interval)
		if !t.Before(end) {
			return
		}
		if d := time.Until(t); d > 200*time.Microsecond {
			time.Sleep(d)
		}
		select {
		case due <- t:
		case <-ctx.Done():
			return
		}
	}
}

// work sends requests on its connections, one connection per server address, taking turns
// request by request. With shared set (a once run), the next request is the list's next one
// not yet taken by any worker, and the worker stops at the end of the list.
func work(ctx context.Context, conns []*conn, reqs []request, next int, shared *atomic.Int64, start, end time.Time, due <-chan time.Time, st *workerStats) {
	defer func() {
		for _, c := range conns {
			c.close()
		}
	}()
	for ctx.Err() == nil {
		i := next
		if shared != nil {
			i = int(shared.Add(1) - 1)
			if i >= len(reqs) {
				return
			}
		}
		var sent time.Time
		if due != nil {
			t, ok := <-due
			if !ok {
				return
			}
			sent = t
		} else {
			sent = time.Now()
			if !sent.Before(end) {
				return
			}
		}
		status, n, err := conns[i%len(conns)].do(reqs[i%len(reqs)])
		next++
		done := time.Now()
		if done.After(st.last) {
			st.last = done
		}
		if sent.Before(start) {
			continue // warm-up
		}
		if err != nil {
			st.netErrs++
			if st.firstErr == nil {
				st.firstErr = err
			}
			if due == nil && done.Before(end) {
				time.Sleep(10 * time.Millisecond) // a refused connection must not spin
			}
			continue
		}
		st.answers = append(st.answers, sizedLatency{done.Sub(sent), n})
		st.status[status]++
		st.bytes += int64(n)
	}
}

func summarise(stats []*workerStats, l load, start time.Time) result {
	r := result{Conns: l.connections, Rate: l.rate, Seconds: l.duration.Seconds(), Status: map[string]int{}, Once: l.once}
	var answers []sizedLatency
	var last time.Time
	for _, st := range stats {
		if st.last.After(last) {
			last = st.last
		}
		answers = append(answers, st.answers...)
		for code, n := range st.status {
			r.Status[strconv.Itoa(code)] += n
			if !okStatus(code) {
				r.Errors += n
			}
		}
		r.NetErrors += st.netErrs
		r.BodyBytes += st.bytes
		if st.firstErr != nil && r.FirstError == "" {
			r.FirstError = st.firstErr.Error()
		}
	}
	r.Errors += r.NetErrors
	slices.SortFunc(answers, func(a, b sizedLatency) int { return cmp.Compare(a.lat, b.lat) })
	lat := make([]time.Duration, len(answers))
	for i, a := range answers {
		lat[i] = a.lat
	}
	r.Requests = len(lat)
	if took := last.Sub(start); l.once && took > 0 && took < l.duration {
		r.ListEnded, r.Seconds = true, round(took.Seconds(), 3)
	}
	r.RPS = round(float64(len(lat))/r.Seconds, 1)
	r.P50 = ms(percentile(lat, 50))
	r.P90 = ms(percentile(lat, 90))
	r.P99 = ms(percentile(lat, 99))
	if len(lat) > 0 {
		r.Max = ms(lat[len(lat)-1])
	}
	r.BySize = bySize(answers, len(lat)-int(math.Ceil(0.01*float64(len(lat)))))
	return r
}

// sizedLatency is one answer's latency and body size.
type sizedLatency struct {
	lat  time.Duration
	size int
}

// bySize splits answers, sorted by latency, into sizeBounds' classes. The answers from rank
// tailFrom on are the run's slowest 1%.
func bySize(answers []sizedLatency, tailFrom int) []sizeClass {
	if len(answers) == 0 {
		return nil
	}
	class := func(size int) int {
		for i, b := range sizeBounds {
			if b == 0 || size < b {
				return i
			}
		}
		return len(sizeBounds) - 1
	}
	lats := make([][]time.Duration, len(sizeBounds))
	out := make([]sizeClass, len(sizeBounds))
	for rank, s := range answers {
		i := class(s.size)
		lats[i] = append(lats[i], s.lat) // in latency order, so sorted
		if rank >= tailFrom {
			out[i].Tail++
		}
	}
	for i, b := range sizeBounds {
		out[i].Below, out[i].Requests = b, len(lats[i])
		out[i].P50, out[i].P99 = ms(percentile(lats[i], 50)), ms(percentile(lats[i], 99))
	}
	return out
}

// okStatus: a 2xx answer, or 304 to a conditional request.
func okStatus(code int) bool { return code/100 == 2 || code == 304 }

// percentile of sorted values, nearest rank.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(rank, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return round(float64(d)/float64(time.Millisecond), 3) }

func round(v float64, places int) float64 {
	f := math.Pow(10, float64(places))
	return math.Round(v*f) / f
}
