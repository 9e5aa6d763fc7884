package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// endpoint makes one request of a kind from the pools: for v1 the file and query, for v2 the
// path after /api/v2/json/. ok is false when the pools hold nothing it can ask about.
type endpoint struct {
	name     string
	v2       bool
	freeOnly bool // eventsround.php answers free keys only
	make     func(p *pools, r *rand.Rand) (string, bool)
}

func pick[T any](r *rand.Rand, xs []T) (T, bool) {
	var zero T
	if len(xs) == 0 {
		return zero, false
	}
	return xs[r.IntN(len(xs))], true
}

// q builds a v1 file-and-query from name, value pairs.
func q(file string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	if len(v) == 0 {
		return file
	}
	return file + "?" + v.Encode()
}

func team(build func(id, name string) string) func(*pools, *rand.Rand) (string, bool) {
	return namedFrom(func(p *pools) []named { return p.teams }, build)
}

func player(build func(id, name string) string) func(*pools, *rand.Rand) (string, bool) {
	return namedFrom(func(p *pools) []named { return p.players }, build)
}

func namedFrom(list func(*pools) []named, build func(id, name string) string) func(*pools, *rand.Rand) (string, bool) {
	return func(p *pools, r *rand.Rand) (string, bool) {
		x, ok := pick(r, list(p))
		if !ok || x.id == "" || x.name == "" {
			return "", false
		}
		return build(x.id, x.name), true
	}
}

func event(build func(e eventInfo) string) func(*pools, *rand.Rand) (string, bool) {
	return func(p *pools, r *rand.Rand) (string, bool) {
		e, ok := pick(r, p.events)
		if !ok || e.id == "" {
			return "", false
		}
		s := build(e)
		return s, s != ""
	}
}

func league(build func(l leagueInfo) string) func(*pools, *rand.Rand) (string, bool) {
	return func(p *pools, r *rand.Rand) (string, bool) {
		l, ok := pick(r, p.leagues)
		if !ok || l.id == "" {
			return "", false
		}
		s := build(l)
		return s, s != ""
	}
}

func word(list func(*pools) []string, build func(string) string) func(*pools, *rand.Rand) (string, bool) {
	return func(p *pools, r *rand.Rand) (string, bool) {
		s, ok := pick(r, list(p))
		if !ok || s == "" {
			return "", false
		}
		return build(s), true
	}
}

func fixed(s string) func(*pools, *rand.Rand) (string, bool) {
	return func(*pools, *rand.Rand) (string, bool) { return s, true }
}

func seg(s string) string { return url.PathEscape(s) }

func sports(p *pools) []string    { return p.sports }
func countries(p *pools) []string { return p.countries }
func dates(p *pools) []string     { return p.dates }

// firstWord makes a partial name for searches that match within names.
func firstWord(s string) string {
	f, _, _ := strings.Cut(s, " ")
	return f
}

func playerDetail(file string) endpoint {
	return endpoint{name: file, make: player(func(id, _ string) string { return q(file, "id", id) })}
}

func eventDetail(file string) endpoint {
	return endpoint{name: file, make: event(func(e eventInfo) string { return q(file, "id", e.id) })}
}

func v2ID(group string, list func(*pools) []string) endpoint {
	return endpoint{name: group, v2: true, make: word(list, func(id string) string { return group + "/" + seg(id) })}
}

func ids[T any](xs []T, get func(T) string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, get(x))
	}
	return out
}

func teamIDs(p *pools) []string {
	return memo(p, "team ids", p.teams, func(n named) string { return n.id })
}
func playerIDs(p *pools) []string {
	return memo(p, "player ids", p.players, func(n named) string { return n.id })
}
func venueIDs(p *pools) []string {
	return memo(p, "venue ids", p.venues, func(n named) string { return n.id })
}
func leagueIDs(p *pools) []string {
	return memo(p, "league ids", p.leagues, func(l leagueInfo) string { return l.id })
}
func eventIDs(p *pools) []string {
	return memo(p, "event ids", p.events, func(e eventInfo) string { return e.id })
}
func channelIDs(p *pools) []string {
	return memo(p, "channel ids", p.channels, func(n named) string { return n.id })
}
func channelNames(p *pools) []string {
	return memo(p, "channel names", p.channels, func(n named) string { return n.name })
}
func leagueNames(p *pools) []string {
	return memo(p, "league names", p.leagues, func(l leagueInfo) string { return l.name })
}
func venueNames(p *pools) []string {
	return memo(p, "venue names", p.venues, func(n named) string { return n.name })
}
func teamNames(p *pools) []string {
	return memo(p, "team names", p.teams, func(n named) string { return n.name })
}
func playerNames(p *pools) []string {
	return memo(p, "player names", p.players, func(n named) string { return n.name })
}
func eventNames(p *pools) []string {
	return memo(p, "event names", p.events, func(e eventInfo) string { return e.name })
}

// memo is ids(xs, get), made once per pools: a list of 200,000 requests draws from these
// slices hundreds of thousands of times. The pools must not change after the first call.
func memo[T any](p *pools, name string, xs []T, get func(T) string) []string {
	if out, ok := p.derived[name]; ok {
		return out
	}
	if p.derived == nil {
		p.derived = map[string][]string{}
	}
	out := ids(xs, get)
	p.derived[name] = out
	return out
}

