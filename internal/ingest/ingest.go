// Package ingest reads TheSportsDB-format JSON into the store and writes the store back out
// in that format.
//
// Import takes any v1 or v2 response body of the public service, a bare array of records,
// one record, or NDJSON with one record per line. The kind of each record comes from its
// fields (record.Detect), so envelope keys that do not name their content (results,
// countries, the v2 groups) need no table. Fields the kind does not have are kept as the
// record's extras. One import run is one transaction: a bad file leaves the database as it
// was. Bad means what the API could not serve back as it came: an id no lookup can ask for
// (record.IDProblem), text that is not UTF-8 or holds NUL, a value that is not a string,
// number or null.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Options tune an import or export.
type Options struct {
	// SourceURL is the request whose answer a single imported file is. It supplies what
	// the body leaves out: idLeague of seasons, dateEvent of a day's highlights.
	SourceURL string
	// Progress receives a live progress line when it is a terminal, and always one
	// summary line at the end; nil writes nothing.
	Progress io.Writer
}

// FileError is a failure to import one file, with the record it concerns when known.
type FileError struct {
	Path string
	// Where is the record: "teams[3]" in a response body, "line 7" in NDJSON; "" when the
	// problem concerns the whole file.
	Where string
	Err   error
}

func (e *FileError) Error() string {
	if e.Where == "" {
		return fmt.Sprintf("%s: %v", safeName(e.Path), e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", safeName(e.Path), e.Where, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// By is the writer an import's changes name in the change feed.
const By = "import"

// fileExts are the extensions read when walking a folder.
var fileExts = map[string]bool{".json": true, ".ndjson": true, ".jsonl": true}

func isNDJSON(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".ndjson" || ext == ".jsonl"
}

// Import loads the files and folders (read recursively) at paths into st, merging each
// record into a stored one of the same id (store.Tx.Upsert). All of it is one transaction:
// on any error nothing of the run is kept, and the error names the file and the record.
func Import(ctx context.Context, st store.Records, paths []string, opts Options) (Summary, error) {
	prog := newProgress(opts.Progress, "importing")
	sum, err := runImport(ctx, st, paths, opts, prog)
	sum.Elapsed = time.Since(prog.start)
	if err != nil {
		prog.done(fmt.Sprintf("import failed, nothing was kept (%s read from %s in %.2fs)",
			plural(sum.Records, "record"), plural(sum.Files, "file"), sum.Elapsed.Seconds()))
		return sum, err
	}
	prog.done(sum.String())
	return sum, nil
}

func runImport(ctx context.Context, st store.Records, paths []string, opts Options, prog *progress) (Summary, error) {
	sum := newSummary()
	files, emptyDirs, err := collectFiles(paths)
	if err != nil {
		return sum, err
	}
	if opts.SourceURL != "" && len(files) != 1 {
		return sum, fmt.Errorf("import: a source URL describes one file, but the paths hold %d", len(files))
	}
	nothing := &NoRecordsError{Paths: paths, EmptyFolders: emptyDirs}
	if len(files) == 0 {
		return sum, fmt.Errorf("import: %w", nothing)
	}
	urls := newURLIndex()
	imp := newImporter(&sum, prog)
	write := st.Write
	if l, ok := st.(loader); ok {
		write = l.Load
	}
	err = write(ctx, func(tx store.Tx) error {
		store.SetBy(tx, By)
		// Each attempt starts from nothing, should a store run fn again to retry.
		sum = newSummary()
		imp.b = newBuilder()
		nothing.Files = nothing.Files[:0]
		for _, f := range files {
			u := opts.SourceURL
			if u == "" {
				var err error
				if u, err = urls.lookup(f); err != nil {
					return &FileError{Path: f, Err: err}
				}
			}
			before, messages := sum.Records+sum.Deleted, len(sum.Messages)
			if err := imp.file(ctx, tx, f, u); err != nil {
				return err
			}
			if sum.Records+sum.Deleted == before {
				nothing.Files = append(nothing.Files, FileHeld{Path: f, Empty: imp.blank, Messages: sum.Messages[messages:]})
			}
		}
		if sum.Records == 0 && sum.Deleted == 0 {
			return nothing // rolls back: a run that stores nothing changes nothing
		}
		return nil
	})
	for uf, n := range imp.b.unknown {
		sum.Unknown[uf.kind.Name+"."+uf.field] += n
	}
	if err != nil {
		var fe *FileError
		var ne *NoRecordsError
		switch {
		case errors.As(err, &fe):
			err = fe
		case errors.As(err, &ne):
			err = ne
		}
		return sum, fmt.Errorf("import: %w", err)
	}
	return sum, nil
}

// loader is a store with a faster way to run one large transaction (sqlite.Store.Load).
type loader interface {
	Load(ctx context.Context, fn func(store.Tx) error) error
}

// collectFiles expands folders into the files below them with a known extension, in
// lexical order, and lists the folders that hold none. A file named explicitly is read
// whatever its extension. Paths keep the form they were given in, so that messages name
// files the way the user did.
func collectFiles(paths []string) (files, emptyDirs []string, err error) {
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("import: %w", pathError(p, err))
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		n := len(files)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return pathError(path, err)
			}
			if !d.IsDir() && fileExts[strings.ToLower(filepath.Ext(path))] {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("import: %w", err)
		}
		if len(files) == n {
			emptyDirs = append(emptyDirs, p)
		}
	}
	return files, emptyDirs, nil
}

// pathError words an error about path as "path: cause" (safely quoted), where the error of
// the os package would name the path inside its own words ("open x: permission denied").
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", safeName(path), pe.Err)
	}
	return fmt.Errorf("%s: %w", safeName(path), err)
}

