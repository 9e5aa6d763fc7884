// Package replay_test replays every recorded request of the public service against one
// server that imported every recording, and compares each answer with the recorded body.
//
// All recordings go into one database, each imported with its URL, because that is what the
// public service is: one store answering every URL. Importing each alone (v1 TestFixtures,
// v2 TestFixturesServedBackAsRecorded) shows a body can be served back; only the whole set
// shows the orders, caps and matching rules that choose which records a URL gets when the
// store holds more than that URL's answer. The run uses the clock of the recordings and the
// measured caps profile (--caps measured), whose counts are those the recordings show.
package replay_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sportsdb/internal/apitest"
)

// check is how a fixture's answer is compared when it cannot equal the recording.
type check int

const (
	// sameRecords: the same records, field for field, in any order.
	sameRecords check = iota
	// sameFields: the same record key, and every record with the recorded field list.
	sameFields
	// sameStatus: the documented answer of sportsdb, status and body.
	sameStatus
	// sameJSON: the same JSON, keys in the same order, spelt with other escapes.
	sameJSON
)

// reason explains why one fixture's answer is not the recorded body, and what is checked.
type reason struct {
	why    string
	check  check
	status int
	body   string
	// key is the record key of sportsdb's answer, when the recording has another.
	key string
}

// momentsApart: the live feeds were recorded at 20:05:32, 20:29:31 and 20:30:31 (their
// "updated" fields); between them games moved on and left the feed, so once all three are
// imported the store holds one mixture of them, which none of the three recordings shows.
var momentsApart = reason{why: "live feed recorded at another moment than the others (updated 20:05:32, 20:29:31, 20:30:31): scores, minutes and the games in the feed changed in between", check: sameFields}

// differences lists every fixture whose answer is not the recorded body, by set/name.
var differences = map[string]reason{
	"v1-free/invalid_key": {why: "a rejected key gets the documented HTTP 400 body (docs/CONTRACT.md section 3), not the public service's sign-up message",
		check: sameStatus, status: 400, body: `{"Message":"Invalid API key"}`},
	"v1-free/lookup_all_teams_wrong_league": {why: "the public service answered ?id=4328 with the teams of league 4396 (English League 1); sportsdb answers the teams of league 4328 (docs/CONTRACT.md section 5)",
		check: sameFields},
	"v1-free/events_day_sport": {why: "this recording escapes non-ASCII letters (Mlad\\u00e1) where the service's other answers, events_day among them, send them as UTF-8; sportsdb always sends UTF-8",
		check: sameJSON},
	"v2/lookup_event_lineup": {why: "recorded at the same moment, v1 lookuplineup.php sends a cutout for each of its five players (the player's image) and v2 sends null for all 22 (the lineup's own field); sportsdb holds one lineup record per player, which keeps the known value, so v2 sends the cutouts too",
		check: sameFields},
	"v1-free/livescore_soccer":         momentsApart,
	"v1-free/livescore_league_ignored": momentsApart,
	"v2/livescore_soccer":              momentsApart,
}

func TestReplay(t *testing.T) {
	fixtures := append(apitest.Fixtures(t, "v1-free"), apitest.Fixtures(t, "v2")...)
	for _, shuffled := range []bool{false, true} {
		t.Run(map[bool]string{false: "as recorded", true: "shuffled"}[shuffled], func(t *testing.T) {
			imports := importsOf(t, fixtures, shuffled)
			env := apitest.New(t, apitest.Options{Imports: imports, CapsFile: "measured"})
			identical := 0
			for _, fx := range fixtures {
				if replay(t, env, fx) {
					identical++
				}
			}
			t.Logf("%d of %d answers byte-identical to the recording", identical, len(fixtures))
		})
	}
}

