// Package nameindex answers the store's name searches from memory: a decorator of a store
// that holds, per searched kind, the folded names of every record (the columns the SQL
// stores keep for searches) in one buffer with a suffix array over it, and answers a query
// whose every condition is a search in those names (equal, containing, starting with, an
// item of a list) without a scan: it finds the matching rows, orders and cuts them, and
// reads the docs of only those it keeps, by seq, in one statement.
//
// The index holds exactly one data version. The statement that reads the docs also reads
// the data version of its snapshot; when it is not the index's, the answer is dropped, the
// wrapped store answers, and the index is rebuilt in the background (the store answers
// every search through SQL meanwhile). A query the index cannot answer exactly goes to the
// wrapped store unchanged.
package nameindex

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Source is a store that can feed the index: sqlstore.DB's IndexRows and DocsBySeqs, which
// both backends have.
type Source interface {
	store.Store
	// IndexRows calls fn with the seq, id and named index columns of every record of k,
	// and returns the data version they are of.
	IndexRows(ctx context.Context, k *record.Kind, cols []string, fn func(seq int64, id string, vals []string) error) (int64, error)
	// DocsBySeqs returns the records with those seqs, in that order, and their data version.
	DocsBySeqs(ctx context.Context, k *record.Kind, seqs []int64) ([]record.Record, int64, error)
}

// Options tune a Store.
type Options struct {
	// Sync builds the index inside the Find that finds it missing or stale, instead of in the
	// background, and answers that Find from it: tests use it to see every search answered
	// by the index.
	Sync bool
	// Warm starts the first build at once, in the background, instead of at the first
	// search; Warmed says when it has ended. A server starts this way, so that its searches
	// do not all go to the database while the first requests arrive.
	Warm bool
	// Now is the clock background builds are spaced on (time.Now unless set).
	Now func() time.Time
}

// Store is a store whose Find answers name searches from memory.
type Store struct {
	store.Store
	src  Source
	opts Options

	cur atomic.Pointer[index]

	ctx    context.Context // of the background builds; cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	warmed     chan struct{} // closed when the first build has ended, built or not
	warmedOnce sync.Once

	mu       sync.Mutex
	building bool
	// A background build starts no sooner than spacing after builtAt, the end of the last
	// one, and twice as late for each index in a row that went stale before it answered a
	// search (waitFor): last is the last index built, unused how many in a row before it did.
	builtAt time.Time
	spacing time.Duration
	last    *index
	unused  int
	// starts counts the background builds started; afterBuild, when set (tests), is called
	// as each ends.
	starts     int
	afterBuild func()

	// Answered and Delegated count the Finds answered by the index and by the wrapped store.
	Answered, Delegated atomic.Int64
}

// Wrap returns st with its name searches answered from memory, or st itself when it cannot
// feed an index.
func Wrap(st store.Store, o Options) store.Store {
	src, ok := st.(Source)
	if !ok {
		return st
	}
	ctx, cancel := context.WithCancel(context.Background())
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Store{Store: st, src: src, opts: o, ctx: ctx, cancel: cancel, warmed: make(chan struct{})}
	if o.Warm && !o.Sync {
		s.startBuild()
	} else {
		s.warm()
	}
	return s
}

// Warmed is closed once the first build has ended (at once unless Options.Warm): a server
// is not ready until then (its /readyz waits for it).
func (s *Store) Warmed() <-chan struct{} { return s.warmed }

func (s *Store) warm() { s.warmedOnce.Do(func() { close(s.warmed) }) }

// Find answers q from the index when it can, else from the wrapped store.
func (s *Store) Find(ctx context.Context, q store.Query) ([]record.Record, error) {
	if _, held := Columns[q.Kind]; !held || len(q.Where) == 0 {
		return s.delegate(ctx, q)
	}
	for attempt := 0; attempt < 2; attempt++ {
		ix := s.current(ctx)
		if ix == nil {
			break
		}
		seqs, ok := ix.answer(q)
		if !ok {
			break
		}
		recs, ok, err := s.RecordsBySeqs(ctx, q.Kind, seqs, ix.version)
		if err != nil || ok {
			return recs, err
		}
		if !s.opts.Sync {
			break
		}
	}
	return s.delegate(ctx, q)
}

// FindNames answers q from the index when it is current and can, with each record's seq and
// its folded value of field (field "": the seqs alone); the docs read after it by
// RecordsBySeqs must be of the same version, else the caller reads through Find.
func (s *Store) FindNames(ctx context.Context, q store.Query, field string) (store.Names, bool, error) {
	if _, held := Columns[q.Kind]; !held || len(q.Where) == 0 {
		return store.Names{}, false, nil
	}
	ix := s.current(ctx)
	if ix == nil {
		return store.Names{}, false, nil
	}
	ki := ix.kinds[q.Kind]
	if ki == nil {
		return store.Names{}, false, nil
	}
	var col *column
	if field != "" {
		f, found := q.Kind.IndexOf(field, record.Name)
		if !found {
			return store.Names{}, false, nil
		}
		if col = ki.cols[f.Column()]; col == nil {
			return store.Names{}, false, nil
		}
	}
	rows, ok := ix.rows(q)
	if !ok {
		return store.Names{}, false, nil
	}
	n := store.Names{Version: ix.version, Seqs: make([]int64, len(rows))}
	if col != nil {
		n.Values = make([]string, len(rows))
	}
	for i, r := range rows {
		n.Seqs[i] = ki.seqs[r]
		if col != nil {
			n.Values[i] = string(col.value(int(r)))
		}
	}
	return n, true, nil
}

