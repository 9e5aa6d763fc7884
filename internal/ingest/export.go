package ingest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"sportsdb/internal/record"
	"sportsdb/internal/store"
)

// Export writes every record of st into dir in the import format: one NDJSON file per kind,
// <kind>.ndjson, each line a full record (every field in wire order, nulls included), in
// Scan order. Each file is written to a temporary name and renamed, so a reader never sees
// half a file; the same database always gives the same bytes. A kind without records gets
// no file, and a file of that name left by an earlier export is removed, so that the folder
// holds exactly the database. API keys are not records and are never exported.
func Export(ctx context.Context, st store.Records, dir string, opts Options) (Summary, error) {
	prog := newProgress(opts.Progress, "exporting")
	sum := newSummary()
	sum.Exported = true
	err := exportAll(ctx, st, dir, &sum, prog)
	sum.Elapsed = time.Since(prog.start)
	if err != nil {
		prog.done(fmt.Sprintf("export failed after %d records in %.2fs", sum.Records, sum.Elapsed.Seconds()))
		return sum, err
	}
	prog.done(sum.String())
	return sum, nil
}

func exportAll(ctx context.Context, st store.Records, dir string, sum *Summary, prog *progress) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: %w", pathError(dir, err))
	}
	for _, k := range record.Kinds {
		base := sum.Records
		n, err := exportKind(ctx, st, dir, k, func(n int) { prog.tick(base+n, sum.Files) })
		var pe *fs.PathError
		switch {
		case errors.As(err, &pe):
			// The file being written, not the temporary name it has until it is complete.
			return fmt.Errorf("export: %w", pathError(filepath.Join(dir, k.Name+".ndjson"), err))
		case err != nil:
			return fmt.Errorf("export: %s records: %w", k.Name, err)
		}
		sum.Records += n
		if n > 0 {
			sum.ByKind[k.Name] = n
			sum.Files++
		}
	}
	return syncDir(dir)
}

// exportKind writes the records of one kind and returns how many it wrote.
func exportKind(ctx context.Context, st store.Records, dir string, k *record.Kind, tick func(int)) (n int, err error) {
	final := filepath.Join(dir, k.Name+".ndjson")
	tmp, err := os.CreateTemp(dir, "."+k.Name+".ndjson.*.tmp")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriterSize(tmp, 256<<10)
	view := k.View("full")
	var line []byte
	err = st.Scan(ctx, k, func(r record.Record) error {
		var err error
		if line, err = record.AppendView(line[:0], r, view, false); err != nil {
			return err
		}
		line = append(line, '\n')
		n++
		tick(n)
		_, err = w.Write(line)
		return err
	})
	if err != nil {
		return 0, err
	}
	if n == 0 {
		tmp.Close()
		os.Remove(tmp.Name())
		if err := os.Remove(final); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("remove the stale %s: %w", final, err)
		}
		return 0, nil
	}
	if err = w.Flush(); err != nil {
		return 0, err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return 0, err
	}
	if err = tmp.Sync(); err != nil {
		return 0, err
	}
	if err = tmp.Close(); err != nil {
		return 0, err
	}
	if err = os.Rename(tmp.Name(), final); err != nil {
		return 0, err
	}
	return n, nil
}

// syncDir makes the renames durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("export: %w", pathError(dir, err))
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("export: %w", pathError(dir, err))
	}
	return nil
}
