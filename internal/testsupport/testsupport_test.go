package testsupport

import (
	"strings"
	"testing"
)

func TestCI(t *testing.T) {
	for v, want := range map[string]bool{"": false, "true": true, "1": true, "yes": true, "false": false, "0": false} {
		t.Setenv("CI", v)
		if CI() != want {
			t.Errorf("CI=%q: CI() = %v, want %v", v, !want, want)
		}
	}
}

// TestJSONDiff: the comparison sees key order, value types and numbers as written, and
// ignores how a string is escaped and the white space between tokens.
func TestJSONDiff(t *testing.T) {
	same := [][2]string{
		{`{"a":"\/x\u00e9","b":[1,null]}`, "{ \"a\": \"/xé\",\n \"b\": [1, null] }"},
		{`[]`, `[ ]`},
	}
	for _, c := range same {
		if d := JSONDiff([]byte(c[0]), []byte(c[1])); d != "" {
			t.Errorf("%s vs %s: %s", c[0], c[1], d)
		}
	}
	differ := [][2]string{
		{`{"a":"1","b":null}`, `{"b":null,"a":"1"}`},
		{`{"a":"1"}`, `{"a":1}`},
		{`{"a":1.0}`, `{"a":1}`},
		{`{"a":[1]}`, `{"a":[1,2]}`},
		{`{"a":1}`, `{"a":1} {}`},
		{`{"a":1`, `{"a":1}`},
	}
	for _, c := range differ {
		if d := JSONDiff([]byte(c[0]), []byte(c[1])); d == "" {
			t.Errorf("%s vs %s: no difference found", c[0], c[1])
		}
	}
	d := JSONDiff([]byte(`{"a":1,"b":2}`), []byte(`{"a":1,"b":3}`))
	if !strings.Contains(d, "byte 11") {
		t.Errorf("difference not located: %s", d)
	}
}

// recorder stands for a test: it notes whether Env skipped or failed it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skip(args ...any)                  { r.skipped = args[0].(string) }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = format }

// TestEnv: a missing service skips a test on a laptop and fails it under CI.
func TestEnv(t *testing.T) {
	t.Setenv("SPORTSDB_TEST_NOTHING", "")
	for ci, want := range map[string]string{"": "skip", "true": "fail"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		Env(r, "SPORTSDB_TEST_NOTHING")
		got := "skip"
		if r.failed != "" {
			got = "fail"
		}
		if got != want || (r.skipped == "") == (r.failed == "") {
			t.Errorf("CI=%q: skipped %q, failed %q; want %s", ci, r.skipped, r.failed, want)
		}
	}
	t.Setenv("SPORTSDB_TEST_NOTHING", "redis://x")
	if v := Env(t, "SPORTSDB_TEST_NOTHING"); v != "redis://x" {
		t.Errorf("Env = %q", v)
	}
}
