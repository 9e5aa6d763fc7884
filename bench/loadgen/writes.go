package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The write workload (bench/writes.sh): readers run the mixed list while N streams of the
// change feed are open, first alone, then while editors send score updates (PATCH of an
// event with an in-play status, which writes its live score entry) and record edits (PATCH
// of a team) at a constant rate through the records API. Each write carries a marker, a
// sequence number (the live score's intHomeScore, the team's strKeywords), matched on its
// arrival on every stream.

// Workload names of the two kinds of run.
const (
	writesOff = "writes: reads alone"
	writesOn  = "writes: reads while editors write"
)

// keywordsPrefix starts the strKeywords a team edit writes; the rest is its marker.
const keywordsPrefix = "bench-write "

// writeRec is one write sent: its record, its marker, when it was due, sent and answered.
type writeRec struct {
	kind, id         string
	seq              int64
	due, sent, answd time.Time
	status           int
}

// sighting is a stream seeing a record of kind and id with a marker, at a time.
type sighting struct {
	kind, id string
	seq      int64
	at       time.Time
}

// writesConfig is one `loadgen writes`.
type writesConfig struct {
	load    load
	streams streamsConfig
	editors []string
	events  []string
	teams   []string
	rate    float64
	writers int
	runs    int
	settle  time.Duration
	profile string // with pprof: the server's CPU profile of each run with writes, to this file
	pprof   string // the server's --pprof address
}

func writesCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen writes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rf := readerFlags(fs, "the first primes the cache")
	editorsFile := fs.String("editors", "", "file of editor keys, one per line, the writers take in turn")
	streamKey := fs.String("stream-key", "", "file holding the business key the streams are opened with")
	label := fs.String("label", "", "store name in the results (sqlite, postgres)")
	var c writesConfig
	c.streams.path = "/api/v2/json/stream/changes?kinds=livescore,team"
	fs.IntVar(&c.streams.n, "n", 1000, "streams to open")
	fs.IntVar(&c.streams.sources, "sources", 4, "source addresses 127.0.0.1 .. 127.0.0.N the streams are spread over")
	fs.Float64Var(&c.rate, "rate", 100, "writes per second")
	fs.IntVar(&c.writers, "writers", 8, "writing connections")
	fs.IntVar(&c.runs, "runs", 1, "pairs of runs, reads alone then with writes")
	fs.StringVar(&c.pprof, "pprof", "", "the server's --pprof address, for -cpu-profile")
	fs.StringVar(&c.profile, "cpu-profile", "", "with -pprof: the server's CPU profile over the run with writes (the last one, with -runs above 1); the run alone's beside it, named with -alone before its extension")
	fs.DurationVar(&c.settle, "settle", 10*time.Second, "how long the last writes are awaited on the streams (a write that has not reached every stream by then counts as arriving then)")
	nEvents := fs.Int("events", 20, "events the score updates go to")
	nTeams := fs.Int("teams", 20, "teams the record edits go to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *editorsFile == "" || *streamKey == "" {
		return errors.New("writes: -addr, -list, -premium, -editors and -stream-key are required")
	}
	if c.runs < 1 || c.runs > 10 || c.rate <= 0 || c.rate > 5000 || c.writers < 1 || c.streams.n < 1 {
		return errors.New("writes: want 1 to 10 runs, a rate within 0..5000, a writer, a stream")
	}
	var p *poller
	var err error
	if c.load, p, err = rf.open("writes"); err != nil {
		return err
	}
	if c.editors, err = readKeys(*editorsFile); err != nil {
		return err
	}
	sk, err := readKeys(*streamKey)
	if err != nil {
		return err
	}
	c.streams.addr, c.streams.key, c.streams.timeout = c.load.addr, sk[0], 30*time.Second
	// Every stream brings a record per write: read in 16 KiB, a team's record (about 3 KB)
	// is one read rather than six, and the load generator takes less of the machine.
	c.streams.readBuf = 16 << 10
	c.events, c.teams = writeTargets(c.load.list, *nEvents, *nTeams)
	if len(c.events) == 0 || len(c.teams) == 0 {
		return errors.New("writes: the list looks up no event or no team to write")
	}
	if err := p.prime(ctx, c.load.list); err != nil {
		return err
	}
	if err := raiseFileLimit(c.streams.n + c.load.connections + 256); err != nil {
		return err
	}
	start := time.Now()
	streams, err := openStreams(ctx, c.streams)
	defer func() {
		for _, s := range streams {
			s.conn.Close()
		}
	}()
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%d streams open in %.1fs\n", len(streams), time.Since(start).Seconds())
	var runs []writesRun
	for i := 0; i < c.runs; i++ {
		for _, writing := range []bool{false, true} {
			r, err := runWrites(ctx, c, streams, writing)
			if err != nil {
				return err
			}
			r.res.Server = *label
			fmt.Fprintf(stderr, "%s: %.0f reads/s, %d errors, %.1f writes/s (write p99 %.1f ms), arrival p99 %.0f ms, %d missed, server CPU %.0f µs an answer (%.2f cores), cache hit ratio %.3f, loadgen %.2f cores, load %s\n",
				r.res.Workload, r.res.RPS, r.res.Errors, r.WritesPerSec, r.WriteP99, r.ArrivalP99, r.Missed, r.CPUPerAnswer, r.ServerCores, r.HitRatio, r.LoadgenCores, r.Load)
			runs = append(runs, r)
		}
	}
	return writeWrites(stdout, *rf.out, *label, runs)
}

