package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// An NDJSON body may also hold delete lines, {"delete":{"kind":"event","id":"123"}}: the
// record of that kind and id is deleted where the line stands, in the same transaction as
// the records around it. Deleting a record that is not stored is an error, as it is for
// `sportsdb delete` and a DELETE of the records API: a delete that finds nothing is most
// likely a wrong id, and the run keeps nothing.

// Handlers say what a run does with each record and each delete line; nil ones upsert the
// record (store.Tx.Upsert) and delete the record (store.DeleteTx.Delete).
type Handlers struct {
	Upsert func(ctx context.Context, tx store.Tx, r record.Record) error
	Delete func(ctx context.Context, tx store.Tx, k *record.Kind, id string) error
}

// RuleError is a record that breaks a rule of import (an id no lookup can ask for, text
// that is not UTF-8, no kind that has its fields), as opposed to text that is not JSON.
type RuleError struct {
	// Field is the field that breaks the rule, "" when the rule concerns the whole record.
	Field string
	Err   error
}

func (e *RuleError) Error() string { return e.Err.Error() }
func (e *RuleError) Unwrap() error { return e.Err }

func ruleError(err error) error {
	re := &RuleError{Err: err}
	var idErr *record.IDError
	if errors.As(err, &idErr) {
		re.Field = idErr.Field
	}
	return re
}

// ErrNotStored is the error of a delete line whose record is not stored.
var ErrNotStored = errors.New("no such record is stored")

// deleteLine is the parsed form of a delete line.
type deleteLine struct {
	Delete *struct {
		Kind string `json:"kind"`
		ID   string `json:"id"`
	} `json:"delete"`
}

// isDeleteStart says whether a line's text starts as a delete line: '{', then the key
// "delete". short is true when s ends before that is known.
func isDeleteStart(s []byte) (yes, short bool) {
	i := skipSpace(s, 0)
	if i >= len(s) {
		return false, true
	}
	if s[i] != '{' {
		return false, false
	}
	i = skipSpace(s, i+1)
	const key = `"delete"`
	rest := s[i:]
	if len(rest) < len(key) {
		return bytes.HasPrefix([]byte(key), rest), bytes.HasPrefix([]byte(key), rest)
	}
	return bytes.HasPrefix(rest, []byte(key)), false
}

// parseDelete reads a delete line at the start of s: its kind and id and the bytes it took.
// errShort asks for more of the file unless atEOF.
func parseDelete(s []byte, atEOF bool) (k *record.Kind, id string, n int, err error) {
	dec := json.NewDecoder(bytes.NewReader(s))
	dec.DisallowUnknownFields()
	var d deleteLine
	if err := dec.Decode(&d); err != nil {
		var syntax *json.SyntaxError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF) && !atEOF:
			return nil, "", 0, errShort
		case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
			return nil, "", 0, fmt.Errorf("invalid JSON in a delete line: %w", err)
		}
		return nil, "", 0, &RuleError{Err: errors.New(`a delete line must be {"delete":{"kind":KIND,"id":ID}}: two strings, nothing else`)}
	}
	n = int(dec.InputOffset())
	if nl := bytes.IndexByte(s[:n], '\n'); nl >= 0 {
		return nil, "", 0, errors.New("a delete line must be on one line")
	}
	if d.Delete == nil || d.Delete.ID == "" {
		return nil, "", 0, &RuleError{Field: "id", Err: errors.New(`a delete line must be {"delete":{"kind":KIND,"id":ID}} with an id`)}
	}
	if p := ValueProblem(d.Delete.ID); p != "" {
		return nil, "", 0, &RuleError{Field: "id", Err: errors.New("the id of a delete line: " + p)}
	}
	k, ok := record.ByName(d.Delete.Kind)
	if !ok {
		return nil, "", 0, &RuleError{Field: "kind", Err: fmt.Errorf("a delete line names kind %s, which no record has", record.Quote(d.Delete.Kind))}
	}
	return k, d.Delete.ID, n, nil
}

// orStore fills the handlers h leaves nil with the store's own: storeUpsert, storeDelete.
func (h Handlers) orStore() Handlers {
	if h.Upsert == nil {
		h.Upsert = storeUpsert
	}
	if h.Delete == nil {
		h.Delete = storeDelete
	}
	return h
}

// storeUpsert is the upsert of a record when the run's Handlers name none.
func storeUpsert(ctx context.Context, tx store.Tx, r record.Record) error {
	if err := tx.Upsert(ctx, r); err != nil {
		return fmt.Errorf("store %s: %w", r.Kind.Name, err)
	}
	return nil
}

// storeDelete is the delete of a line when the run's Handlers name none.
func storeDelete(ctx context.Context, tx store.Tx, k *record.Kind, id string) error {
	d, ok := tx.(store.DeleteTx)
	if !ok {
		return errors.New("this database cannot delete single records")
	}
	err := d.Delete(ctx, k, id)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("delete %s %s: %w", k.Name, record.Quote(id), ErrNotStored)
	}
	return err
}

// ReadBody reads one body of records into tx, as import reads a file (NDJSON, with delete
// lines, when ndjson; else a response body, an array of records or one record), handing
// each record and delete to h. Errors are a *FileError naming the line or record, with a
// *RuleError for a record that breaks a rule of import. A body that holds no record and no
// delete is a *NoRecordsError.
func ReadBody(ctx context.Context, tx store.Tx, body io.Reader, ndjson bool, h Handlers) (Summary, error) {
	sum := newSummary()
	imp := newImporter(&sum, newProgress(nil, "importing"))
	imp.h = h.orStore()
	name := "body.json"
	if ndjson {
		name = "body.ndjson"
	}
	if err := imp.read(ctx, tx, name, body, ""); err != nil {
		return sum, err
	}
	if sum.Records == 0 && sum.Deleted == 0 {
		return sum, &NoRecordsError{Files: []FileHeld{{Path: name, Empty: imp.blank, Messages: sum.Messages}}}
	}
	return sum, nil
}
