package openapi

import (
	"regexp"
	"slices"
	"strings"
)

// The rules every name parameter follows (docs/CONTRACT.md section 1), said once.
const nameRule = "`_`, `+` and `%20` mean a space; matched case- and accent-insensitively " +
	"(`Atletico` finds `Atlético`). A value over 256 bytes, invalid UTF-8 or nothing but spaces matches nothing."

const idRule = "Digits only, leading zeros ignored (`007` is 7). A missing, empty, non-numeric, negative " +
	"or overlong id is no result, not an error."

const dateRule = "A real day, `YYYY-MM-DD` (UTC); anything else is no result."

// paramDoc describes one parameter: what it accepts, and an example a reader can try.
type paramDoc struct{ text, example string }

// v1Params describe the query parameters of v1 rows by letter. A letter that means
// different things in different files is described by route ("v1/lookuptable.php?l").
var v1Params = map[string]paramDoc{
	"id":          {"The id of the record the file is about. " + idRule, "133604"},
	"t":           {"A team name (strTeam or one of strTeamAlternate). " + nameRule, "Arsenal"},
	"e":           {"An event name, `Home_vs_Away` (strEvent). " + nameRule, "Arsenal_vs_Chelsea"},
	"f":           {"An event file name (strFilename). " + nameRule, ""},
	"p":           {"A player name. " + nameRule, "Mario_Balotelli"},
	"v":           {"A venue name (strVenue or one of strVenueAlternate). " + nameRule, "Wembley"},
	"s":           {"A sport name. " + nameRule, "Soccer"},
	"d":           {"A day. " + dateRule, "2026-10-05"},
	"c":           {"A country name. " + nameRule, "England"},
	"l":           {"A league id (digits). " + idRule, "4328"},
	"r":           {"A round number (intRound; 125 quarter-final, 150 semi-final, 200 final, ...).", "1"},
	"a":           {"The country of the channels (with `d` and `s` only). " + nameRule, ""},
	"sname":       {"A short team name (strTeamShort). " + nameRule, ""},
	"badge":       {"Flag: adds strBadge. On unless absent, empty or `0`.", ""},
	"poster":      {"Flag: adds strPoster. On unless absent, empty or `0`.", ""},
	"description": {"Flag: adds strDescriptionEN. On unless absent, empty or `0`.", ""},
}

// seasonRule is the season parameter: a season name as the league stores it.
var seasonDoc = paramDoc{"A season name as stored (`2026-2027`, `2026`).", "2026-2027"}

// v1ParamByRoute are the parameters whose meaning depends on the file.
var v1ParamByRoute = map[string]paramDoc{
	"v1/searchevents.php?s":       seasonDoc,
	"v1/searchfilename.php?s":     seasonDoc,
	"v1/lookuptable.php?s":        {"A season name; without it the league's strCurrentSeason.", "2026-2027"},
	"v1/eventsseason.php?s":       seasonDoc,
	"v1/eventsround.php?s":        seasonDoc,
	"v1/searchfilename.php?e":     {"An event file name (strFilename). " + nameRule, "English_Premier_League_2026-09-06_Arsenal_vs_Chelsea"},
	"v1/search_all_teams.php?l":   {"A league name. " + nameRule, "English_Premier_League"},
	"v1/eventsday.php?l":          {"A league id (digits) or a league name. " + nameRule, "4328"},
	"v1/eventstv.php?c":           {"Part of a channel name. " + nameRule, ""},
	"v1/eventstv.php?id":          {"A channel id. " + idRule, ""},
	"v1/livescore.php?l":          {"Accepted and ignored: this feed is not narrowed by league.", ""},
	"v2/livescore.php?l":          {"A league id: narrows the feed to that league. " + idRule, ""},
	"v1/search_all_leagues.php?l": {"Not accepted here: answers the rejected-parameter string.", ""},
	"v2/match/event?q":            {"A media file's name, as the file is called (a path is cut to its last part; at most 400 bytes).", "EPL.2026.09.19.Arsenal.vs.Liverpool.1080p.WEB.h264-GRP.mkv"},
	// --compat lenient's rows (README, "Strict or lenient").
	"v1/lenient/eventsround.php?s":        seasonDoc,
	"v1/lenient/searchvenues.php?t":       {"A venue name, read as `v` when `v` is not sent (older clients). " + nameRule, "Wembley"},
	"v1/lenient/search_all_leagues.php?l": {"A league name (strLeague), without `c` and `s`: the leagues of that name. " + nameRule, "English_Premier_League"},
	"v1/lenient/searchloves.php?u":        {"A user name. The public service no longer keeps users' loves: always no result.", "zag"},
}

// v2Params describe v2 path parameters by their type, as the route table writes them.
var v2Params = map[string]paramDoc{
	"name":          {"A name. " + nameRule + " Over 200 bytes: no data.", "Arsenal"},
	"id":            {"An id. Digits only, leading zeros ignored; anything else (`-1`, `1.5`, `Arsenal`) is no data.", "133604"},
	"date":          {"A day, `YYYY-MM-DD` (UTC); anything else is no data.", "2026-10-05"},
	"season":        {"A season name as stored (`2026-2027`, `2026`).", "2026-2027"},
	"sportOrLeague": {"A sport name, or a league id when all digits. " + nameRule, "Soccer"},
}

var paramWord = regexp.MustCompile(`[a-z]+`)

// v1ParamNames reads the parameter names of a v1 row's Params ("d [s [a]], or c, or id").
func v1ParamNames(params string) []string {
	var out []string
	for _, w := range paramWord.FindAllString(params, -1) {
		if w != "or" && w != "and" && w != "ignored" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// v1Param describes parameter p of the route; ok is false when no description exists.
func v1Param(route, p string) (paramDoc, bool) {
	if d, ok := v1ParamByRoute[route+"?"+p]; ok {
		return d, true
	}
	d, ok := v1Params[p]
	return d, ok
}

// pathParams lists the {names} of a path template, in order.
func pathParams(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if i := strings.IndexByte(seg, '{'); i >= 0 {
			if j := strings.IndexByte(seg[i:], '}'); j > 0 {
				out = append(out, seg[i+1:i+j])
			}
		}
	}
	return out
}
