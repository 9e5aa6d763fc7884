package ingest

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrNoRecords is what a *NoRecordsError matches with errors.Is: an import that found no
// record at all. Nothing was stored, and nothing else went wrong; a caller may treat it
// apart from a failed import.
var ErrNoRecords = errors.New("no records found")

// NoRecordsError is an import that found no record in its paths: folders without a file
// to read, empty files, empty lists, bodies that held only a message. Its text says what
// was looked at, so it is complete on its own.
type NoRecordsError struct {
	// Paths are the paths the import was given.
	Paths []string
	// EmptyFolders are those of Paths that hold no .json, .ndjson or .jsonl file.
	EmptyFolders []string
	// Files are the files read, and what each held instead of records.
	Files []FileHeld
}

// FileHeld is a file that held no record.
type FileHeld struct {
	Path string
	// Empty says the file held nothing but white space.
	Empty bool
	// Messages are the texts the body carried instead of records ("file: key: text").
	Messages []string
}

// maxNamed bounds the files a NoRecordsError names one by one.
const maxNamed = 5

func (e *NoRecordsError) Error() string {
	var what []string
	for _, d := range e.EmptyFolders {
		what = append(what, safeName(d)+" holds no .json, .ndjson or .jsonl file")
	}
	for i, f := range e.Files {
		if i == maxNamed {
			what = append(what, "and "+plural(len(e.Files)-i, "more file")+" without records")
			break
		}
		what = append(what, f.String())
	}
	// Each file read is named with the folder it was given in, so the paths are not
	// named again.
	return fmt.Sprintf("%v: %s", ErrNoRecords, strings.Join(what, "; "))
}

func (e *NoRecordsError) Unwrap() error { return ErrNoRecords }

// String says what a file held instead of records.
func (f FileHeld) String() string {
	name := safeName(f.Path)
	switch {
	case f.Empty:
		return name + " is empty"
	case len(f.Messages) > 0:
		return fmt.Sprintf("%s held a message (%s)", name, strings.Join(trimNames(f.Messages, name+": "), "; "))
	}
	return name + " holds no records"
}

// blankReader notes whether a file holds anything but white space.
type blankReader struct {
	r    io.Reader
	seen bool
}

func (b *blankReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	for i := 0; i < n && !b.seen; i++ {
		switch p[i] {
		case ' ', '\t', '\r', '\n':
		default:
			b.seen = true
		}
	}
	return n, err
}

func trimNames(msgs []string, prefix string) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = strings.TrimPrefix(m, prefix)
	}
	return out
}
