package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The live workload (bench/live.sh): the mixed workload on unchanging data, then while
// another process imports changes every tick (live scores and a few events, as on a match
// day), the two alternating. Meanwhile a poller asks for the changed records' URLs, as a
// client polling for scores does, and times how long each change takes to show.

// Workload names of the two kinds of run, as the results file and the report show them.
const (
	liveStatic   = "live: unchanging data"
	liveChanging = "live: imports every tick"
)

// visibleWithin is how long the poller waits for a change to show before counting it unseen.
const visibleWithin = 5 * time.Second

func liveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen live", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rf := readerFlags(fs, "the first polls")
	db := fs.String("db", "", "the server's database, which the imports write to")
	bin := fs.String("sportsdb", "sportsdb", "the sportsdb binary that imports")
	dir := fs.String("dir", "", "folder for the import files")
	runs := fs.Int("runs", 2, "pairs of runs, unchanging then changing")
	tick := fs.Duration("tick", 2*time.Second, "time between imports")
	scores := fs.Int("scores", 20, "live scores changed by each import")
	events := fs.Int("events", 3, "events changed by each import")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *db == "" || *dir == "" {
		return errors.New("live: -addr, -list, -db, -premium and -dir are required")
	}
	if *runs < 1 || *runs > 20 || *tick < 100*time.Millisecond || *scores < 1 || *events < 0 {
		return errors.New("live: want 1 to 20 runs, a tick of at least 100ms, at least one live score")
	}
	l, p, err := rf.open("live")
	if err != nil {
		return err
	}
	lines := l.list
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	targets, err := p.liveTargets(ctx, lines, *scores, *events)
	if err != nil {
		return err
	}
	// Every request once first, so that no run pays for filling the cache: the first run
	// would otherwise be slower whichever kind it is.
	if err := p.prime(ctx, lines); err != nil {
		return err
	}
	ch := &changer{bin: *bin, db: *db, dir: *dir, tick: *tick, targets: targets, poll: p, events: *events}
	var results []liveRun
	for i := 0; i < *runs; i++ {
		for _, changing := range []bool{false, true} {
			r, err := runLive(ctx, l, p, ch, changing)
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "%s: %.0f req/s, %d errors, cache hit ratio %.3f\n", r.res.Workload, r.res.RPS, r.res.Errors, r.hitRatio())
			results = append(results, r)
		}
	}
	return writeLive(stderr, stdout, *rf.out, results, ch.seen())
}

// liveRun is one run of the live workload and the response cache's counts over it.
type liveRun struct {
	res          result
	hits, misses int
}

func (r liveRun) hitRatio() float64 {
	if r.hits+r.misses == 0 {
		return 0
	}
	return float64(r.hits) / float64(r.hits+r.misses)
}

