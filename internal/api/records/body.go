package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"sportsdb/internal/api/respond"
	"sportsdb/internal/ingest"
	"sportsdb/internal/record"
)

// MaxBody bounds the body of one record: room for every field of the fullest kind and for
// one value as long as an import takes (ingest.MaxField), several times over.
const MaxBody = 4 << 20

// member is one field of the object a client sent: its value, or the rule it breaks.
type member struct {
	name    string
	value   record.Value
	problem string
}

var (
	errNotJSON = respond.WithCode(http.StatusUnsupportedMediaType, "The body must be JSON (Content-Type: application/json)", nil)
	errTooBig  = respond.WithCode(http.StatusRequestEntityTooLarge, fmt.Sprintf("The body is larger than %d MiB", MaxBody>>20), nil)
)

// readObject reads the body of a PUT or PATCH: one JSON object whose values are strings or
// null. A body that is not JSON by its Content-Type is a 415, one over MaxBody a 413, bad
// JSON a 400, and JSON that is no object a 422; a value that breaks a rule is a member with
// its problem, for the caller to answer with every problem at once.
func readObject(r *http.Request) ([]member, error) {
	if !isJSON(r.Header.Get("Content-Type")) {
		return nil, errNotJSON
	}
	b, err := readBody(r, MaxBody, errTooBig)
	if err != nil {
		return nil, err
	}
	if !json.Valid(b) {
		return nil, respond.WithCode(http.StatusBadRequest, "Malformed JSON", nil)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil, respond.InvalidRecord([]respond.Problem{{Field: "", Problem: "the body must be one JSON object"}})
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, respond.WithCode(http.StatusBadRequest, "Malformed JSON", err)
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, respond.WithCode(http.StatusBadRequest, "Malformed JSON", err)
		}
		out = append(out, readMember(name, raw))
	}
	return out, nil
}

// readBody reads a request's whole body, up to limit bytes: a longer one is tooBig, refused
// before it is read where its Content-Length says so.
func readBody(r *http.Request, limit int64, tooBig error) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, tooBig
	}
	b, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	var over *http.MaxBytesError
	switch {
	case errors.As(err, &over):
		return nil, tooBig
	case err != nil:
		return nil, respond.WithCode(http.StatusBadRequest, "The body could not be read", err)
	}
	return b, nil
}

// readMember reads one value as import would store it.
func readMember(name string, raw []byte) member {
	m := member{name: name}
	switch raw[0] {
	case 'n':
		m.value = record.Null
	case '"':
		// record's own string reader refuses a surrogate escape without its partner, which
		// encoding/json would turn into U+FFFD unseen; raw UTF-8 is checked below.
		text, _, err := record.AppendJSONString(nil, raw, 0)
		if err != nil {
			m.problem = "not valid UTF-8"
			break
		}
		m.value = record.Str(string(text))
		m.problem = ingest.ValueProblem(m.value.S)
	default:
		m.problem = "want a string or null"
	}
	return m
}

// isJSON says whether a Content-Type names JSON: application/json, or a type ending +json
// (application/merge-patch+json, which RFC 7396 names for a merge patch).
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}
