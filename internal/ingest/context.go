package ingest

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"sportsdb/internal/record"
)

// fill is a value a body's records lack and its request gives: records of kind whose field
// is empty get value.
type fill struct {
	kind  *record.Kind
	field string
	value string
}

// fillsFor returns what the request rawURL tells about the records of its body. Only two
// answers leave out something the records need: a league's seasons (no idLeague) and the
// highlights of a day (no dateEvent).
func fillsFor(rawURL string) ([]fill, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil, fmt.Errorf("request URL %q: %w", rawURL, err)
	}
	q := u.Query()
	switch path.Base(u.Path) {
	case "search_all_seasons.php":
		if id := q.Get("id"); isDigits(id) {
			return []fill{{record.Season, "idLeague", id}}, nil
		}
	case "eventshighlights.php":
		if d := q.Get("d"); isDate(d) {
			return []fill{{record.Highlight, "dateEvent", d}}, nil
		}
	}
	// v2 list/seasons/{idLeague}, also where the key is a path segment before it.
	seg := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := 0; i+2 < len(seg); i++ {
		if seg[i] == "list" && seg[i+1] == "seasons" && isDigits(seg[i+2]) {
			return []fill{{record.Season, "idLeague", seg[i+2]}}, nil
		}
	}
	return nil, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// urlIndex finds the request of a file in the urls.tsv of its folder or of a folder above.
type urlIndex struct {
	// byDir maps a folder to the URLs its urls.tsv lists, keyed by the file's path relative
	// to that folder without extension; nil when the folder has no urls.tsv.
	byDir map[string]map[string]string
}

func newURLIndex() *urlIndex { return &urlIndex{byDir: map[string]map[string]string{}} }

// lookup returns the request URL of the file, "" when none is listed.
func (x *urlIndex) lookup(file string) (string, error) {
	file, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	stem := strings.TrimSuffix(file, filepath.Ext(file))
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		urls, err := x.load(dir)
		if err != nil {
			return "", err
		}
		if rel, err := filepath.Rel(dir, stem); err == nil {
			if u, ok := urls[filepath.ToSlash(rel)]; ok {
				return u, nil
			}
		}
		if filepath.Dir(dir) == dir {
			return "", nil
		}
	}
}

func (x *urlIndex) load(dir string) (map[string]string, error) {
	if urls, ok := x.byDir[dir]; ok {
		return urls, nil
	}
	urls, err := readURLsTSV(filepath.Join(dir, "urls.tsv"))
	if err != nil {
		return nil, err
	}
	x.byDir[dir] = urls
	return urls, nil
}

// readURLsTSV reads a urls.tsv: a header naming the columns set, fixture and path_query,
// then one row per file set/fixture.json. A missing file is no error: nil.
func readURLsTSV(name string) (map[string]string, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	col := map[string]int{}
	urls := map[string]string{}
	for line := 1; sc.Scan(); line++ {
		cells := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		if line == 1 {
			for i, c := range cells {
				col[strings.TrimSpace(c)] = i
			}
			for _, want := range []string{"set", "fixture", "path_query"} {
				if _, ok := col[want]; !ok {
					return nil, fmt.Errorf("%s: the header has no %s column (want set, fixture, path_query)", name, want)
				}
			}
			continue
		}
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		need := max(col["set"], col["fixture"], col["path_query"])
		if len(cells) <= need {
			return nil, fmt.Errorf("%s: line %d has %d columns, want at least %d", name, line, len(cells), need+1)
		}
		key := path.Join(cells[col["set"]], cells[col["fixture"]])
		urls[key] = cells[col["path_query"]]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return urls, nil
}