// eventFilenames are what v2 search/event matches (an event's file name).
func eventFilenames(p *pools) []string {
	return ids(p.events, func(e eventInfo) string { return e.filename })
}

// writeList writes request lines, TARGET or TARGET<TAB>KEY.
func writeList(path string, lines []line) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write list: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, l := range lines {
		if l.key != "" {
			fmt.Fprintf(w, "%s\t%s\n", l.target, l.key)
		} else {
			fmt.Fprintln(w, l.target)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write list: %w", err)
	}
	return f.Close()
}

func readKeys(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	keys := strings.Fields(string(b))
	if len(keys) == 0 {
		return nil, fmt.Errorf("keys: %s holds no key", path)
	}
	return keys, nil
}

// scrubKey hides the key segment of a v1 path, for messages.
func scrubKey(target string) string {
	parts := strings.SplitN(target, "/", 6)
	if len(parts) == 6 && parts[1] == "api" && parts[3] == "json" && strings.HasSuffix(strings.SplitN(parts[5], "?", 2)[0], ".php") {
		parts[4] = "{key}"
	}
	return strings.Join(parts, "/")
}

func listsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen lists", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("base", "", "server base URL, http://host:port")
	premium := fs.String("premium", "", "file of premium keys, one per line")
	free := fs.String("free", "", "file of free keys, one per line")
	out := fs.String("out", "", "folder for hot.txt, mixed.txt, search.txt and cold.txt (with -cold, search.txt holds distinct searches from the cold list's pools)")
	n := fs.Int("n", 5000, "requests in the mixed and search lists")
	hot := fs.Int("hot", 5, "distinct requests in the hot list")
	leagues := fs.Int("leagues", 40, "leagues to read ids and names from")
	seed := fs.Uint64("seed", 1, "random seed")
	cold := fs.Int("cold", 0, "distinct requests in cold.txt, over every endpoint (0: no cold list)")
	coldLeagues := fs.Int("cold-leagues", 200, "leagues to read the cold list's ids and names from")
	coldSquads := fs.Int("cold-squads", 8, "teams per league whose players the cold list asks about")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *premium == "" || *free == "" || *out == "" {
		return errors.New("lists: -base, -premium, -free and -out are required")
	}
	if *n < 1 || *hot < 1 || *leagues < 1 || *cold < 0 || *coldLeagues < 1 || *coldSquads < 1 {
		return errors.New("lists: -n, -hot, -leagues, -cold-leagues and -cold-squads must be at least 1, -cold not negative")
	}
	pk, err := readKeys(*premium)
	if err != nil {
		return err
	}
	fk, err := readKeys(*free)
	if err != nil {
		return err
	}
	d := newDiscoverer(*base, pk[0], *seed)
	p, err := discover(ctx, d, *leagues, 2, 1)
	if err != nil {
		return err
	}
	b := &builder{p: p, r: rand.New(rand.NewPCG(*seed, 7)), premium: pk, free: fk}
	sets := map[string][]line{"hot.txt": b.hot(*hot), "mixed.txt": b.build(mixedEndpoints, *n, true), "search.txt": b.build(searchEndpoints, *n, false)}
	if *cold > 0 {
		// A wider walk: many leagues and squads, so that every endpoint has thousands of
		// distinct arguments to draw from.
		cd := newDiscoverer(*base, pk[0], *seed+1)
		cp, err := discover(ctx, cd, *coldLeagues, *coldSquads, 4)
		if err != nil {
			return err
		}
		cb := &builder{p: cp, r: rand.New(rand.NewPCG(*seed+1, 7)), premium: pk, free: fk}
		sets["cold.txt"] = cb.distinct(mixedEndpoints, *cold, true)
		// The search list from the same wide pools, each search once: a name asked again
		// would be answered by the response cache, and search would measure the cache.
		sets["search.txt"] = cb.distinct(searchEndpoints, *n, false)
		fmt.Fprintf(stdout, "cold list from %d requests: %d leagues, %d teams, %d players, %d events; %d distinct requests\n",
			cd.requests, len(cp.leagues), len(cp.teams), len(cp.players), len(cp.events), len(sets["cold.txt"]))
		if len(sets["cold.txt"]) < *cold {
			fmt.Fprintf(stdout, "cold list: the dataset gave %d distinct requests of the %d asked for\n", len(sets["cold.txt"]), *cold)
		}
		if len(sets["search.txt"]) < *n {
			fmt.Fprintf(stdout, "search list: the dataset gave %d distinct searches of the %d asked for\n", len(sets["search.txt"]), *n)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("lists: %w", err)
	}
	for name, lines := range sets {
		if err := writeList(filepath.Join(*out, name), lines); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "lists from %d requests: %d leagues, %d teams, %d players, %d events, %d venues, %d channels; hot %d, mixed %d, search %d lines\n",
		d.requests, len(p.leagues), len(p.teams), len(p.players), len(p.events), len(p.venues), len(p.channels),
		len(sets["hot.txt"]), len(sets["mixed.txt"]), len(sets["search.txt"]))
	return nil
}