// writeTargets picks the events and teams the list looks up, up to nEvents and nTeams.
func writeTargets(list []line, nEvents, nTeams int) (events, teams []string) {
	seen := map[string]bool{}
	for _, ln := range list {
		if id := lookedUpEvent(ln.target); id != "" && isDigits(id) && !seen["e"+id] && len(events) < nEvents {
			seen["e"+id] = true
			events = append(events, id)
		}
		if id := lookedUp(ln.target, "team"); id != "" && isDigits(id) && !seen["t"+id] && len(teams) < nTeams {
			seen["t"+id] = true
			teams = append(teams, id)
		}
	}
	return events, teams
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// writeBody is the path and merge patch of a write: a score update of an event (even
// markers: the home score is the marker, the minute from it), or an edit of a team.
func writeBody(w *writeRec) (string, []byte) {
	if w.kind == "event" {
		return "/api/v2/json/records/event/" + w.id, fmt.Appendf(nil,
			`{"strStatus":"2H","strProgress":"%d","intHomeScore":"%d","intAwayScore":"0"}`, 46+w.seq%44, w.seq)
	}
	return "/api/v2/json/records/team/" + w.id, fmt.Appendf(nil, `{"strKeywords":"%s%d"}`, keywordsPrefix, w.seq)
}

// writesRun is one run: the readers' result and what the writes measured.
type writesRun struct {
	res         result
	Writes      int `json:"writes"`
	WriteErrors int `json:"write_errors"`
	// FirstWriteError names the first write refused (HTTP 0: no answer).
	FirstWriteError string  `json:"first_write_error,omitempty"`
	WritesPerSec    float64 `json:"writes_per_s"`
	WriteP50        float64 `json:"write_p50_ms"`
	WriteP99        float64 `json:"write_p99_ms"`
	// From the write's answer (its commit came before it) to its arrival on the last stream;
	// ArrivalSentP99 from when it was sent, a bound from above.
	ArrivalP50     float64 `json:"arrival_all_p50_ms"`
	ArrivalP99     float64 `json:"arrival_all_p99_ms"`
	ArrivalMax     float64 `json:"arrival_all_max_ms"`
	ArrivalSentP99 float64 `json:"arrival_all_from_sent_p99_ms"`
	Missed         int     `json:"missed"`
	// CPUPerAnswer and ServerCores are the server's CPU over the measured span (the warm-up
	// left out): per answer (reads and writes), and in cores.
	CPUPerAnswer float64 `json:"server_cpu_us_per_answer"`
	ServerCores  float64 `json:"server_cpu_cores"`
	HitRatio     float64 `json:"cache_hit_ratio"`
	// LoadgenCores is the load generator's own CPU over the run (readers, writers and stream
	// readers), in cores: on one machine it is taken from the server.
	LoadgenCores float64 `json:"loadgen_cpu_cores"`
	Load         string  `json:"load_average"`
}

// aloneProfile names the profile of the run alone beside file, the one with writes:
// writes.cpu.pprof gives writes-alone.cpu.pprof, so that `go tool pprof -diff_base` compares
// the two.
func aloneProfile(file string) string {
	dir, base := filepath.Split(file)
	stem, ext, _ := strings.Cut(base, ".")
	if ext != "" {
		ext = "." + ext
	}
	return dir + stem + "-alone" + ext
}

// runWrites drives one run of the readers, with the writers beside them when writing; the
// streams' sightings over the run are matched with the writes.
func runWrites(ctx context.Context, c writesConfig, streams []*sseConn, writing bool) (writesRun, error) {
	var run writesRun
	metrics := []string{"http://" + c.load.addr + "/metrics"}
	cpu0, t0 := ownCPU(), time.Now()
	// The server's counters are read when the warm-up ends, as the readers start counting,
	// and again when they stop: its CPU is that of the measured span alone.
	measured := t0.Add(c.load.warmup)
	var before map[string]int64
	var beforeAt time.Time
	var beforeErr error
	counted := make(chan struct{})
	go func() {
		defer close(counted)
		select {
		case <-time.After(time.Until(measured)):
		case <-ctx.Done():
		}
		beforeAt = time.Now()
		before, beforeErr = cacheCounts(ctx, metrics)
	}()
	seen := make([][]sighting, len(streams))
	stop := make(chan struct{})
	var rd sync.WaitGroup
	for i, s := range streams {
		rd.Add(1)
		go func() {
			defer rd.Done()
			seen[i] = readSightings(s, stop)
		}()
	}
	var writes []*writeRec
	var wg sync.WaitGroup
	var profErr error
	if c.pprof != "" && c.profile != "" {
		file := c.profile
		if !writing {
			file = aloneProfile(file)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			secs := int((c.load.warmup + c.load.duration).Seconds())
			profErr = saveProfile(ctx, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", c.pprof, max(1, secs)), file)
		}()
	}
	if writing {
		wg.Add(1)
		go func() {
			defer wg.Done()
			writes = sendWrites(ctx, c, time.Now().Add(c.load.warmup), c.load.warmup+c.load.duration)
		}()
	}
	res, err := runLoad(ctx, c.load)
	<-counted
	afterAt := time.Now()
	after, afterErr := cacheCounts(ctx, metrics)
	wg.Wait()
	if err = errors.Join(err, profErr, beforeErr, afterErr); err != nil {
		close(stop)
		rd.Wait()
		return run, err
	}
	run.Load = loadAverage()
	run.LoadgenCores = round((ownCPU()-cpu0).Seconds()/time.Since(t0).Seconds(), 2)
	if writing {
		time.Sleep(c.settle)
	}
	stopAt := time.Now()
	close(stop)
	// A reader blocked in a read wakes up at the next event or ping; a deadline ends it.
	for _, s := range streams {
		_ = s.conn.SetReadDeadline(time.Now())
	}
	rd.Wait()
	for _, s := range streams {
		_ = s.conn.SetReadDeadline(time.Time{})
	}
	res.Workload = writesOff
	if writing {
		res.Workload = writesOn
	}
	res.Label = res.Workload
	run.res = res
	answers := res.Requests
	for _, w := range writes {
		if !w.answd.Before(beforeAt) {
			answers++
		}
	}
	if h, m := after["hit"]-before["hit"], after["miss"]-before["miss"]; h+m > 0 {
		run.HitRatio = round(float64(h)/float64(h+m), 3)
	}
	cpu := float64(after[cpuKey] - before[cpuKey])
	if answers > 0 {
		run.CPUPerAnswer = round(cpu/float64(answers), 1)
	}
	if span := afterAt.Sub(beforeAt); span > 0 {
		run.ServerCores = round(cpu/1e6/span.Seconds(), 2)
	}
	if !writing {
		return run, nil
	}
	run.summarise(writes, seen, c.load.warmup+c.load.duration, stopAt)
	return run, nil
}

// summarise fills the write figures from the writes sent over span and the streams'
// sightings, read until stopAt: a write that has not reached every stream by then counts as
// arriving at stopAt (a bound from below), so that missed writes raise the percentiles.
func (run *writesRun) summarise(writes []*writeRec, seen [][]sighting, span time.Duration, stopAt time.Time) {
	var lat []time.Duration
	var ok []*writeRec
	for _, w := range writes {
		run.Writes++
		if w.status/100 != 2 {
			if run.WriteErrors == 0 {
				run.FirstWriteError = fmt.Sprintf("%s %s: HTTP %d", w.kind, w.id, w.status)
			}
			run.WriteErrors++
			continue
		}
		ok = append(ok, w)
		lat = append(lat, w.answd.Sub(w.due))
	}
	// Sustained: the writes answered over the time from the first one due to the last answer
	// (the span, or longer when the writes fell behind).
	elapsed := span
	if len(ok) > 0 {
		first, last := ok[0].due, ok[0].answd
		for _, w := range ok {
			first, last = minTime(first, w.due), maxTime(last, w.answd)
		}
		elapsed = max(span, last.Sub(first))
	}
	run.WritesPerSec = round(float64(len(ok))/elapsed.Seconds(), 1)
	slices.Sort(lat)
	if len(lat) > 0 {
		run.WriteP50, run.WriteP99 = ms(percentile(lat, 50)), ms(percentile(lat, 99))
	}
	last, missed := arrivals(ok, seen)
	run.Missed = missed
	var fromAnswer, fromSent []time.Duration
	for i, w := range ok {
		if last[i].IsZero() {
			last[i] = stopAt
		}
		fromAnswer = append(fromAnswer, max(0, last[i].Sub(w.answd)))
		fromSent = append(fromSent, last[i].Sub(w.sent))
	}
	slices.Sort(fromAnswer)
	slices.Sort(fromSent)
	if len(fromAnswer) > 0 {
		run.ArrivalP50, run.ArrivalP99 = ms(percentile(fromAnswer, 50)), ms(percentile(fromAnswer, 99))
		run.ArrivalMax, run.ArrivalSentP99 = ms(fromAnswer[len(fromAnswer)-1]), ms(percentile(fromSent, 99))
	}
}

// arrivals gives, for each write, when it had reached every stream (zero when it reached
// not all of them), and how many (write, stream) pairs it never reached.
func arrivals(writes []*writeRec, seen [][]sighting) ([]time.Time, int) {
	last := make([]time.Time, len(writes))
	missed := 0
	for i, at := range arrivalsEach(writes, seen) {
		reached := 0
		for _, t := range at {
			if !t.IsZero() {
				reached++
				last[i] = maxTime(last[i], t)
			}
		}
		if reached < len(at) {
			missed += len(at) - reached
			last[i] = time.Time{}
		}
	}
	return last, missed
}

// arrivalsEach gives, for each write and each stream (or receiver), when the write reached
// it (zero: never). A stream sends a record as it is when sent, so a write has arrived on a
// stream at the first sighting of its record with its marker or a later one.
func arrivalsEach(writes []*writeRec, seen [][]sighting) [][]time.Time {
	at := make([][]time.Time, len(writes))
	for i := range at {
		at[i] = make([]time.Time, len(seen))
	}
	byRecord := map[string][]int{} // kind/id: indexes of its writes, in marker order
	for i, w := range writes {
		k := w.kind + "/" + w.id
		byRecord[k] = append(byRecord[k], i)
	}
	for _, idx := range byRecord {
		slices.SortFunc(idx, func(a, b int) int { return int(writes[a].seq - writes[b].seq) })
	}
	for si, stream := range seen {
		next := map[string]int{} // kind/id: how many of its writes this stream has seen
		for _, s := range stream {
			k := s.kind + "/" + s.id
			idx := byRecord[k]
			n := next[k]
			for n < len(idx) && writes[idx[n]].seq <= s.seq {
				at[idx[n]][si] = s.at
				n++
			}
			next[k] = n
		}
	}
	return at
}

// readSightings reads one stream's events until stop is closed (and a read deadline wakes
// it), noting each live score and team with a marker. Lines longer than the reader's buffer
// are gathered in one buffer, reused.
func readSightings(s *sseConn, stop <-chan struct{}) []sighting {
	var out []sighting
	var event string
	var long []byte
	for {
		select {
		case <-stop:
			return out
		default:
		}
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, line...)
			continue
		}
		if err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				<-stop // a stream the server closed: nothing more comes
			}
			return out
		}
		if len(long) > 0 {
			long = append(long, line...)
			line = long
		}
		text := bytes.TrimRight(line, "\r\n")
		if e, ok := bytes.CutPrefix(text, []byte("event: ")); ok {
			event = string(e)
		} else if data, ok := bytes.CutPrefix(text, []byte("data: ")); ok {
			if sg, ok := parseSighting(event, data); ok {
				sg.at = time.Now()
				out = append(out, sg)
			}
		}
		long = long[:0]
	}
}

