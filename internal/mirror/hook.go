package mirror

import (
	"bytes"
	"encoding/json"
	"strings"
)

// What the server needs to decide when to read through (see docs/MIRROR.md).

// EmptyAnswer says whether an API answer body holds no records: v1's {"key":null}, v2's
// {"Message":"No data found"}, or an object with no record in it. Such an answer is one the
// store could not give; the server asks Fetcher.Ensure and answers again when it changed.
func EmptyAnswer(body []byte) bool {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return false
	}
	for k, v := range top {
		t := bytes.TrimSpace(v)
		switch {
		case bytes.Equal(t, []byte("null")), bytes.Equal(t, []byte("[]")):
		case k == "Message" && string(t) == `"No data found"`:
		default:
			return false
		}
	}
	return true
}

// timeDependent are the v1 files and v2 path prefixes whose answers change with the clock.
var timeDependent = []string{
	"livescore.php", "eventsnext.php", "eventslast.php", "eventsnextleague.php", "eventspastleague.php",
	"livescore/", "schedule/next/", "schedule/previous/",
}

// TimeDependent says whether an answer depends on the time (live scores, next and previous
// events): the server asks Fetcher.Ensure before every such answer, which costs a map
// lookup while the stored answer is fresh and one upstream request when it is stale.
// pathAndQuery is as Ensure takes it.
func TimeDependent(version, pathAndQuery string) bool {
	p, _, _ := strings.Cut(pathAndQuery, "?")
	for _, d := range timeDependent {
		if version == "v1" && p == d || version == "v2" && strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}
