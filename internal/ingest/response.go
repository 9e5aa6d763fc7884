package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"sportsdb/internal/store"
)

// Response stores the records of one response body inside tx, as the answer to the request
// sourceURL (which gives what the body leaves out, as Options.SourceURL does). It is for
// callers that fetch bodies themselves (the mirror, read-through) and commit each with state
// of their own. The summary counts the records and keeps the messages a body carried instead
// of records; a syntax error (a truncated body) is an error, and the caller rolls back.
func Response(ctx context.Context, tx store.Tx, body []byte, sourceURL string) (Summary, error) {
	sum := newSummary()
	imp := newImporter(&sum, newProgress(nil, ""))
	err := imp.read(ctx, tx, "response", bytes.NewReader(body), sourceURL)
	for uf, n := range imp.b.unknown {
		sum.Unknown[uf.kind.Name+"."+uf.field] += n
	}
	if err != nil {
		return sum, fmt.Errorf("response of %s: %w", sourceURL, err)
	}
	return sum, nil
}

// IsTerminal says whether w is a terminal, where long work draws a live progress line.
func IsTerminal(w io.Writer) bool { return isTerminal(w) }