// parseSighting reads the marker of a live score (idEvent, intHomeScore) or a team (idTeam,
// strKeywords after keywordsPrefix) from an event's data line. It looks for the fields'
// text rather than decoding the record: a thousand streams bring tens of thousands of lines
// a second, on the machine the server runs on.
func parseSighting(event string, data []byte) (sighting, bool) {
	var sg sighting
	var mark string
	switch event {
	case "livescore":
		sg.kind, sg.id = "event", jsonString(data, "idEvent")
		mark = jsonString(data, "intHomeScore")
	case "team":
		var ok bool
		if mark, ok = strings.CutPrefix(jsonString(data, "strKeywords"), keywordsPrefix); !ok {
			return sighting{}, false
		}
		sg.kind, sg.id = "team", jsonString(data, "idTeam")
	default:
		return sighting{}, false
	}
	n, err := strconv.ParseInt(mark, 10, 64)
	if err != nil || !isDigits(sg.id) {
		return sighting{}, false
	}
	sg.seq = n
	return sg, true
}

// jsonString is the value of the top-level string field name in a one-line JSON object, when
// it has no escapes ("" otherwise).
func jsonString(data []byte, name string) string {
	_, rest, ok := bytes.Cut(data, []byte(`"`+name+`":"`))
	if !ok {
		return ""
	}
	v, _, ok := bytes.Cut(rest, []byte(`"`))
	if !ok || bytes.IndexByte(v, '\\') >= 0 {
		return ""
	}
	return string(v)
}

