package record

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// AppendJSONString and appendUnescaped read what encoding/json reads, for strings at every
// position relative to the eight-byte words the scan looks at; a control character is an
// error at its place, and a string cut short asks for more.
func TestAppendJSONString(t *testing.T) {
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
		got, n, err := AppendJSONString([]byte("x"), []byte(lit+`,"next"`), 0)
		if err != nil || string(got[1:]) != want || n != len(lit) {
			t.Fatalf("AppendJSONString(%s) = %q, %d, %v; want %q, %d", lit, got[1:], n, err, want, len(lit))
		}
		if u, err := appendUnescaped([]byte("x"), []byte(body)); err != nil || string(u[1:]) != want {
			t.Fatalf("appendUnescaped(%s) = %q, %v; want %q", body, u[1:], err, want)
		}
		if _, _, err := AppendJSONString(nil, []byte(lit[:len(lit)-1]), 0); !errors.Is(err, ErrShort) {
			t.Fatalf("AppendJSONString(%s) without its closing quote: %v, want ErrShort", lit, err)
		}
		at := len(strings.Join(tokens[:rng.IntN(len(tokens)+1)], ""))
		bad := `"` + body[:at] + "\x01" + body[at:] + `"`
		_, _, err = AppendJSONString(nil, []byte(bad), 0)
		var se *SyntaxError
		if !errors.As(err, &se) || se.At != 1+at || !strings.Contains(se.Msg, "control character 0x01") {
			t.Fatalf("AppendJSONString(%q) = %v, want a control character at %d", bad, err, 1+at)
		}
	}
}

// A surrogate escape without its partner is refused by the importer, where the string ends
// or not; a stored doc holding one reads as encoding/json reads it, with U+FFFD.
func TestLoneSurrogate(t *testing.T) {
	for _, lit := range []string{`"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`, `"\ud800\ud800\ude00"`} {
		if _, _, err := AppendJSONString(nil, []byte(lit), 0); !errors.As(err, new(*SyntaxError)) {
			t.Errorf("AppendJSONString(%s) = %v, want a syntax error", lit, err)
		}
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatal(err)
		}
		if got, err := appendUnescaped(nil, []byte(lit[1:len(lit)-1])); err != nil || string(got) != want {
			t.Errorf("appendUnescaped(%s) = %q, %v; want %q", lit, got, err, want)
		}
	}
}
