package api

import (
	"net/http"
	"net/url"
	"strings"

	"sportsdb/internal/store"
)

// Target is what an API's route table says of a request path before any key is checked:
// whose endpoint it is, its name, where its key is and who may call it.
type Target struct {
	// Route names the endpoint for caps, logs and metrics. It comes from the table, so it
	// never holds a key or a parameter; a path of the API's form that names no endpoint is
	// OtherRoute.
	Route string
	// Key is the key carried in the path; HeaderKey says the key comes from X-API-KEY.
	Key       string
	HeaderKey bool
	// PremiumOnly refuses free keys (v2 and the older live score feed).
	PremiumOnly bool
	// Clock and Local are the endpoint's Endpoint.Clock and Endpoint.Local.
	Clock, Local bool
	// Row is the endpoint's index in the table, NoRow when the path names none: such a
	// request is answered 404 once its key is checked, as the public service does.
	Row int
	// Args are the path segments the endpoint reads its parameters from (v2).
	Args []string
}

// NoRow is the Row of a path of an API's form that names no endpoint.
const NoRow = -1

// OtherRoute is the one route name of everything no table names: unknown files and paths,
// and requests whose key failed. Metrics and logs thus have a fixed set of route names.
const OtherRoute = "other"

// Known says whether the target names an endpoint of its table.
func (t Target) Known() bool { return t.Row != NoRow }

// Mount is an API as the server mounts it: it recognises its own paths and answers them.
type Mount interface {
	// Match reads the segments of /api/{version}/json/... (see SplitPath).
	Match(version string, segs []string) (Target, bool)
	// Serve answers a matched target for a key of the tier.
	Serve(w http.ResponseWriter, r *http.Request, t Target, tier store.Tier)
	// Routes lists every route name Match can give, OtherRoute aside.
	Routes() []string
	// Upstream is a request for a known target as an upstream of the same API knows it,
	// without the key: what follows the key segment (v1: "lookupteam.php?id=133604") or
	// /api/v2/json/ (v2: "lookup/team/133604").
	Upstream(r *http.Request, t Target) string
}

// MaxSegment bounds one decoded path segment; longer ones are not any endpoint's.
const MaxSegment = 512

// SplitPath reads an escaped path of the form /api/{version}/json/{seg}/...: the version and
// the percent-decoded segments after json/. ok is false for any other path, and for a
// segment that is badly escaped or overlong. The prefix is compared as sent (no decoding,
// no cleaning of dot segments or double slashes), so a path that reads as an API path only
// once cleaned is no API path.
func SplitPath(raw string) (version string, segs []string, ok bool) {
	rest, ok := strings.CutPrefix(raw, "/api/")
	if !ok {
		return "", nil, false
	}
	version, rest, ok = strings.Cut(rest, "/")
	if !ok || (version != "v1" && version != "v2") {
		return "", nil, false
	}
	if rest, ok = strings.CutPrefix(rest, "json/"); !ok {
		return "", nil, false
	}
	if segs, ok = SplitSegments(rest); !ok {
		return "", nil, false
	}
	return version, segs, true
}

// SplitSegments reads the escaped segments of a path after its prefix, percent-decoded; ok
// is false where one is badly escaped or overlong as sent.
func SplitSegments(rest string) (segs []string, ok bool) {
	segs = make([]string, 0, strings.Count(rest, "/")+1)
	for {
		seg, more, found := strings.Cut(rest, "/")
		if len(seg) > MaxSegment*3 {
			return nil, false
		}
		s, err := url.PathUnescape(seg)
		if err != nil {
			return nil, false
		}
		segs = append(segs, s)
		if !found {
			return segs, true
		}
		rest = more
	}
}

// IsFile says whether a segment names a .php file (v1's endpoints).
func IsFile(s string) bool { return strings.HasSuffix(s, ".php") && len(s) > 4 && len(s) <= 64 }

// KeyedLogPath is a path of a keyed surface, /{surface}/{key}/..., as an access log shows it:
// its key segment replaced by {key}.
func KeyedLogPath(rawPath string) string {
	parts := strings.SplitN(rawPath, "/", 4)
	if len(parts) >= 3 && parts[2] != "" {
		parts[2] = "{key}"
	}
	return strings.Join(parts, "/")
}
