package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
