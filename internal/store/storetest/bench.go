package storetest

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// event returns a full-looking event record, different for each i.
func event(i int) record.Record {
	day := time.Date(2020, 1, 1, 15, 0, 0, 0, time.UTC).Add(time.Duration(i%2000) * 24 * time.Hour)
	home, away := strconv.Itoa(133600+i%500), strconv.Itoa(133600+(i+7)%500)
	return Rec(record.Event,
		"idEvent", strconv.Itoa(1000000+i), "strTimestamp", day.Format("2006-01-02T15:04:05"),
		"strEvent", "Team "+home+" vs Team "+away, "strEventAlternate", "Team "+away+" @ Team "+home,
		"strFilename", "Soccer League "+day.Format("2006-01-02")+" Team "+home+" vs Team "+away,
		"strSport", "Soccer", "idLeague", strconv.Itoa(4328+i%40), "strLeague", "League "+strconv.Itoa(i%40),
		"strSeason", strconv.Itoa(2020+i%6)+"-"+strconv.Itoa(2021+i%6), "strHomeTeam", "Team "+home, "strAwayTeam", "Team "+away,
		"intHomeScore", strconv.Itoa(i%4), "intAwayScore", strconv.Itoa(i%3), "intRound", strconv.Itoa(i%38+1),
		"dateEvent", day.Format("2006-01-02"), "strTime", "15:00:00", "idHomeTeam", home, "idAwayTeam", away,
		"idVenue", strconv.Itoa(20000+i%500), "strVenue", "Stadium "+home, "strCountry", "England",
		"strThumb", "https://example.org/images/media/event/thumb/"+strconv.Itoa(i)+".jpg",
		"strStatus", "FT", "strPostponed", "no", "strLocked", "unlocked", "strDescriptionEN", "")
}

// lineup returns a lineup entry, different for each i: a kind with one index, like most.
func lineup(i int) record.Record {
	return Rec(record.Lineup, "idLineup", strconv.Itoa(500000+i), "idEvent", strconv.Itoa(1000000+i/22),
		"strPosition", "Midfielder", "strHome", "Yes", "strSubstitute", "No", "intSquadNumber", strconv.Itoa(i%30),
		"idPlayer", strconv.Itoa(34140000+i%9000), "strPlayer", "Player "+strconv.Itoa(i%9000),
		"idTeam", strconv.Itoa(133600+i%500), "strTeam", "Team "+strconv.Itoa(i%500),
		"strCutout", "https://example.org/images/media/player/cutout/"+strconv.Itoa(i%9000)+".png")
}

// BenchUpsert measures a bulk import: b.N new events (the kind with the most indexes)
// upserted in one Write. It reports records/s.
func BenchUpsert(b *testing.B, s store.Store) { benchUpsert(b, s, event) }

// BenchUpsertLight is BenchUpsert with lineup entries, a kind with one index.
func BenchUpsertLight(b *testing.B, s store.Store) { benchUpsert(b, s, lineup) }

func benchUpsert(b *testing.B, s store.Store, gen func(int) record.Record) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	err := s.Write(ctx, func(tx store.Tx) error {
		for i := range b.N {
			if err := tx.Upsert(ctx, gen(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "records/s")
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "records/cpu-s")
}

// cpuTime is the CPU time of the process so far. On a busy machine records per CPU second
// says more about the code than records per second of wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchUpsertMerge measures a second import of the same events: every upsert merges into a
// stored record.
func BenchUpsertMerge(b *testing.B, s store.Store) {
	ctx := context.Background()
	load := func(n int, change string) error {
		return s.Write(ctx, func(tx store.Tx) error {
			for i := range n {
				r := event(i)
				r.Set("strResult", record.Str(change))
				if err := tx.Upsert(ctx, r); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := load(b.N, "first"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	if err := load(b.N, "second"); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "records/s")
}

// BenchFind measures a typical API query: a team's next events, on 20,000 stored events.
func BenchFind(b *testing.B, s store.Store) {
	ctx := context.Background()
	putEvents(b, s, 20000)
	q := store.Query{Kind: record.Event,
		Where:   []store.Cond{eq("idHomeTeam", record.Exact, "133650"), op("strTimestamp", record.Exact, store.Gt, "2022-01-01")},
		OrderBy: []store.Order{{Field: "strTimestamp"}}, Limit: 10}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		recs, err := s.Find(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(recs) == 0 {
			b.Fatal("no events found")
		}
	}
}

// BenchDataVersion measures the data version read every API request makes, on a store that
// has seen a write.
func BenchDataVersion(b *testing.B, s store.Store) {
	ctx := context.Background()
	if err := s.Write(ctx, func(tx store.Tx) error { return tx.Upsert(ctx, event(0)) }); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.DataVersion(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchGet measures a lookup by id, the read behind every lookup endpoint, on 2,000 events.
func BenchGet(b *testing.B, s store.Store) {
	ctx := context.Background()
	putEvents(b, s, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := s.Get(ctx, record.Event, strconv.Itoa(1000000+i%2000)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// putEvents stores events 0 to n-1 in one write.
func putEvents(b *testing.B, s store.Store, n int) {
	ctx := context.Background()
	err := s.Write(ctx, func(tx store.Tx) error {
		for i := range n {
			if err := tx.Upsert(ctx, event(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
