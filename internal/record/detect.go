package record

// Computed fields are answered by the API but never stored (search relevance).
var Computed = map[string]bool{"relevance": true}

// A marker is a field (or set of fields) that only one kind of record carries. Detect tries
// them in order, so kinds whose records also carry another kind's id (a lineup entry carries
// idPlayer, an event carries idVenue) come first.
var markers = []struct {
	kind *Kind
	test func(has func(string) bool) bool
}{
	{LiveScore, func(h func(string) bool) bool { return h("idLiveScore") }},
	{Lineup, func(h func(string) bool) bool { return h("idLineup") }},
	{Timeline, func(h func(string) bool) bool { return h("idTimeline") }},
	{EventStat, func(h func(string) bool) bool { return h("idStatistic") }},
	{Standing, func(h func(string) bool) bool { return h("idStanding") }},
	{Equipment, func(h func(string) bool) bool { return h("idEquipment") }},
	{Result, func(h func(string) bool) bool { return h("idResult") }},
	{SeasonPoster, func(h func(string) bool) bool { return h("idArt") }},
	{Sport, func(h func(string) bool) bool { return h("idSport") }},
	{Country, func(h func(string) bool) bool { return h("name_en") }},
	{Honour, func(h func(string) bool) bool { return h("idHonour") }},
	{FormerTeam, func(h func(string) bool) bool { return h("idFormerTeam") }},
	{Milestone, func(h func(string) bool) bool { return h("idMilestone") }},
	{Contract, func(h func(string) bool) bool { return h("strYearStart") || h("strYearEnd") }},
	{PlayerStat, func(h func(string) bool) bool { return h("strStatistic") }},
	{TV, func(h func(string) bool) bool { return h("idChannel") }},
	{Player, func(h func(string) bool) bool { return h("idPlayer") }},
	{Highlight, func(h func(string) bool) bool {
		return h("idEvent") && h("strVideo") && !h("strTimestamp") && !h("dateEventLocal") && !h("idHomeTeam") && !h("strHomeTeam") && !h("strFilename")
	}},
	{Event, func(h func(string) bool) bool { return h("idEvent") }},
	{Team, func(h func(string) bool) bool { return h("idTeam") }},
	{Venue, func(h func(string) bool) bool { return h("idVenue") && h("strVenue") }},
	{League, func(h func(string) bool) bool { return h("idLeague") && h("strLeague") }},
	{Season, func(h func(string) bool) bool { return h("strSeason") }},
}

// Detect names the kind of a record from its field names, or nil when no kind fits.
func Detect(fields []string) *Kind {
	set := make(map[string]bool, len(fields))
	for _, f := range fields {
		set[f] = true
	}
	has := func(f string) bool { return set[f] }
	for _, m := range markers {
		if m.test(has) {
			if m.kind == Season && !onlyFieldsOf(Season, fields) {
				return nil // strSeason alone is too weak a marker
			}
			return m.kind
		}
	}
	return nil
}

// onlyFieldsOf says whether every field is one of k's, or one no kind has: a field the
// public service added since the kinds were written is kept as an extra, and must not make
// a record unrecognisable, but a field of another kind shows the record is not k's.
func onlyFieldsOf(k *Kind, fields []string) bool {
	for _, f := range fields {
		if !k.Has(f) && knownFields[f] {
			return false
		}
	}
	return true
}

// knownFields are the fields of every kind.
var knownFields = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range Kinds {
		for _, f := range k.Fields {
			m[f] = true
		}
	}
	return m
}()
