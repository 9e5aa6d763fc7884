package server

import (
	"net/url"
	"strings"
)

// target is what a request asks for, read from its path before any key is checked.
type target struct {
	// version is "v1" (a .php file) or "v2" (group/name/param segments).
	version string
	// file is the v1 file name (v1 only).
	file string
	// segments is the v2 path after /api/v2/json/ (v2 only).
	segments []string
	// pathKey is the key carried in the path; headerKey says the key comes from X-API-KEY.
	pathKey   string
	headerKey bool
	// legacyLivescore marks /api/v2/json/{key}/livescore.php: premium only, key "events".
	legacyLivescore bool
	// premiumOnly: v2 and its aliases refuse free keys.
	premiumOnly bool
	// route names the endpoint for logs and metrics; it never holds a key or a value.
	route string
}

// v2Groups are the first segments of v2 paths.
var v2Groups = map[string]bool{"search": true, "lookup": true, "list": true, "all": true, "schedule": true, "filter": true, "livescore": true}

// maxSegment bounds one path segment; longer ones are not any endpoint's.
const maxSegment = 512

// parseTarget reads the API path. ok is false for a path that is no endpoint (404).
func parseTarget(rawPath string) (t target, ok bool) {
	parts := strings.Split(rawPath, "/")
	if len(parts) < 5 || parts[0] != "" || parts[1] != "api" || parts[3] != "json" {
		return t, false
	}
	segs := make([]string, 0, len(parts)-4)
	for _, p := range parts[4:] {
		if len(p) > maxSegment*3 {
			return t, false
		}
		s, err := url.PathUnescape(p)
		if err != nil {
			return t, false
		}
		segs = append(segs, s)
	}
	switch parts[2] {
	case "v1":
		// /api/v1/json/{key}/{file}
		if len(segs) != 2 || segs[0] == "" || !isPHP(segs[1]) {
			return t, false
		}
		return target{version: "v1", file: segs[1], pathKey: segs[0], route: "v1/" + routeFile(segs[1])}, true
	case "v2":
		return parseV2(segs)
	}
	return t, false
}

func parseV2(segs []string) (target, bool) {
	if len(segs) == 0 || segs[0] == "" {
		return target{}, false
	}
	first := segs[0]
	switch {
	case v2Groups[first]:
		// /api/v2/json/{group}/... with X-API-KEY
		return target{version: "v2", segments: segs, headerKey: true, premiumOnly: true, route: v2Route(segs)}, true
	case isPHP(first) && len(segs) == 1:
		// /api/v2/json/{file}.php with X-API-KEY: that v1 file.
		return target{version: "v1", file: first, headerKey: true, route: "v1/" + routeFile(first)}, true
	case len(segs) >= 2 && isPHP(segs[1]) && len(segs) == 2:
		// /api/v2/json/{key}/{file}.php: that v1 file with the path key; livescore.php is the
		// older premium live score feed.
		if segs[1] == "livescore.php" {
			return target{version: "v1", file: segs[1], pathKey: first, legacyLivescore: true, premiumOnly: true, route: "v2/livescore.php"}, true
		}
		return target{version: "v1", file: segs[1], pathKey: first, route: "v1/" + routeFile(segs[1])}, true
	case len(segs) >= 2 && v2Groups[segs[1]]:
		// /api/v2/json/{key}/{group}/...: v2 with the key in the path.
		return target{version: "v2", segments: segs[1:], pathKey: first, premiumOnly: true, route: v2Route(segs[1:])}, true
	}
	return target{}, false
}

func isPHP(s string) bool { return strings.HasSuffix(s, ".php") && len(s) > 4 && len(s) <= 64 }

// routeFile keeps metrics labels bounded: a file name of letters and underscores is kept,
// anything else is "other".
func routeFile(f string) string {
	for _, c := range strings.TrimSuffix(f, ".php") {
		if !(c >= 'a' && c <= 'z' || c == '_') {
			return "other"
		}
	}
	return f
}

// v2Words are the literal (non-parameter) segments of v2 paths. Route names for logs and
// metrics keep only these, so a label never holds a name, an id or a key.
var v2Words = map[string]bool{
	"league": true, "team": true, "player": true, "event": true, "venue": true,
	"team_equipment": true, "player_contracts": true, "player_results": true, "player_honours": true,
	"player_milestones": true, "player_teams": true, "player_stats": true, "event_lineup": true,
	"event_results": true, "event_stats": true, "event_timeline": true, "event_tv": true,
	"event_highlights": true, "teams": true, "seasons": true, "players": true, "seasonposters": true,
	"countries": true, "sports": true, "leagues": true, "next": true, "previous": true, "full": true,
	"tv": true, "day": true, "country": true, "sport": true, "channel": true, "channelid": true, "all": true,
}

// v2Route names a v2 path by its group and literal segments, never a parameter.
func v2Route(segs []string) string {
	r := "v2/" + segs[0]
	for _, s := range segs[1:] {
		if !v2Words[s] {
			break
		}
		r += "/" + s
	}
	return r
}
