package ingest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Whatever the bytes, reading them gives records or an error, never a panic; and a body the
// reader accepts is valid JSON.
func FuzzReadJSON(f *testing.F) {
	for _, s := range []string{
		`{"teams":[{"idTeam":"1","strTeam":"A"}]}`,
		`{"search":[{"idTeam":133604,"strTeam":"Arsenal \u00e9\ud83d\ude00"}]}`,
		`{"seasons":"Invalid League ID passed"}`,
		`[{"idEvent":"1","strEvent":"x","strTimestamp":null}]`,
		`{"idTeam":"1","strTeam":"A"}`,
		`{"events":null,"Message":"No data found"}`,
		`{"teams":[{"idTeam":-1.5e3}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, chunk := range []int{1 << 20, 3} {
			_, _, err := readFrom("f.json", chunkReader{bytes.NewReader(data), chunk}, "", chunk)
			body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
			if err == nil && strings.TrimSpace(string(body)) != "" && !json.Valid(body) {
				t.Fatalf("accepted invalid JSON %q", data)
			}
		}
	})
}
