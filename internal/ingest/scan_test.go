package ingest

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// appendString reads what encoding/json reads, for strings at every position relative to
// the eight-byte words the scan looks at; a control character is an error at its place,
// and a string cut short asks for more.
func TestAppendString(t *testing.T) {
	alphabet := []string{"a", "Z", " ", "/", `\"`, `\\`, `\/`, `\n`, `\u00e9`, `\ud83d\ude00`, "é", "日", "\x7f", "~"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var tokens []string
		for range rng.IntN(30) {
			tokens = append(tokens, alphabet[rng.IntN(len(alphabet))])
		}
		body := strings.Join(tokens, "")
		lit := `"` + body + `"`
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("test literal %s: %v", lit, err)
		}
		got, n, err := appendString([]byte("x"), []byte(lit+`,"next"`), 0)
		if err != nil || string(got[1:]) != want || n != len(lit) {
			t.Fatalf("appendString(%s) = %q, %d, %v; want %q, %d", lit, got[1:], n, err, want, len(lit))
		}
		if _, _, err := appendString(nil, []byte(lit[:len(lit)-1]), 0); !errors.Is(err, errShort) {
			t.Fatalf("appendString(%s) without its closing quote: %v, want errShort", lit, err)
		}
		at := len(strings.Join(tokens[:rng.IntN(len(tokens)+1)], ""))
		bad := `"` + body[:at] + "\x01" + body[at:] + `"`
		_, _, err = appendString(nil, []byte(bad), 0)
		var se *syntaxError
		if !errors.As(err, &se) || se.at != 1+at || !strings.Contains(se.msg, "control character 0x01") {
			t.Fatalf("appendString(%q) = %v, want a control character at %d", bad, err, 1+at)
		}
	}
}
