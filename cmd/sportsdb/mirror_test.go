package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"sportsdb/internal/apitest"
)

func TestMirrorCommandChecksFlagsFirst(t *testing.T) {
	for _, args := range [][]string{
		{"--from", "http://127.0.0.1:1", "--key", "k", "--rate", "many"},
		{"--from", "http://127.0.0.1:1", "--key", "k", "--leagues", "4328,EPL"},
		{"--from", "ftp://example.org", "--key", "k"},
		{"--from", "http://127.0.0.1:1"},
		{"--key", "k"},
		{"--from", "http://127.0.0.1:1", "--key", "k", "--follow=maybe"},
	} {
		db := filepath.Join(t.TempDir(), "m.db")
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"mirror", "--db", db}, args...), &out, &out)
		if err == nil {
			t.Errorf("%q: no error", args)
		}
		if _, statErr := os.Stat(db); statErr == nil {
			t.Errorf("%q: the database was created before the flags were checked", args)
		}
	}
}

func TestMirrorCommandNeverShowsTheKey(t *testing.T) {
	const key = "S3CRETKEY1234"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"Message":"Invalid API key"}`))
	}))
	defer up.Close()
	var out bytes.Buffer
	db := filepath.Join(t.TempDir(), "m.db")
	err := run(context.Background(), []string{"mirror", "--from", up.URL, "--key", key, "--db", db}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "Invalid API key") {
		t.Fatalf("error %v: want the upstream's refusal of the key", err)
	}
	if strings.Contains(err.Error()+out.String(), key) {
		t.Errorf("the key shows: %v\n%s", err, out.String())
	}
}

// Interrupted (Ctrl-C) in its first run, the mirror keeps the database it created and filled:
// the same command continues from it.
func TestMirrorCommandInterruptedKeepsItsDatabase(t *testing.T) {
	up := apitest.New(t, apitest.Options{Demo: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var hits atomic.Int32
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 20 {
			cancel() // the interrupt, in the middle of the crawl
		}
		up.Server.ServeHTTP(w, r)
	}))
	defer upstream.Close()
	db := filepath.Join(t.TempDir(), "m.db")
	args := []string{"mirror", "--from", upstream.URL, "--key", up.PremiumKey, "--db", db, "--leagues", "4425", "--rate", "6000"}
	var out bytes.Buffer
	if err := run(ctx, args, &out, &out); err == nil || !strings.Contains(err.Error(), "the same command continues") {
		t.Fatalf("error %v, want the interruption\n%s", err, out.String())
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("the interrupted mirror's database is gone: %v", err)
	}
	first := hits.Load()
	out.Reset()
	if err := run(context.Background(), args, &out, &out); err != nil {
		t.Fatalf("the second run: %v\n%s", err, out.String())
	}
	if !strings.HasPrefix(out.String(), "mirrored ") || strings.Contains(out.String(), "still queued") {
		t.Errorf("the second run says %q", out.String())
	}
	if hits.Load() == first {
		t.Error("the second run asked nothing: the first did not stop early")
	}
}
