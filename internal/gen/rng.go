package gen

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Every value is drawn from a generator seeded by (Seed, purpose, entity id), never from one
// long shared stream. So any entity can be produced again on a later pass (an event's score
// when its lineup, timeline and table row are written) without keeping it in memory, and one
// change of a count does not reshuffle everything after it.
type purpose uint64

const (
	pLeague purpose = iota + 1
	pTeam
	pVenue
	pPlayer
	pSchedule
	pEvent
	pLineup
	pTimeline
	pStats
	pTV
	pHonour
	pCareer
	pKit
	pSeason
	pWorld
	pResult
)

type rng struct {
	seed uint64
	src  rand.PCG
	r    *rand.Rand
}

func newRNG(seed int64) *rng {
	g := &rng{seed: uint64(seed)}
	g.r = rand.New(&g.src)
	return g
}

// at reseeds the generator for one entity and returns it; the result is valid until the next
// call, which keeps the many millions of reseeds of the full scale free of allocations. A
// derivation that runs inside another (a player's name inside a lineup) therefore uses a
// generator of its own (see world), so the outer one is never reseeded under its feet.
func (g *rng) at(p purpose, id int) *rand.Rand {
	g.src.Seed(g.seed^(uint64(p)*0x9E3779B97F4A7C15), uint64(id)*0xBF58476D1CE4E5B9+uint64(p))
	return g.r
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"

// image returns an address shaped like the public service's media: a random stem and a
// plausible upload time, e.g. .../team/badge/uyhbfe1612467038.png.
func image(r *rand.Rand, folder, ext string) string {
	var b strings.Builder
	b.Grow(80)
	b.WriteString("https://r2.thesportsdb.com/images/media/")
	b.WriteString(folder)
	b.WriteByte('/')
	for range 6 {
		b.WriteByte(alnum[r.IntN(len(alnum))])
	}
	b.WriteString(strconv.Itoa(1400000000 + r.IntN(390000000)))
	b.WriteByte('.')
	b.WriteString(ext)
	return b.String()
}

const videoChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

func youtube(r *rand.Rand) string {
	b := []byte("https://www.youtube.com/watch?v=")
	for range 11 {
		b = append(b, videoChars[r.IntN(len(videoChars))])
	}
	return string(b)
}

const (
	layoutDate  = "2006-01-02"
	layoutTime  = "15:04:05"
	layoutStamp = "2006-01-02T15:04:05"
	layoutSpace = "2006-01-02 15:04:05"
)

func day(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }

// slugName turns a name into the form of the public service's flag addresses.
func slugName(s string) string { return strings.ReplaceAll(s, " ", "-") }

// timeOfDay is a random moment of a day, to the second.
func timeOfDay(r *rand.Rand) time.Duration { return time.Duration(r.IntN(86400)) * time.Second }
