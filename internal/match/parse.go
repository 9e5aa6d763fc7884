package match

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"sportsdb/internal/record"
)

// parsed is what a file name says, once its release words are gone.
type parsed struct {
	// words are the name's words in order (folded), less dates, round numbers, session and
	// release words and the separator.
	words []string
	// sep is the index in words where the second side starts (-1: no vs, v, @ or at).
	sep int
	// awayFirst: the separator was @ or at, which put the away team first.
	awayFirst bool
	// dates are the days the name may mean (15-09-2024 and 09-15-2024 when both are days).
	dates []time.Time
	// years are lone years and the years of a season (2024, 2024-2025).
	years   []int
	round   int    // round, week or matchday number; 0 when none
	session string // practice, qualifying, race, main card, ...
}

// maxNameBytes bounds the name read: a file name is shorter; a longer query costs work only.
const maxNameBytes = 400

// releaseRes are release words written with punctuation inside, removed before the name is
// cut into words (h.264, dd5.1, aac2.0, web-dl).
var releaseRes = regexp.MustCompile(`(?i)\b(?:[hx]\.?26[45]|(?:dd\+?|ddp|aac|ac3|eac3|dts(?:-hd)?|truehd|opus|flac)?\s?[2-7]\.[01](?:ch)?|web[-. ]?(?:dl|rip)|blu[-. ]?ray|hdtv[-. ]?rip|(?:dd|ddp|aac|ac3|eac3)[2-7][. ]?[01])\b`)

// group is a release group after the last dash of the name (-GRP), or in brackets first.
var (
	trailingGroup = regexp.MustCompile(`-[A-Za-z0-9]{2,15}$`)
	leadingGroup  = regexp.MustCompile(`^\[[^\]]{1,30}\]\s*`)
)

var videoExt = map[string]bool{"mkv": true, "mp4": true, "avi": true, "ts": true, "m4v": true, "mov": true,
	"wmv": true, "mpg": true, "mpeg": true, "webm": true, "flv": true, "m2ts": true, "strm": true, "nfo": true}

