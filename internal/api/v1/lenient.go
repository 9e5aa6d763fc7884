package v1

import (
	"net/url"

	"sportsdb/internal/api"
	"sportsdb/internal/record"
)

// lenientRows are what serve --compat lenient adds to the table (docs/CONTRACT.md section 16):
// calls real clients send that the public service refuses or renamed. A row whose file the
// table has replaces that row on every form; a new file joins every form. Their routes are
// v1/lenient/FILE, so metrics, logs and the OpenAPI document tell them from the public
// service's; each has the cap of the row it stands beside (CapOf), so a caps file reads the
// same in both modes.
var lenientRows = []*endpoint{
	// teamarr's round fallback sends it with a premium key.
	{Path: "eventsround.php", Params: "id, r, s", Key: "events", Kind: record.Event, View: "full", Order: byID("idEvent"), CapOf: "v1/eventsround.php", Answer: roundEvents},
	// jsportsdb spells it the American way.
	{Path: "lookuphonors.php", Params: "id", Key: "honours", Kind: record.Honour, View: "full", Order: byID("id"), CapOf: "v1/lookuphonours.php", Answer: childrenOf("idPlayer")},
	// The public service dropped users' loves; clients that still ask read an empty list.
	{Path: "searchloves.php", Params: "u", Key: "players", Kind: record.Player, View: "full", CapOf: "v1/searchplayers.php", Answer: noLoves},
	// nkl-kst/the-sports-db names the venue t.
	{Path: "searchvenues.php", Params: "v, or t", Key: "venues", Kind: record.Venue, View: "full", Order: byName("strVenue", "idVenue"), CapOf: "v1/searchvenues.php", Answer: venuesByTOrV},
	// The Jellyfin plugins look a league up by its name in l.
	{Path: "search_all_leagues.php", Params: "c, s, or l", Key: "countries", Kind: record.League, View: "full", Order: byName("strLeague", "idLeague"), CapOf: "v1/search_all_leagues.php", Answer: leaguesOfCountryOrName},
}

// olderRecordKeys are record keys clients read where the public service sends another, by
// file: renamed keys, and a published client's own spelling. Lenient answers repeat the
// records under that key. The Jellyfin plugins' Providers/TheSportsDbClient.cs reads
// "countrys"; clients of the American spelling read "honors"; bsv798/TheSportsDBClient's
// models (generated from its InternalOpenapiV1.yaml) read "events" from searchevents.php,
// "players" from searchplayers.php, "tables" from lookuptable.php and "event" from
// lookupevent.php.
var olderRecordKeys = map[string]string{
	"search_all_leagues.php": "countrys", "lookuphonors.php": "honors",
	"searchevents.php": "events", "searchplayers.php": "players", "lookuptable.php": "tables", "lookupevent.php": "event",
}

// addLenient puts the lenient rows in the table.
func (t *rows) addLenient() {
	for _, row := range lenientRows {
		ep := *row
		ep.Route = "v1/lenient/" + ep.Path
		if i, ok := t.files[v1Path][ep.Path]; ok {
			t.list[i] = &ep
			continue
		}
		t.add(&ep, v1Path, v2Path, v2Head)
	}
}

func noLoves(*api.Request, params) (api.Answer, error) { return api.None, nil }

// venuesByTOrV reads t as v when v is not sent.
func venuesByTOrV(r *api.Request, p params) (api.Answer, error) {
	if !p.has("v") && p.has("t") {
		p = params{url.Values{"v": {p.get("t")}}}
	}
	return searchVenues(r, p)
}

// leaguesOfCountryOrName answers, for l without c or s, the leagues of that name (folded, as
// the name searches compare), where the public service rejects the call.
func leaguesOfCountryOrName(r *api.Request, p params) (api.Answer, error) {
	if p.get("c") != "" || p.get("s") != "" || !p.has("l") {
		return leaguesOfCountry(r, p)
	}
	name, ok := p.name("l")
	if !ok {
		return api.None, nil
	}
	recs, err := r.Find(api.Where(api.EqName("strLeague", name)))
	return api.Records(recs), err
}