// importer holds the state of one import run.
type importer struct {
	sum  *Summary
	prog *progress
	b    *builder
	obj  *objectParser
	r    *reader
	// lps parse the chunks of NDJSON files (see readLines), chunk bytes at a time.
	lps   []*lineParser
	chunk int
	// blank says the last file read held nothing but white space.
	blank bool
	// h does what the run does with each record and delete line (see Handlers).
	h Handlers
}

func newImporter(sum *Summary, prog *progress) *importer {
	return &importer{sum: sum, prog: prog, b: newBuilder(), obj: newObjectParser(), r: newReader(), chunk: chunkSize,
		h: Handlers{}.orStore()}
}

func (imp *importer) file(ctx context.Context, tx store.Tx, path, sourceURL string) error {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the FileError names the path
		}
		return &FileError{Path: path, Err: err}
	}
	defer f.Close()
	return imp.read(ctx, tx, path, f, sourceURL)
}

// read imports the body of one file; name says where it comes from and its extension
// whether it is NDJSON.
func (imp *importer) read(ctx context.Context, tx store.Tx, name string, src io.Reader, sourceURL string) error {
	fills, err := fillsFor(sourceURL)
	if err != nil {
		return &FileError{Path: name, Err: err}
	}
	imp.b.fills = fills
	imp.sum.Files++
	sniff := &blankReader{r: src}
	src = sniff
	defer func() { imp.blank = !sniff.seen }()
	keep := func(r record.Record) error {
		if err := imp.h.Upsert(ctx, tx, r); err != nil {
			return err
		}
		imp.sum.Records++
		imp.sum.ByKind[r.Kind.Name]++
		imp.prog.tick(imp.sum.Records, imp.sum.Files)
		return nil
	}
	onRecord := func(p *objectParser, where func() string) error {
		r, err := imp.b.build(p)
		if err != nil {
			err = ruleError(err)
		} else {
			err = keep(r)
		}
		if err != nil {
			return &FileError{Path: name, Where: where(), Err: err}
		}
		return nil
	}
	isRecord := func(p *objectParser) bool { return imp.b.detect(p).kind != nil }
	br := newBodyReader(imp.r, imp.obj, isRecord, onRecord)
	br.onDelete = func(k *record.Kind, id string, where func() string) error {
		if err := imp.h.Delete(ctx, tx, k, id); err != nil {
			return &FileError{Path: name, Where: where(), Err: err}
		}
		imp.sum.Deleted++
		return nil
	}
	if isNDJSON(name) {
		err = imp.readLines(src, fills, br, keep)
	} else {
		imp.r.reset(src)
		err = br.readJSON()
	}
	for _, m := range br.messages {
		imp.sum.Messages = append(imp.sum.Messages, name+": "+m)
	}
	if err == nil {
		return nil
	}
	var fe *FileError
	if errors.As(err, &fe) {
		if fe.Path == "" {
			fe.Path = name
		}
		return err
	}
	return &FileError{Path: name, Err: err}
}