// writeSeq numbers the writes across runs, so that a marker is never sent twice.
var writeSeq atomic.Int64

// sendWrites sends writes at c.rate from start for span, alternating score updates and team
// edits over c.writers connections, and returns them. A write's latency counts from when it
// was due.
func sendWrites(ctx context.Context, c writesConfig, start time.Time, span time.Duration) []*writeRec {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: c.writers}}
	defer client.CloseIdleConnections()
	due := make(chan *writeRec, 1<<14)
	var mu sync.Mutex
	var all []*writeRec
	var wg sync.WaitGroup
	for w := range c.writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := c.editors[w%len(c.editors)]
			for rec := range due {
				path, body := writeBody(rec)
				req, err := http.NewRequestWithContext(ctx, http.MethodPatch, "http://"+c.load.addr+path, bytes.NewReader(body))
				if err != nil {
					continue
				}
				req.Header.Set("X-API-KEY", key)
				req.Header.Set("Content-Type", "application/merge-patch+json")
				rec.sent = time.Now()
				resp, err := client.Do(req)
				rec.answd = time.Now()
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					rec.status = resp.StatusCode
				}
				mu.Lock()
				all = append(all, rec)
				mu.Unlock()
			}
		}()
	}
	interval := time.Duration(float64(time.Second) / c.rate)
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * interval)
		if at.Sub(start) >= span || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Until(at))
		rec := &writeRec{seq: writeSeq.Add(1), due: at}
		if i%2 == 0 {
			rec.kind, rec.id = "event", c.events[(i/2)%len(c.events)]
		} else {
			rec.kind, rec.id = "team", c.teams[(i/2)%len(c.teams)]
		}
		due <- rec
	}
	close(due)
	wg.Wait()
	return all
}