// importsOf lists the recordings to import with their URLs. Shuffled, the files come in a
// fixed random order and the records inside each file in reverse, so every recorded order
// is broken at import and no answer can owe its order to the order of import.
func importsOf(t *testing.T, fixtures []apitest.Fixture, shuffled bool) []apitest.Import {
	var out []apitest.Import
	rng := rand.New(rand.NewPCG(17, 5))
	dir := t.TempDir()
	for _, fx := range fixtures {
		path := fx.File
		if shuffled {
			path = filepath.Join(dir, fx.Set+"-"+fx.Name+".json")
			if err := os.WriteFile(path, reverseRecords(t, fx.File), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, apitest.Import{Path: path, URL: urlOf(fx)})
	}
	if shuffled {
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// reverseRecords rewrites a recorded body with its records in reverse order; each record
// keeps its bytes.
func reverseRecords(t *testing.T, path string) []byte {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]json.RawMessage
	if json.Unmarshal(raw, &body) != nil || len(body) != 1 {
		return raw // an error body or a message: nothing to shuffle
	}
	for k, v := range body {
		var recs []json.RawMessage
		if json.Unmarshal(v, &recs) != nil {
			return raw
		}
		slices.Reverse(recs)
		out, err := json.Marshal(map[string][]json.RawMessage{k: recs})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	return raw
}

// urlOf is the fixture's request with the key it was recorded with: the published free key
// 123, the rejected key 1, or none in the path (v2 sends the key in X-API-KEY).
func urlOf(fx apitest.Fixture) string {
	key := "123"
	if strings.Contains(fx.Auth, "({key}=1)") {
		key = "1"
	}
	return strings.ReplaceAll(fx.PathQuery, "{key}", key)
}

// replay asks the fixture's URL with its kind of key and compares the answer; it says
// whether the answer is byte-identical to the recording.
func replay(t *testing.T, env *apitest.Env, fx apitest.Fixture) bool {
	t.Helper()
	var got *apitest.Response
	if fx.Set == "v2" {
		got = env.Get(t, fx.PathQuery, "X-API-KEY", env.PremiumKey)
	} else {
		got = env.Get(t, urlOf(fx))
	}
	want, err := os.ReadFile(fx.File)
	if err != nil {
		t.Fatal(err)
	}
	name := fx.Set + "/" + fx.Name
	if bytes.Equal(got.Body, want) {
		if r, ok := differences[name]; ok {
			t.Errorf("%s: equal to the recording, but listed as different (%s): remove it from the list", name, r.why)
		}
		return true
	}
	r, listed := differences[name]
	if !listed {
		t.Errorf("%s: %s", name, firstDifference(got.Body, want))
		return false
	}
	if msg := r.verify(got, want); msg != "" {
		t.Errorf("%s (different because %s): %s", name, r.why, msg)
	}
	return false
}

// verify checks what still holds of an answer that differs for the reason.
func (r reason) verify(got *apitest.Response, want []byte) string {
	if r.check == sameJSON {
		if d := firstDifference(got.Body, want); d != "same JSON, other bytes" {
			return d
		}
		return ""
	}
	if r.check == sameStatus {
		if got.Status != r.status || string(got.Body) != r.body {
			return fmt.Sprintf("got %d %s, want %d %s", got.Status, got.Body, r.status, r.body)
		}
		return ""
	}
	gk, grecs, err := recordsOf(got.Body)
	if err != nil {
		return "answer: " + err.Error()
	}
	wk, wrecs, err := recordsOf(want)
	if err != nil {
		return "recording: " + err.Error()
	}
	if r.key != "" {
		wk, wrecs = r.key, nil
	}
	if gk != wk || len(grecs) == 0 {
		return fmt.Sprintf("record key %q with %d records, recorded %q", gk, len(grecs), wk)
	}
	switch r.check {
	case sameRecords:
		if !slices.Equal(sortedCopy(grecs), sortedCopy(wrecs)) {
			return "not the recorded records: " + firstDifference([]byte("["+strings.Join(sortedCopy(grecs), ",")+"]"), []byte("["+strings.Join(sortedCopy(wrecs), ",")+"]"))
		}
	case sameFields:
		if len(wrecs) == 0 {
			return "" // the recording has no records to take the field list from
		}
		fields := fieldList(wrecs[0])
		for _, g := range grecs {
			if f := fieldList(g); f != fields {
				return fmt.Sprintf("fields %s, recorded %s", f, fields)
			}
		}
	}
	return ""
}

func sortedCopy(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
