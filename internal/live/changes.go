package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Page sizes of the changes endpoint.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// ErrCursorExpired is the 410 answer to a cursor the feed no longer covers.
var ErrCursorExpired = respond.WithCode(http.StatusGone, "Cursor expired", nil)

// ParseKinds reads a kinds parameter: kind names separated by commas; empty means every kind.
func ParseKinds(s string) ([]*record.Kind, error) {
	var out []*record.Kind
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		k, ok := record.ByName(strings.ToLower(name))
		if !ok {
			return nil, badRequest(fmt.Sprintf("Unknown kind %q in kinds: want names like event,livescore,team", clipValue(name)))
		}
		if !hasKind(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// ParseSince reads a since parameter (absent: FromOldest).
func ParseSince(q url.Values) (int64, error) {
	if !q.Has("since") {
		return store.FromOldest, nil
	}
	n, ok := ParseCursor(q.Get("since"))
	if !ok {
		return 0, badRequest("Invalid since: want a cursor (digits) from an earlier answer")
	}
	return n, nil
}

// ParseLimit reads a limit parameter (absent: def) by the rule of cursors: decimal digits
// and nothing else (no sign, no space); a limit over MaxLimit is MaxLimit.
func ParseLimit(q url.Values, def int) (int, error) {
	if !q.Has("limit") {
		return def, nil
	}
	n, ok := ParseCursor(q.Get("limit"))
	if !ok || n < 1 {
		return 0, badRequest(fmt.Sprintf("Invalid limit: want a number from 1 to %d", MaxLimit))
	}
	return int(min(n, MaxLimit)), nil
}

// params are the parameters the feed and the streams read.
var params = []string{"since", "kinds", "limit"}

// Query reads the query of a change feed or stream request. Where a parameter could be read
// in more than one way it is refused, not read in part: a bad percent escape, a ';' between
// parameters (which Go's own parser drops with the pair), a parameter given twice.
func Query(r *http.Request) (url.Values, error) {
	q := url.Values{}
	for pair := range strings.SplitSeq(r.URL.RawQuery, "&") {
		if pair == "" {
			continue
		}
		if strings.Contains(pair, ";") {
			return nil, badRequest("Invalid query: separate parameters with &, not ;")
		}
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil {
			return nil, badRequest(fmt.Sprintf("Invalid query: bad percent escape in %q", clipValue(rawName)))
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			return nil, badRequest(fmt.Sprintf("Invalid %s: bad percent escape", clipValue(name)))
		}
		q[name] = append(q[name], value)
	}
	for _, name := range params {
		if len(q[name]) > 1 {
			return nil, badRequest(fmt.Sprintf("Invalid %s: given more than once", name))
		}
	}
	return q, nil
}

func badRequest(msg string) error { return respond.WithCode(http.StatusBadRequest, msg, nil) }

func clipValue(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// ServeChanges answers GET changes?since=&kinds=&limit= from the feed of src.
func ServeChanges(w http.ResponseWriter, r *http.Request, src store.Feed) {
	q, err := Query(r)
	if err != nil {
		respond.Error(w, r, err)
		return
	}
	since, err := ParseSince(q)
	if err != nil {
		respond.Error(w, r, err)
		return
	}
	kinds, err := ParseKinds(q.Get("kinds"))
	if err != nil {
		respond.Error(w, r, err)
		return
	}
	limit, err := ParseLimit(q, DefaultLimit)
	if err != nil {
		respond.Error(w, r, err)
		return
	}
	body, err := changesBody(r.Context(), src, since, kinds, limit)
	if errors.Is(err, store.ErrCursorExpired) {
		respond.Error(w, r, ErrCursorExpired)
		return
	}
	if err != nil {
		respond.Error(w, r, fmt.Errorf("changes: %w", err))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	respond.JSON(w, body)
}

// changesBody is {"changes":[...],"next":"N"}.
func changesBody(ctx context.Context, src store.Feed, since int64, kinds []*record.Kind, limit int) ([]byte, error) {
	cs, next, err := src.Changes(ctx, since, kinds, limit)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 64+96*len(cs))
	b = append(b, `{"changes":[`...)
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"cursor":"`...)
		b = strconv.AppendInt(b, c.Cursor, 10)
		b = append(b, `","kind":`...)
		b = record.AppendString(b, c.Kind.Name)
		b = append(b, `,"id":`...)
		b = record.AppendString(b, c.ID)
		b = append(b, `,"op":`...)
		b = record.AppendString(b, c.Op)
		b = append(b, `,"time":"`...)
		b = c.Time.UTC().AppendFormat(b, store.ChangeTimeLayout)
		b = append(b, '"')
		if c.By != "" {
			b = record.AppendString(append(b, `,"by":`...), c.By)
		}
		b = append(b, '}')
	}
	b = append(b, `],"next":"`...)
	b = strconv.AppendInt(b, next, 10)
	return append(b, `"}`...), nil
}