// parse reads a file name (a path is cut to its last element).
func parse(name string, words *wordTables) parsed {
	if len(name) > maxNameBytes {
		name = name[:maxNameBytes]
	}
	name = strings.ReplaceAll(name, `\`, "/")
	name = path.Base(strings.TrimRight(name, "/"))
	if i := strings.LastIndexByte(name, '.'); i > 0 && videoExt[strings.ToLower(name[i+1:])] {
		name = name[:i]
	}
	name = leadingGroup.ReplaceAllString(name, "")
	if loc := trailingGroup.FindStringIndex(name); loc != nil && hasReleaseWord(name[:loc[0]], words) {
		name = name[:loc[0]]
	}
	name = releaseRes.ReplaceAllString(name, " ")
	toks := tokens(record.Fold(name))
	p := parsed{sep: -1}
	for i := 0; i < len(toks); i++ {
		if n := p.readDate(toks[i:]); n > 0 {
			i += n - 1
			continue
		}
		if n := p.readRound(toks[i:]); n > 0 {
			i += n - 1
			continue
		}
		if n := p.readSession(toks[i:], words); n > 0 {
			i += n - 1
			continue
		}
		t := toks[i]
		switch {
		case words.release[t] || releaseNumber(t):
			continue
		case isYear(t):
			y, _ := strconv.Atoi(t)
			p.years = append(p.years, y)
			continue
		case t == "vs" || t == "v" || t == "versus" || t == "@" || t == "at":
			if p.sep < 0 && len(p.words) > 0 && i+1 < len(toks) {
				p.sep, p.awayFirst = len(p.words), t == "@" || t == "at"
			}
			continue
		}
		p.words = append(p.words, t)
	}
	if p.sep >= len(p.words) {
		p.sep = -1
	}
	return p
}

// tokens cuts a folded name into words at anything that is not a letter or digit; an @
// is a word of its own.
func tokens(s string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r == '@':
			flush(i)
			out = append(out, "@")
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f && r != 0xfffd
}

func hasReleaseWord(s string, words *wordTables) bool {
	for _, t := range tokens(record.Fold(releaseRes.ReplaceAllString(s, " release "))) {
		if t == "release" || words.release[t] || releaseNumber(t) {
			return true
		}
	}
	return false
}

// resolution, frame rate and bit depth words: 1080p, 720p60, 2160p, 50fps, 10bit.
var releaseNum = regexp.MustCompile(`^(?:\d{3,4}[pi](?:\d{2})?|\d{2,3}fps|\d{1,2}bit|[248]k)$`)

func releaseNumber(t string) bool { return releaseNum.MatchString(t) }

func isYear(t string) bool {
	if len(t) != 4 || !allDigits(t) {
		return false
	}
	y, _ := strconv.Atoi(t)
	return y >= 1900 && y <= 2100
}

func allDigits(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return t != ""
}

var months = map[string]time.Month{"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3,
	"apr": 4, "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
	"sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12}

// readDate reads a date at the start of toks and returns how many tokens it took (0: none):
// 20240915, 2024 09 15, 15 09 2024 (or 09 15 2024), 15 sep 2024, sep 15 2024.
func (p *parsed) readDate(toks []string) int {
	t := toks[0]
	if len(t) == 8 && allDigits(t) && isYear(t[:4]) {
		return p.addDate(t[:4], t[4:6], t[6:8], 1)
	}
	if len(toks) < 3 {
		return 0
	}
	a, b, c := toks[0], toks[1], toks[2]
	switch {
	case isYear(a) && allDigits(b) && allDigits(c) && len(b) <= 2 && len(c) <= 2:
		return p.addDate(a, b, c, 3)
	case allDigits(a) && allDigits(b) && len(a) <= 2 && len(b) <= 2 && isYear(c):
		n := p.addDate(c, b, a, 3)
		if m := p.addDate(c, a, b, 3); n == 0 {
			n = m
		}
		return n
	case allDigits(a) && len(a) <= 2 && months[b] != 0 && isYear(c):
		return p.addDate(c, strconv.Itoa(int(months[b])), a, 3)
	case months[a] != 0 && allDigits(trimOrdinal(b)) && len(trimOrdinal(b)) <= 2 && isYear(c):
		return p.addDate(c, strconv.Itoa(int(months[a])), trimOrdinal(b), 3)
	case allDigits(trimOrdinal(a)) && len(a) > 2 && months[b] != 0 && isYear(c):
		return p.addDate(c, strconv.Itoa(int(months[b])), trimOrdinal(a), 3)
	}
	return 0
}

func trimOrdinal(s string) string {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if t, ok := strings.CutSuffix(s, suf); ok && allDigits(t) {
			return t
		}
	}
	return s
}

// addDate adds the day if it is one (a 31 February is not) and returns n, else 0.
func (p *parsed) addDate(y, m, d string, n int) int {
	yi, _ := strconv.Atoi(y)
	mi, err1 := strconv.Atoi(m)
	di, err2 := strconv.Atoi(d)
	if err1 != nil || err2 != nil || mi < 1 || mi > 12 || di < 1 || di > 31 {
		return 0
	}
	day := time.Date(yi, time.Month(mi), di, 0, 0, 0, 0, time.UTC)
	if day.Day() != di {
		return 0
	}
	p.dates = append(p.dates, day)
	return n
}

// roundWord are the words that put a round number after them (or glued to it: r12, wk3).
var roundWord = map[string]bool{"round": true, "rd": true, "r": true, "week": true, "wk": true, "w": true,
	"matchday": true, "md": true, "gameweek": true, "gw": true, "game": false}

var roundGlued = regexp.MustCompile(`^(round|rd|r|week|wk|w|matchday|md|gameweek|gw)(\d{1,3})$`)

func (p *parsed) readRound(toks []string) int {
	if m := roundGlued.FindStringSubmatch(toks[0]); m != nil {
		p.round, _ = strconv.Atoi(m[2])
		return 1
	}
	if roundWord[toks[0]] && len(toks) > 1 && allDigits(toks[1]) && len(toks[1]) <= 3 {
		p.round, _ = strconv.Atoi(toks[1])
		return 2
	}
	return 0
}

// readSession reads a session or card word of an event sport (one or two words).
func (p *parsed) readSession(toks []string, words *wordTables) int {
	if len(toks) > 1 {
		if two := toks[0] + " " + toks[1]; words.session[two] {
			p.session = two
			return 2
		}
	}
	if words.session[toks[0]] {
		p.session = toks[0]
		return 1
	}
	return 0
}
