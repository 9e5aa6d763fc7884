// Package caps holds how many records one call returns, per endpoint and tier. The v1 and v2
// route tables register their defaults; an operator overrides any of them with a caps file.
package caps

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"

	"sportsdb/internal/store"
)

// Unlimited as a cap means every record (bounded by Ceiling).
const Unlimited = 0

// Ceiling bounds an unlimited cap, so no call can ask for the whole database.
const Ceiling = 10000

// Cap is the record count of one endpoint for free keys and for premium and business keys.
type Cap struct {
	Free    int `json:"free"`
	Premium int `json:"premium"`
}

// Table maps endpoint names ("v1/searchteams.php", "v2/search/team") to caps.
type Table struct {
	mu   sync.RWMutex
	caps map[string]Cap
}

// New returns an empty table.
func New() *Table { return &Table{caps: map[string]Cap{}} }

// Default registers the default cap of an endpoint; an override loaded before or after wins.
func (t *Table) Default(name string, c Cap) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.caps[name]; !ok {
		t.caps[name] = c
	}
}

// Limit is the number of records the endpoint returns to the tier (never 0: unlimited
// becomes Ceiling).
func (t *Table) Limit(name string, tier store.Tier) int {
	t.mu.RLock()
	c, ok := t.caps[name]
	t.mu.RUnlock()
	if !ok {
		panic("caps: no cap registered for " + name)
	}
	n := c.Premium
	if tier == store.Free {
		n = c.Free
	}
	if n <= 0 || n > Ceiling {
		n = Ceiling
	}
	return n
}

// LoadFile applies the value of --caps: a built-in profile's name (Profiles), or a JSON caps
// file, {"v1/searchteams.php": {"free": 1, "premium": 100}, ...}, that overrides the caps it
// names. A name no endpoint registers is an error, so a typo does not pass silently; call it
// after every Default. A file whose name is a profile's is read as ./name.
func (t *Table) LoadFile(path string) error {
	if over, ok := Profiles[path]; ok {
		return t.override("caps profile "+path, over)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("caps file: %w", err)
	}
	var over map[string]Cap
	if err := json.Unmarshal(raw, &over); err != nil {
		return fmt.Errorf("caps file %s: %w", path, err)
	}
	return t.override("caps file "+path, over)
}

// override replaces the caps named in over; source names where they come from in errors.
func (t *Table) override(source string, over map[string]Cap) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for name, c := range over {
		if _, ok := t.caps[name]; !ok {
			return fmt.Errorf("%s: unknown endpoint %q", source, name)
		}
		if c.Free < 0 || c.Premium < 0 {
			return fmt.Errorf("%s: %s: caps must not be negative", source, name)
		}
		t.caps[name] = c
	}
	return nil
}

// Names lists the registered endpoint names, sorted.
func (t *Table) Names() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]string, 0, len(t.caps))
	for n := range t.caps {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
