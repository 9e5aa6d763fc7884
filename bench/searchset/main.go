// Command searchset builds a database for measuring name searches at the full dataset's
// size without generating the full dataset: it copies the name-searched kinds of a smaller
// generated database (leagues, venues, teams, players, events) many times over into a new
// SQLite file. Each copy keeps a record's first word and takes the rest of its name (and its
// alternates) from another record of the source, so the words of the names, and how often
// each occurs, stay those of the generator while the names grow as many as at full scale.
//
//	go run ./cmd/sportsdb gen --scale small --db /tmp/small.db
//	go run ./bench/searchset -from /tmp/small.db -to /tmp/search.db
//
// -to may also name a PostgreSQL database (a postgres:// URL, with a search_path of an empty
// schema). BenchmarkUncachedSearch measures searches on either.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
	"sportsdb/internal/store/backend"
	"sportsdb/internal/store/sqlite"
)

// copies of each kind: the small dataset's counts times these are about the full dataset's
// (52k teams, 545k players; events are a tenth, since only their exact names are searched).
var copies = []struct {
	kind      *record.Kind
	n         int
	name, alt string
}{
	{record.League, 19, "strLeague", "strLeagueAlternate"},
	{record.Venue, 48, "strVenue", "strVenueAlternate"},
	{record.Team, 48, "strTeam", "strTeamAlternate"},
	{record.Player, 35, "strPlayer", ""},
	{record.Event, 8, "strEvent", ""},
}

func main() {
	from := flag.String("from", "", "source database (a generated dataset)")
	to := flag.String("to", "", "new database to write")
	flag.Parse()
	if *from == "" || *to == "" {
		fmt.Fprintln(os.Stderr, "searchset: -from and -to are required")
		os.Exit(2)
	}
	if err := run(context.Background(), *from, *to); err != nil {
		fmt.Fprintln(os.Stderr, "searchset:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, from, to string) error {
	src, err := sqlite.Open(ctx, from)
	if err != nil {
		return fmt.Errorf("open %s: %w", from, err)
	}
	defer src.Close()
	dst, err := backend.Open(ctx, to)
	if err != nil {
		return fmt.Errorf("open %s: %w", to, err)
	}
	defer dst.Close()
	start := time.Now()
	var total int
	for _, c := range copies {
		var recs []record.Record
		if err := src.Scan(ctx, c.kind, func(r record.Record) error { recs = append(recs, r); return nil }); err != nil {
			return fmt.Errorf("read %s: %w", c.kind.Name, err)
		}
		write := dst.Write
		if l, ok := dst.(interface {
			Load(context.Context, func(store.Tx) error) error
		}); ok {
			write = l.Load // SQLite's bulk load
		}
		err := write(ctx, func(tx store.Tx) error {
			for i := range c.n {
				for j, r := range recs {
					if err := tx.Replace(ctx, mix(c.kind, recs, r, i, j, c.name, c.alt)); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("write %s: %w", c.kind.Name, err)
		}
		total += c.n * len(recs)
		fmt.Printf("%s: %d\n", c.kind.Name, c.n*len(recs))
	}
	fmt.Printf("%d records in %s\n", total, time.Since(start).Round(time.Millisecond))
	return nil
}

// mix is copy i of record r (the j-th of recs): copy 0 is r itself; the others get new ids
// and a name of r's first word and the rest of another record's name.
func mix(k *record.Kind, recs []record.Record, r record.Record, i, j int, name, alt string) record.Record {
	if i == 0 {
		return r
	}
	out := r.Clone()
	for _, f := range k.Key {
		out.Set(f, record.Str(strconv.Itoa(i)+out.Str(f)))
	}
	other := recs[(j*7919+i*104729)%len(recs)]
	first, _, _ := strings.Cut(r.Str(name), " ")
	_, rest, ok := strings.Cut(other.Str(name), " ")
	if ok {
		out.Set(name, record.Str(first+" "+rest))
	}
	if alt != "" {
		out.Set(alt, other.Get(alt))
	}
	return out
}
