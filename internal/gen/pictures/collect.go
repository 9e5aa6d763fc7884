package pictures

import (
	"hash/fnv"
	"image/color"
	"net/url"
	"sort"
	"strings"

	"sportsdb/internal/record"
)

// Collector reads records and notes every picture their image fields name, with what each
// picture should show. Feed it records in record.Kinds order: a path keeps the subject of the
// first record that names it, so a team badge is drawn from the team, not from a table row.
type Collector struct {
	teams   map[string]look
	leagues map[string]look
	wants   map[string]want
}

// want is one picture to make: where it lives (its folder says what kind of picture) and
// whom it shows.
type want struct {
	folder string
	// Ids resolved when the pictures are made, so the order records came in never matters
	// for a team's colours.
	team, home, away, league string
	name, label              string
}

// NewCollector returns an empty collector.
func NewCollector() *Collector {
	return &Collector{teams: map[string]look{}, leagues: map[string]look{}, wants: map[string]want{}}
}

// Hosts whose image addresses the demo records use, as the public service's do.
var imageHosts = map[string]bool{"www.thesportsdb.com": true, "r2.thesportsdb.com": true, "thesportsdb.com": true}

// copySuffixes name the smaller copies the image routes make of an original (docs/PICTURES.md).
var copySuffixes = []string{"/medium", "/small", "/preview", "/tiny"}

// ImagePath returns the path of the picture an image field's value names, "" when the value
// names none: the path of the original for an address of one of its smaller copies.
func ImagePath(v string) string {
	if !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "http://") {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || !imageHosts[u.Host] || !strings.HasPrefix(u.Path, "/images/") {
		return ""
	}
	for _, s := range copySuffixes {
		if p, ok := strings.CutSuffix(u.Path, s); ok && strings.Contains(p[strings.LastIndexByte(p, '/'):], ".") {
			return p
		}
	}
	return u.Path
}

// Add notes the pictures r names.
func (c *Collector) Add(r record.Record) {
	switch r.Kind {
	case record.Team:
		c1, ok1 := parseColour(r.Str("strColour1"))
		c2, ok2 := parseColour(r.Str("strColour2"))
		l := hashedLook(r.Str("strTeam"))
		if ok1 && ok2 {
			l.c1, l.c2 = c1, c2
		}
		l.short = r.Str("strTeamShort")
		l.round = hash(r.Str("idTeam"))%3 == 0
		c.teams[r.Str("idTeam")] = l
	case record.League:
		c.leagues[r.Str("idLeague")] = hashedLook(r.Str("strLeague"))
	}
	for _, f := range r.Kind.Fields {
		path := ImagePath(r.Str(f))
		if path == "" {
			continue
		}
		if _, ok := c.wants[path]; ok {
			continue
		}
		c.wants[path] = wantFor(r, f, path)
	}
}

// Keep forgets the pictures whose path keep refuses, for a caller that wants only some.
func (c *Collector) Keep(keep func(path string) bool) {
	for p := range c.wants {
		if !keep(p) {
			delete(c.wants, p)
		}
	}
}

// Paths returns the path of every picture noted, sorted.
func (c *Collector) Paths() []string {
	out := make([]string, 0, len(c.wants))
	for p := range c.wants {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// wantFor says what the picture at path, named by field f of r, shows.
func wantFor(r record.Record, f, path string) want {
	w := want{folder: folder(path), team: r.Str("idTeam"), league: r.Str("idLeague"), name: subjectName(r)}
	switch f {
	case "strHomeTeamBadge":
		w.team, w.name = r.Str("idHomeTeam"), r.Str("strHomeTeam")
	case "strAwayTeamBadge":
		w.team, w.name = r.Str("idAwayTeam"), r.Str("strAwayTeam")
	case "strLeagueBadge":
		w.team, w.name = "", r.Str("strLeague")
	}
	switch r.Kind {
	case record.Event, record.Highlight, record.TV, record.LiveScore:
		w.home, w.away = r.Str("idHomeTeam"), r.Str("idAwayTeam")
	case record.Season, record.SeasonPoster:
		w.label = r.Str("strSeason")
	case record.FormerTeam:
		w.team, w.name = r.Str("idFormerTeam"), r.Str("strFormerTeam")
	}
	return w
}

// subjectName is the name a record goes by, for pictures that carry it.
func subjectName(r record.Record) string {
	for _, f := range []string{"strChannel", "strHonour", "strMilestone", "strEvent", "strPlayer", "strTeam", "strVenue", "strLeague", "strSport", "name_en"} {
		if v := r.Str(f); v != "" {
			return v
		}
	}
	return ""
}

// folder is what a path's directory says the picture is: "team/badge", "flags/32",
// "sports/bw", "icons/sports".
func folder(path string) string {
	dir := strings.TrimPrefix(path[:strings.LastIndexByte(path, '/')], "/images/")
	dir = strings.TrimPrefix(dir, "media/")
	return strings.Replace(dir, "icons/flags/shiny/", "flags/", 1)
}

// palette gives subjects without colours of their own (leagues, venues, countries) two
// colours that their name picks.
var palette = []color.NRGBA{
	{0xEF, 0x01, 0x07, 255}, {0x01, 0x33, 0x73, 255}, {0xC8, 0x10, 0x2E, 255}, {0x00, 0xB2, 0xA9, 255},
	{0xF6, 0xEB, 0x61, 255}, {0x13, 0x22, 0x57, 255}, {0x6C, 0xAB, 0xDD, 255}, {0xFD, 0xB9, 0x13, 255},
	{0x24, 0x1F, 0x20, 255}, {0x7A, 0x26, 0x3A, 255}, {0x1B, 0x45, 0x8F, 255}, {0x00, 0xA6, 0x50, 255},
	{0xFF, 0xFF, 0xFF, 255}, {0x5B, 0x2C, 0x83, 255}, {0xE8, 0x75, 0x1A, 255}, {0x3D, 0x19, 0x5B, 255},
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// hashedLook is the look of a subject named s: the same name always gets the same colours.
func hashedLook(s string) look {
	h := hash(s)
	i := int(h % uint32(len(palette)))
	j := (i + 1 + int(h>>8)%(len(palette)-1)) % len(palette)
	return look{name: s, c1: palette[i], c2: palette[j], round: h>>16%2 == 0}
}

// lookOf resolves whom w shows: its team, its league, or its own name.
func (c *Collector) lookOf(w want) look {
	if l, ok := c.teams[w.team]; ok && w.team != "" {
		return l
	}
	if l, ok := c.leagues[w.league]; ok && w.league != "" {
		if w.name == "" || strings.HasPrefix(w.folder, "league/") {
			return l
		}
	}
	return hashedLook(w.name)
}
