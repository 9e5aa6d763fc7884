package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// mirrorPath is where the answer to one request of a list lives under the nginx root. It is
// derived from the target and the key, since free and premium keys get different answers.
func mirrorPath(l line) string {
	sum := sha256.Sum256([]byte(l.target + "\t" + l.key))
	h := hex.EncodeToString(sum[:10])
	return "/m/" + h[:2] + "/" + h[2:] + ".json"
}

func mirrorCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen mirror", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("base", "", "server base URL, http://host:port")
	list := fs.String("list", "", "request list to fetch")
	root := fs.String("root", "", "folder nginx serves")
	out := fs.String("out", "", "the list of the same answers as nginx paths (written)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" || *list == "" || *root == "" || *out == "" {
		return errors.New("mirror: -base, -list, -root and -out are required")
	}
	lines, err := readList(*list)
	if err != nil {
		return err
	}
	bad, err := mirror(ctx, *base, lines, *root)
	if err != nil {
		return err
	}
	if err := writeMirrorList(*out, lines); err != nil {
		return err
	}
	if len(bad) > 0 {
		fmt.Fprintf(stderr, "mirror: %d of %d requests did not answer 200, first: %s\n", len(bad), len(lines), bad[0])
	}
	fmt.Fprintf(stdout, "mirrored %d answers of %s into %s\n", len(lines), *list, *root)
	return nil
}

// mirror fetches every request once and stores its body. It returns the requests that did
// not answer 200 (their bodies are stored too, so both servers get the same lists).
func mirror(ctx context.Context, base string, lines []line, root string) ([]string, error) {
	client := &http.Client{Timeout: 30 * time.Second}
	jobs := make(chan line)
	var (
		mu    sync.Mutex
		bad   []string
		first error
		wg    sync.WaitGroup
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for l := range jobs {
				status, err := fetchTo(ctx, client, base, l, root)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				if err == nil && status != http.StatusOK {
					bad = append(bad, fmt.Sprintf("%s -> %d", scrubKey(l.target), status))
				}
				mu.Unlock()
			}
		}()
	}
	for _, l := range lines {
		mu.Lock()
		failed := first != nil
		mu.Unlock()
		if failed || ctx.Err() != nil {
			break
		}
		jobs <- l
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		return bad, first
	}
	return bad, ctx.Err()
}

func fetchTo(ctx context.Context, client *http.Client, base string, l line, root string) (int, error) {
	path := filepath.Join(root, filepath.FromSlash(mirrorPath(l)))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, fmt.Errorf("mirror: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+l.target, nil)
	if err != nil {
		return 0, fmt.Errorf("mirror %s: %w", scrubKey(l.target), err)
	}
	if l.key != "" {
		req.Header.Set("X-API-KEY", l.key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("mirror %s: %w", scrubKey(l.target), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("mirror %s: %w", scrubKey(l.target), err)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return 0, fmt.Errorf("mirror: %w", err)
	}
	return resp.StatusCode, nil
}

func writeMirrorList(path string, lines []line) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("mirror list: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, l := range lines {
		fmt.Fprintln(w, mirrorPath(l))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("mirror list: %w", err)
	}
	return f.Close()
}