// runLive drives one run, with the changer importing throughout it when changing.
func runLive(ctx context.Context, l load, p *poller, ch *changer, changing bool) (liveRun, error) {
	h0, m0, err := p.cacheCounts(ctx)
	if err != nil {
		return liveRun{}, err
	}
	runCtx, cancel := context.WithTimeout(ctx, l.warmup+l.duration+l.timeout+5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	stopChanges := make(chan struct{})
	var changeErr error
	if changing {
		wg.Add(1)
		go func() {
			defer wg.Done()
			changeErr = ch.run(runCtx, stopChanges)
		}()
	}
	res, err := runLoad(runCtx, l)
	close(stopChanges)
	wg.Wait()
	if err != nil {
		return liveRun{}, err
	}
	if changeErr != nil {
		return liveRun{}, changeErr
	}
	h1, m1, err := p.cacheCounts(ctx)
	if err != nil {
		return liveRun{}, err
	}
	res.Workload, res.Server = liveStatic, "sportsdb"
	if changing {
		res.Workload = liveChanging
	}
	return liveRun{res: res, hits: h1 - h0, misses: m1 - m0}, nil
}

// poller reads the server as a client polling for changes does, with one premium key.
// readers are the flags of a workload whose readers run a request list on one server,
// with the first of a file of premium keys polling: -addr, -list, -premium, -out, -c, -d
// and -warmup.
type readers struct {
	addr, list, premium, out *string
	conns                    *int
	dur, warm                *time.Duration
}

// readerFlags defines the readers' flags on fs; polls says what the first premium key does.
func readerFlags(fs *flag.FlagSet, polls string) readers {
	return readers{
		addr:    fs.String("addr", "", "server address, host:port"),
		list:    fs.String("list", "", "request list file (the mixed list)"),
		premium: fs.String("premium", "", "file of premium keys, one per line ("+polls+")"),
		out:     fs.String("out", "", "results file to append the JSON lines to (they are printed on standard output too)"),
		conns:   fs.Int("c", 32, "reading connections (and workers)"),
		dur:     fs.Duration("d", 15*time.Second, "measured duration of each run"),
		warm:    fs.Duration("warmup", 2*time.Second, "unmeasured warm-up before each run"),
	}
}

// open checks the readers' flags and reads the list and the keys: the readers' load, and the
// poller of the first key.
func (r readers) open(cmd string) (load, *poller, error) {
	if *r.addr == "" || *r.list == "" || *r.premium == "" {
		return load{}, nil, fmt.Errorf("%s: -addr, -list and -premium are required", cmd)
	}
	if *r.dur > 10*time.Minute || *r.warm > time.Minute {
		return load{}, nil, fmt.Errorf("%s: keep -d within 10m and -warmup within 1m", cmd)
	}
	lines, err := readList(*r.list)
	if err != nil {
		return load{}, nil, err
	}
	keys, err := readKeys(*r.premium)
	if err != nil {
		return load{}, nil, err
	}
	l := load{addr: *r.addr, list: lines, connections: *r.conns, duration: *r.dur, warmup: *r.warm, timeout: 10 * time.Second}
	return l, &poller{base: "http://" + *r.addr, key: keys[0], client: &http.Client{Timeout: 10 * time.Second}}, nil
}

type poller struct {
	base, key string
	client    *http.Client
}

// get fetches a path, as raw does, and returns the records of its one record list.
func (p *poller) get(ctx context.Context, path string) ([]map[string]any, error) {
	body, err := p.raw(ctx, path)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, raw := range doc {
		var recs []map[string]any
		if json.Unmarshal(raw, &recs) == nil {
			return recs, nil
		}
	}
	return nil, nil
}

// raw fetches a path (v1 with the key in place of {key}, v2 with the key in X-API-KEY) and
// returns the body of its 200.
func (p *poller) raw(ctx context.Context, path string) ([]byte, error) {
	target := p.base + path
	if strings.HasPrefix(path, "/api/v1/") {
		target = p.base + strings.Replace(path, "{key}", p.key, 1)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-API-KEY", p.key)
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d: %.200s", path, resp.StatusCode, body)
	}
	return body, nil
}

// prime requests every line of the list once, with a few workers (as `loadgen mirror` does
// for run.sh): cold answers are slow, and a machine that is also running the imports and
// the poller must not turn them into 503s. An answer that is not a 200 or 404 after three
// tries is an error.
func (p *poller) prime(ctx context.Context, list []line) error {
	const workers = 4
	work := make(chan line)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ln := range work {
				if err := p.fetchOnce(ctx, ln); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for _, ln := range list {
		select {
		case work <- ln:
		case err = <-errs:
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

// fetchOnce requests one line, trying again after a 503.
func (p *poller) fetchOnce(ctx context.Context, ln line) error {
	status := 0
	for try := range 3 {
		if try > 0 {
			time.Sleep(time.Duration(try) * time.Second)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+ln.target, nil)
		if err != nil {
			return err
		}
		if ln.key != "" {
			req.Header.Set("X-API-KEY", ln.key)
		}
		resp, err := p.client.Do(req)
		if err != nil {
			return fmt.Errorf("live: prime %s: %w", scrubKey(ln.target), err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if status = resp.StatusCode; status == http.StatusOK || status == http.StatusNotFound {
			return nil
		}
	}
	return fmt.Errorf("live: prime %s: HTTP %d", scrubKey(ln.target), status)
}

// cacheCounts reads the response cache's hits and misses from /metrics.
func (p *poller) cacheCounts(ctx context.Context) (hits, misses int, err error) {
	c, err := cacheCounts(ctx, []string{p.base + "/metrics"})
	if err != nil {
		return 0, 0, fmt.Errorf("live: %w", err)
	}
	return int(c["hit"]), int(c["miss"]), nil
}

// liveTargets are the records the imports change: live scores from the server's live list,
// and events, first those the mixed list looks up (their cached answers are the ones a
// change must reach), then those of the live scores.
type liveTargets struct {
	scores []string // idLiveScore
	events []string // idEvent
	league string   // idLeague of the first live score, whose live list the poller reads
}

func (p *poller) liveTargets(ctx context.Context, list []line, scores, events int) (liveTargets, error) {
	live, err := p.get(ctx, "/api/v2/json/livescore/all")
	if err != nil {
		return liveTargets{}, fmt.Errorf("live: the live scores: %w", err)
	}
	var t liveTargets
	var liveEvents []string
	for _, rec := range live {
		if id := str(rec, "idLiveScore"); id != "" && len(t.scores) < scores {
			if len(t.scores) == 0 {
				t.league = str(rec, "idLeague")
			}
			t.scores = append(t.scores, id)
		}
		liveEvents = appendNonEmpty(liveEvents, str(rec, "idEvent"))
	}
	if len(t.scores) == 0 || t.league == "" {
		return liveTargets{}, errors.New("live: the dataset has no live scores of a league to change")
	}
	for _, ln := range list {
		if id := lookedUpEvent(ln.target); id != "" && !slices.Contains(t.events, id) {
			t.events = append(t.events, id)
		}
	}
	for _, id := range liveEvents {
		if !slices.Contains(t.events, id) {
			t.events = append(t.events, id)
		}
	}
	if events > 0 && len(t.events) == 0 {
		return liveTargets{}, errors.New("live: no event to change: the list looks up none and no live score names one")
	}
	return t, nil
}

// lookedUpEvent is the event id a request target looks up, or "".
func lookedUpEvent(target string) string { return lookedUp(target, "event") }

// lookedUp is the id of the kind (event, team) a request target looks up, v2 or v1, or "".
func lookedUp(target, kind string) string {
	if _, rest, ok := strings.Cut(target, "/api/v2/json/lookup/"+kind+"/"); ok {
		return rest
	}
	if _, rest, ok := strings.Cut(target, "/lookup"+kind+".php?id="); ok {
		id, _, _ := strings.Cut(rest, "&")
		return id
	}
	return ""
}

// changer imports a change every tick and has the poller time when each shows.
type changer struct {
	bin, db, dir string
	tick         time.Duration
	targets      liveTargets
	poll         *poller // nil: no polling (the push workload watches its receivers instead)
	events       int
	// imported, if set, is told each import once it has ended: its marker (the live
	// scores' and events' intHomeScore), the events it changed and its times.
	imported func(score string, events []string, it *importTimes)

	n       int // imports so far: each writes scores that say which import it was
	nextEvt int
	mu      sync.Mutex
	visible []visibility
}

// visibility is when one change showed: since its import committed (0 when it showed
// between the commit and the import's summary line) and since the import process started;
// seen false when it did not show within visibleWithin.
type visibility struct {
	fromCommit, fromStart time.Duration
	importTook            time.Duration
	seen                  bool
}

// run imports every tick until stop, waiting for the last changes' polls.
func (ch *changer) run(ctx context.Context, stop <-chan struct{}) error {
	t := time.NewTicker(ch.tick)
	defer t.Stop()
	var polls sync.WaitGroup
	defer polls.Wait()
	for {
		if err := ch.importOnce(ctx, &polls); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// importOnce writes the tick's changes to a file, imports it with `sportsdb import` (a
// process of its own, as a feed would run it) and starts polling for them.
func (ch *changer) importOnce(ctx context.Context, polls *sync.WaitGroup) error {
	ch.n++
	score := strconv.Itoa(1000 + ch.n) // never a score the dataset holds
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, id := range ch.targets.scores {
		_ = enc.Encode(map[string]string{"idLiveScore": id, "intHomeScore": score, "strProgress": strconv.Itoa(ch.n % 90)})
	}
	var evts []string
	for i := 0; i < ch.events && len(ch.targets.events) > 0; i++ {
		id := ch.targets.events[ch.nextEvt%len(ch.targets.events)]
		ch.nextEvt++
		evts = append(evts, id)
		_ = enc.Encode(map[string]string{"idEvent": id, "intHomeScore": score, "strStatus": "2H"})
	}
	file := filepath.Join(ch.dir, "live-"+strconv.Itoa(ch.n%2)+".ndjson")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	it := &importTimes{start: time.Now(), done: make(chan struct{})}
	if ch.poll != nil {
		polls.Add(1 + len(evts))
		go ch.await(ctx, polls, it, "/api/v2/json/livescore/"+ch.targets.league, "idLiveScore", ch.targets.scores[0], score)
		for _, id := range evts {
			go ch.await(ctx, polls, it, "/api/v1/json/{key}/lookupevent.php?id="+id, "idEvent", id, score)
		}
	}
	out, err := ch.runImport(ctx, file, it)
	it.end = time.Now()
	close(it.done)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("live: sportsdb import: %w: %s", err, strings.TrimSpace(out))
	}
	if err == nil && ch.imported != nil {
		ch.imported(score, evts, it)
	}
	return nil
}

// runImport runs `sportsdb import` on file and notes when it committed: the moment it
// prints its summary ("imported N records ..."), which it writes as soon as its one
// transaction has committed. It returns what the process printed.
func (ch *changer) runImport(ctx context.Context, file string, it *importTimes) (string, error) {
	cmd := exec.CommandContext(ctx, ch.bin, "import", "--db", ch.db, file)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	var out strings.Builder
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "imported ") && it.commit.IsZero() {
			it.commit = time.Now()
		}
		out.WriteString(sc.Text() + "\n")
	}
	return out.String(), cmd.Wait()
}

// importTimes are when one import process started, committed (zero: not seen) and ended;
// commit and end are set when done closes.
type importTimes struct {
	start, commit, end time.Time
	done               chan struct{}
}

// await polls path until the record whose field is id shows intHomeScore score, and notes
// how long that took.
func (ch *changer) await(ctx context.Context, polls *sync.WaitGroup, it *importTimes, path, field, id, score string) {
	defer polls.Done()
	var v visibility
	var at time.Time
	for time.Since(it.start) < visibleWithin && ctx.Err() == nil {
		body, err := ch.poll.raw(ctx, path)
		if err == nil && shows(body, field, id, score) {
			v.seen, at = true, time.Now()
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	<-it.done
	v.importTook = it.end.Sub(it.start)
	if v.seen {
		commit := it.commit
		if commit.IsZero() {
			commit = it.start // no summary line: count from the start, the longer time
		}
		v.fromStart, v.fromCommit = at.Sub(it.start), max(0, at.Sub(commit))
	}
	if ctx.Err() != nil && !v.seen {
		return // the run ended: not a change that failed to show
	}
	ch.mu.Lock()
	ch.visible = append(ch.visible, v)
	ch.mu.Unlock()
}

// shows says whether the record whose field is id shows intHomeScore score in an answer,
// read as text: the poller must cost the machine little beside the server it measures.
// Both fields are sent in that order in every record (the kinds' field order).
func shows(body []byte, field, id, score string) bool {
	at := bytes.Index(body, []byte(`"`+field+`":"`+id+`"`))
	if at < 0 {
		return false
	}
	rest := body[at+1:]
	if next := bytes.Index(rest, []byte(`"`+field+`":`)); next >= 0 {
		rest = rest[:next] // this record only
	}
	return bytes.Contains(rest, []byte(`"intHomeScore":"`+score+`"`))
}

func (ch *changer) seen() []visibility {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return slices.Clone(ch.visible)
}