// ownCPU is the user and system CPU time this process has used.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// loadAverage is the machine's load average (1, 5, 15 minutes), as uptime shows it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// writeWrites prints the runs as JSON lines (the readers' result lines, one
// {"type":"writes",...} line a run, and the targets), on stdout and appended to out.
func writeWrites(stdout io.Writer, out, label string, runs []writesRun) error {
	var buf bytes.Buffer
	var off, on []writesRun
	for _, r := range runs {
		buf.Write(append(mustJSON(r.res), '\n'))
		buf.Write(append(mustJSON(map[string]any{"type": "writes", "server": label, "workload": r.res.Workload, "run": r}), '\n'))
		if r.res.Workload == writesOn {
			on = append(on, r)
		} else {
			off = append(off, r)
		}
	}
	for _, t := range writesTargets(off, on) {
		buf.Write(append(mustJSON(map[string]any{"type": "target", "server": label, "name": t.name, "wanted": t.wanted, "measured": t.measured, "met": t.met}), '\n'))
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	return appendResults(out, buf.Bytes())
}

// writesCost is the server's CPU the writes take, in cores and in ms a write, the mean over
// the pairs of runs: its CPU with writes less the reads it answered meanwhile at what each
// cost in the run alone before. What is left is the writes, their fan-out to the streams,
// the answers they made stale and computed again, and whatever else the reads came to
// cost. The readers would keep 0.8 of their throughput on a server whose cores (all of
// them answering reads when nothing is written) are at least five times this.
func writesCost(off, on []writesRun) (cores, perWrite float64, ok bool) {
	n := 0
	for i := range min(len(off), len(on)) {
		if on[i].ServerCores == 0 || on[i].WritesPerSec == 0 || off[i].CPUPerAnswer == 0 {
			continue
		}
		c := on[i].ServerCores - on[i].res.RPS*off[i].CPUPerAnswer/1e6
		cores += c
		perWrite += c * 1000 / on[i].WritesPerSec
		n++
	}
	if n == 0 {
		return 0, 0, false
	}
	return round(cores/float64(n), 2), round(perWrite/float64(n), 1), true
}

// writesTargets compares the runs with writes to those without: read throughput at least
// 0.8 of it, every write on every stream within 1 s at p99, and no write refused.
func writesTargets(off, on []writesRun) []target {
	mean := func(rs []writesRun, f func(writesRun) float64) float64 {
		s := 0.0
		for _, r := range rs {
			s += f(r)
		}
		return s / float64(max(1, len(rs)))
	}
	rps := func(r writesRun) float64 { return r.res.RPS }
	worst := func(f func(writesRun) float64) float64 {
		v := 0.0
		for _, r := range on {
			v = max(v, f(r))
		}
		return v
	}
	ratio := 0.0
	if m := mean(off, rps); m > 0 {
		ratio = mean(on, rps) / m
	}
	errs := worst(func(r writesRun) float64 { return float64(r.WriteErrors + r.Missed + r.res.Errors) })
	cores, perWrite, paired := writesCost(off, on)
	return []target{
		check("read throughput with writes / without", ">= 0.8", ratio, len(on) > 0 && len(off) > 0, "%.2f", atLeast(0.8)),
		check("commit to arrival on all streams, p99 (ms)", "<= 1000", worst(func(r writesRun) float64 { return r.ArrivalP99 }), len(on) > 0, "%.0f", atMost(1000)),
		reported("writes sustained (writes/s)", mean(on, func(r writesRun) float64 { return r.WritesPerSec }), len(on) > 0, "%.1f"),
		reported("write p99 (ms)", worst(func(r writesRun) float64 { return r.WriteP99 }), len(on) > 0, "%.1f"),
		reported("server CPU the writes take (cores; reads costed as alone)", cores, paired, "%.2f"),
		reported("server CPU a write takes, streams and stale answers included (ms)", perWrite, paired, "%.1f"),
		check("refused writes, missed arrivals, read errors", "0", errs, len(on) > 0, "%.0f", atMost(0)),
	}
}