// RecordsBySeqs reads the docs of those seqs, in that order, when the data is still at
// version (none: when the data version is still it). When it is not, the index is dropped
// and rebuilt, as Find drops it.
func (s *Store) RecordsBySeqs(ctx context.Context, k *record.Kind, seqs []int64, version int64) ([]record.Record, bool, error) {
	var recs []record.Record
	var v int64
	var err error
	if len(seqs) == 0 {
		v, err = s.Store.DataVersion(ctx)
	} else {
		recs, v, err = s.src.DocsBySeqs(ctx, k, seqs)
	}
	if err != nil {
		return nil, false, err
	}
	if v == version && len(recs) == len(seqs) {
		s.Answered.Add(1)
		if ix := s.cur.Load(); ix != nil && ix.version == version && !ix.used.Load() {
			ix.used.Store(true)
		}
		return recs, true, nil
	}
	if ix := s.cur.Load(); ix != nil && ix.version == version {
		s.stale(ix)
	}
	return nil, false, nil
}

func (s *Store) delegate(ctx context.Context, q store.Query) ([]record.Record, error) {
	s.Delegated.Add(1)
	return s.Store.Find(ctx, q)
}

// current is the index, or nil while there is none (a build is started).
func (s *Store) current(ctx context.Context) *index {
	if ix := s.cur.Load(); ix != nil {
		return ix
	}
	if s.opts.Sync {
		if ix, err := build(ctx, s.src); err == nil {
			s.cur.Store(ix)
			return ix
		}
		return nil
	}
	s.startBuild()
	return nil
}

// stale drops an index whose version is no longer the data's.
func (s *Store) stale(ix *index) {
	s.cur.CompareAndSwap(ix, nil)
}

// startBuild builds the index in the background, unless a build is running or the last one
// ended too recently: the next build waits four times as long as the last one took (a second
// at least), so that a store written to all the time spends at most a fifth of a core on
// builds; and twice as long again for each index in a row that the data left behind before
// it answered a search, up to maxUnusedWait, so that a store written to faster than a build
// pays for itself spends next to nothing on them (its searches go to the database, as they
// would anyway).
func (s *Store) startBuild() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.building || s.ctx.Err() != nil {
		return
	}
	unused := 0
	if s.last != nil && !s.last.used.Load() {
		unused = s.unused + 1
	}
	if s.opts.Now().Before(s.builtAt.Add(waitFor(s.spacing, unused))) {
		return
	}
	s.unused = unused
	s.building = true
	s.starts++
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		start := s.opts.Now()
		ix, err := build(s.ctx, s.src)
		if err == nil {
			s.cur.Store(ix)
		}
		s.warm()
		s.mu.Lock()
		s.building = false
		s.builtAt = s.opts.Now()
		s.spacing = max(4*s.builtAt.Sub(start), time.Second)
		if err == nil {
			s.last = ix
		}
		after := s.afterBuild
		s.mu.Unlock()
		if after != nil {
			after()
		}
	}()
}

// maxUnusedWait bounds the wait that indexes left unused lengthen: a store whose writes
// stop has its searches answered from memory again within that.
const maxUnusedWait = 30 * time.Second

// waitFor is the least time between two builds that are spacing apart by their cost, after
// unused indexes in a row that answered no search.
func waitFor(spacing time.Duration, unused int) time.Duration {
	if unused == 0 {
		return spacing
	}
	return max(spacing, min(spacing<<min(unused, 16), maxUnusedWait))
}

// Build builds the index now, in the caller's goroutine, and says how large it is in bytes.
func (s *Store) Build(ctx context.Context) (int, error) {
	ix, err := build(ctx, s.src)
	if err != nil {
		return 0, err
	}
	s.cur.Store(ix)
	return ix.size(), nil
}

// Stop ends a background build, waits for it, and starts no other; the wrapped store stays
// open for its owner. Searches go on, through the database once the data moves on.
func (s *Store) Stop() {
	s.cancel()
	s.wg.Wait()
	s.warm()
}

// Close stops background builds and closes the wrapped store.
func (s *Store) Close() error {
	s.Stop()
	return s.Store.Close()
}

// PoolStats reads the wrapped store's connection pools, when it has them.
func (s *Store) PoolStats() []store.PoolStats {
	if p, ok := s.Store.(store.Pools); ok {
		return p.PoolStats()
	}
	return nil
}
