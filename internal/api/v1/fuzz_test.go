package v1_test

import (
	"testing"

	v1 "sportsdb/internal/api/v1"
	"sportsdb/internal/store"
)

// FuzzQuery: any query string on any file, for either tier, gets a documented answer: never
// a panic, a 5xx, or anything but JSON or the empty body. Seeds live in testdata/fuzz.
func FuzzQuery(f *testing.F) {
	e := newEnv(f, fixtureNow)
	put(f, e.st, world()...)
	files := v1.Files()
	f.Fuzz(func(t *testing.T, fileIndex uint8, query string, premium bool) {
		tier := store.Free
		if premium {
			tier = store.Premium
		}
		file := files[int(fileIndex)%len(files)]
		wellFormed(t, e, tier, file+"?"+query)
	})
}
