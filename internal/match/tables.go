package match

import (
	_ "embed"
	"fmt"
	"strings"

	"sportsdb/internal/record"
)

// The tables are data, so that a word is added without reading code.
var (
	//go:embed leagues.txt
	leaguesText string
	//go:embed words.txt
	wordsText string
)

// wordTables are the embedded tables, read once.
type wordTables struct {
	release map[string]bool
	session map[string]bool
	// generic are words many names share, which alone name nothing.
	generic map[string]bool
	// leagues maps the folded words of an abbreviation to the league names it stands for.
	leagues map[string][]string
}

var tables = mustTables(leaguesText, wordsText)

func mustTables(leagues, words string) *wordTables {
	t, err := readTables(leagues, words)
	if err != nil {
		panic(err) // the embedded files are part of the build: a test reads them
	}
	return t
}

func readTables(leagues, words string) (*wordTables, error) {
	t := &wordTables{release: map[string]bool{}, session: map[string]bool{}, generic: map[string]bool{}, leagues: map[string][]string{}}
	for n, line := range lines(words) {
		group, list, ok := strings.Cut(line, ":")
		var set map[string]bool
		switch strings.TrimSpace(group) {
		case "release":
			set = t.release
		case "session":
			set = t.session
		case "generic":
			set = t.generic
		}
		if !ok || set == nil {
			return nil, fmt.Errorf("words.txt line %d: want release:, session: or generic: and words", n+1)
		}
		for _, w := range strings.Split(list, ",") {
			if f := record.Fold(w); f != "" {
				set[f] = true
			}
		}
	}
	for n, line := range lines(leagues) {
		abbr, names, ok := strings.Cut(line, "=")
		key := strings.Join(tokens(record.Fold(abbr)), " ")
		if !ok || key == "" {
			return nil, fmt.Errorf("leagues.txt line %d: want words = League Name", n+1)
		}
		for _, name := range strings.Split(names, "|") {
			if name = strings.TrimSpace(name); name != "" {
				t.leagues[key] = append(t.leagues[key], name)
			}
		}
	}
	return t, nil
}

// lines are the lines of a table that are neither blank nor comments, by line index.
func lines(s string) map[int]string {
	out := map[int]string{}
	for i, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out[i] = l
		}
	}
	return out
}
