package admin_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"sportsdb/internal/admin"
	"sportsdb/internal/apitest"
)

// foreign finds what would load from another host: an absolute or scheme-relative URL in an
// attribute, a CSS url() or @import, a fetch or EventSource of one.
var foreign = regexp.MustCompile(`(?i)(src|href|action)\s*=\s*["']?\s*(https?:)?//|url\(\s*["']?\s*(https?:)?//|@import|(fetch|EventSource)\(\s*["'` + "`" + `](https?:)?//`)

// The page, its script and its style load nothing from another host, carry the strict
// Content-Security-Policy, and run no inline script or style (which that policy refuses).
func TestAdminLoadsNothingFromAnotherHost(t *testing.T) {
	env := apitest.New(t, apitest.Options{})
	for _, tc := range []struct{ path, ctype string }{
		{"/admin", "text/html; charset=utf-8"},
		{"/admin/admin.js", "text/javascript; charset=utf-8"},
		{"/admin/admin.css", "text/css; charset=utf-8"},
	} {
		r := env.Get(t, tc.path)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("%s: %d %q", tc.path, r.Status, r.Header.Get("Content-Type"))
			continue
		}
		if got := r.Header.Get("Content-Security-Policy"); got != admin.CSP {
			t.Errorf("%s: Content-Security-Policy %q, want %q", tc.path, got, admin.CSP)
		}
		if m := foreign.Find(r.Body); m != nil {
			t.Errorf("%s loads from another host: %q", tc.path, m)
		}
		body := string(r.Body)
		if strings.Contains(body, "localStorage") || strings.Contains(body, "document.cookie") {
			t.Errorf("%s keeps something beyond the tab's sessionStorage", tc.path)
		}
	}
	for _, want := range []string{"default-src 'none'", "script-src 'self';", "style-src 'self';", "connect-src 'self';"} {
		if !strings.Contains(admin.CSP, want) {
			t.Errorf("the policy lacks %q: %s", want, admin.CSP)
		}
	}
	page := string(env.Get(t, "/admin").Body)
	if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]|<style|\sstyle=|\son[a-z]+=`).MatchString(page) {
		t.Errorf("the page has inline script or style:\n%s", page)
	}
	if r := env.Get(t, "/admin/nothing.js"); r.Status != http.StatusNotFound {
		t.Errorf("/admin/nothing.js: %d, want 404", r.Status)
	}
}
