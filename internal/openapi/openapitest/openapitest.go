// Package openapitest checks answers against the OpenAPI document of sportsdb: the schema of
// the path's operation for the answer's status, with a JSON Schema 2020-12 validator. Tests
// of the API packages use it on their golden answers and the recorded fixtures.
package openapitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"sportsdb/internal/openapi"
)

const docURL = "file:///openapi.json"

// Validator holds the document and the schemas compiled from it.
type Validator struct {
	doc      map[string]any
	paths    []string
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

// New builds the document of a server with the default caps and a validator of it.
func New(t testing.TB) *Validator {
	t.Helper()
	raw, err := openapi.Default()
	if err != nil {
		t.Fatal(err)
	}
	v, err := FromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// FromJSON reads a document.
func FromJSON(raw []byte) (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("read the document: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, fmt.Errorf("load the document: %w", err)
	}
	m := doc.(map[string]any)
	v := &Validator{doc: m, compiler: c, compiled: map[string]*jsonschema.Schema{}}
	for p := range m["paths"].(map[string]any) {
		v.paths = append(v.paths, p)
	}
	return v, nil
}

// Doc is the document, decoded.
func (v *Validator) Doc() map[string]any { return v.doc }

// Check validates a JSON body answered to GET pathQuery (as sent: escaped, with its query)
// with the status: the path must be the document's, the status one of its operation's
// answers, and the body valid against that answer's schema.
func (v *Validator) Check(pathQuery string, status int, body []byte) error {
	u, err := url.Parse(pathQuery)
	if err != nil {
		return fmt.Errorf("%s: %w", pathQuery, err)
	}
	tmpl, ok := v.Match(u.EscapedPath())
	var ptr string
	switch {
	case ok:
		if ptr, err = v.schemaPointer(tmpl, status); err != nil {
			return fmt.Errorf("%s (%s): %w", pathQuery, tmpl, err)
		}
	case status == http.StatusNotFound:
		// The document says it once: a path it does not list is answered 404 Not found.
		ptr = "/components/responses/NotFound/content/application~1json/schema"
	default:
		return fmt.Errorf("%s: no path of the document matches", pathQuery)
	}
	sch, err := v.compile(ptr)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: body is not JSON: %w", pathQuery, err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("%s (%s, %d): %w", pathQuery, tmpl, status, err)
	}
	return nil
}

// schemaPointer is the JSON pointer of the schema of an operation's answer, through a
// reference to a shared answer.
func (v *Validator) schemaPointer(tmpl string, status int) (string, error) {
	op := v.doc["paths"].(map[string]any)[tmpl].(map[string]any)["get"].(map[string]any)
	res, ok := op["responses"].(map[string]any)[strconv.Itoa(status)].(map[string]any)
	if !ok {
		return "", fmt.Errorf("status %d is not an answer of the operation", status)
	}
	ptr := "/paths/" + escape(tmpl) + "/get/responses/" + strconv.Itoa(status)
	if r, ok := res["$ref"].(string); ok {
		ptr = strings.TrimPrefix(r, "#")
	}
	return ptr + "/content/application~1json/schema", nil
}

func (v *Validator) compile(ptr string) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[ptr]; ok {
		return s, nil
	}
	s, err := v.compiler.Compile(docURL + "#" + ptr)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", ptr, err)
	}
	v.compiled[ptr] = s
	return s, nil
}

// Match finds the document's path template of an escaped request path. A literal segment
// beats a parameter, as the route tables match (livescore/all is not the sport "all").
func (v *Validator) Match(path string) (string, bool) {
	segs := strings.Split(path, "/")
	best, bestLit := "", -1
	for _, tmpl := range v.paths {
		ts := strings.Split(tmpl, "/")
		if len(ts) != len(segs) {
			continue
		}
		lit, ok := 0, true
		for i, t := range ts {
			l, isLit := segMatch(t, segs[i])
			if !l {
				ok = false
				break
			}
			if isLit {
				lit++
			}
		}
		if ok && lit > bestLit {
			best, bestLit = tmpl, lit
		}
	}
	return best, bestLit >= 0
}

// segMatch matches one segment: a literal, or {param} with a literal suffix ({id}.ics).
func segMatch(tmpl, seg string) (ok, literal bool) {
	open := strings.IndexByte(tmpl, '{')
	if open < 0 {
		return tmpl == seg, true
	}
	end := strings.IndexByte(tmpl, '}')
	prefix, suffix := tmpl[:open], tmpl[end+1:]
	return strings.HasPrefix(seg, prefix) && strings.HasSuffix(seg, suffix) &&
		len(seg) > len(prefix)+len(suffix), false
}

func escape(p string) string { return strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1") }

// Indent is the document indented, for a reader.
func Indent(raw []byte) []byte {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return raw
	}
	return b.Bytes()
}
