package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// rekeyCmd rewrites a request list for another database: the n-th key of each -from file
// becomes the n-th key of the matching -to file, in the v1 path and in the X-API-KEY column.
// Keys are stored hashed, so a database imported from an export has keys of its own.
func rekeyCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen rekey", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.String("list", "", "request list to rewrite")
	out := fs.String("out", "", "the rewritten list (written)")
	from := fs.String("from", "", "key files of the list's database, comma-separated")
	to := fs.String("to", "", "key files of the other database, in the same order")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *list == "" || *out == "" || *from == "" || *to == "" {
		return errors.New("rekey: -list, -out, -from and -to are required")
	}
	froms, tos := splitList(*from), splitList(*to)
	if len(froms) != len(tos) {
		return errors.New("rekey: -from and -to must name as many files")
	}
	keys := map[string]string{}
	for i := range froms {
		a, err := readKeys(froms[i])
		if err != nil {
			return err
		}
		b, err := readKeys(tos[i])
		if err != nil {
			return err
		}
		if len(b) < len(a) {
			return fmt.Errorf("rekey: %s has %d keys, fewer than the %d of %s", tos[i], len(b), len(a), froms[i])
		}
		for j, k := range a {
			keys[k] = b[j]
		}
	}
	lines, err := readList(*list)
	if err != nil {
		return err
	}
	for i, l := range lines {
		if lines[i], err = rekey(l, keys); err != nil {
			return fmt.Errorf("rekey %s line %d: %w", *list, i+1, err)
		}
	}
	if err := writeList(*out, lines); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rekeyed %d requests into %s\n", len(lines), *out)
	return nil
}

// rekey swaps the key of one request through keys.
func rekey(l line, keys map[string]string) (line, error) {
	if l.key != "" {
		k, ok := keys[l.key]
		if !ok {
			return l, errors.New("a key of no -from file")
		}
		l.key = k
	}
	const v1 = "/api/v1/json/"
	rest, ok := strings.CutPrefix(l.target, v1)
	if !ok {
		return l, nil
	}
	seg, after, ok := strings.Cut(rest, "/")
	if !ok {
		return l, nil
	}
	k, err := url.PathUnescape(seg)
	if err != nil {
		return l, err
	}
	nk, ok := keys[k]
	if !ok {
		return l, errors.New("a key of no -from file")
	}
	l.target = v1 + url.PathEscape(nk) + "/" + after
	return l, nil
}
