package calendar

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// unfold undoes RFC 5545 folding: a CRLF followed by one space joins the lines.
func unfold(s string) string { return strings.ReplaceAll(s, "\r\n ", "") }

func TestFoldKeepsLinesWithin75OctetsAndWholeCharacters(t *testing.T) {
	long := "SUMMARY:" + strings.Repeat("Atlético Madrid – Bayern München ⚽ BC Šiauliai 🏟 ", 6)
	tests := []struct {
		name string
		line string
	}{
		{"short", "SUMMARY:Arsenal vs Chelsea"},
		{"exactly 75", "X:" + strings.Repeat("a", 73)},
		{"76 octets", "X:" + strings.Repeat("a", 74)},
		{"long ASCII", "DESCRIPTION:" + strings.Repeat("abcdefghij", 40)},
		{"long multibyte", long},
		// a 4-octet character straddling octet 75 moves whole to the next line
		{"emoji at the edge", "X:" + strings.Repeat("a", 71) + "🏟🏟🏟"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := string(fold(nil, []byte(tt.line)))
			if !strings.HasSuffix(out, "\r\n") {
				t.Fatalf("no CRLF at the end: %q", out)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
			for i, l := range lines {
				if len(l) > lineOctets {
					t.Errorf("line %d has %d octets: %q", i, len(l), l)
				}
				if i > 0 && !strings.HasPrefix(l, " ") {
					t.Errorf("continuation line %d does not start with a space: %q", i, l)
				}
				if !utf8.ValidString(l) {
					t.Errorf("line %d splits a UTF-8 character: %q", i, l)
				}
			}
			if got := unfold(strings.TrimSuffix(out, "\r\n")); got != tt.line {
				t.Errorf("unfolded %q, want %q", got, tt.line)
			}
			if want := (len(tt.line)-2)/(lineOctets-1) + 1; len(tt.line) > lineOctets && len(lines) < want {
				t.Errorf("%d lines, want at least %d", len(lines), want)
			}
		})
	}
	if out := string(fold(nil, []byte(long))); strings.Count(out, "\r\n") < 2 {
		t.Fatalf("a long multibyte summary was not folded: %q", out)
	}
}

func TestEscapeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Arsenal vs Chelsea", "Arsenal vs Chelsea"},
		{"Emirates Stadium, London, England", `Emirates Stadium\, London\, England`},
		{`a;b\c`, `a\;b\\c`},
		{"one\ntwo\r\nthree\rfour", `one\ntwo\nthree\nfour`},
		{"tab\tkept, bell\adropped", "tab\tkept\\, belldropped"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"Atlético: «Olé»", "Atlético: «Olé»"},
	}
	for _, tt := range tests {
		if got := escapeText(tt.in); got != tt.want {
			t.Errorf("escapeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBodyHasCRLFLineEndingsOnly(t *testing.T) {
	ev := event(map[string]string{"strEvent": "Arsenal vs Chelsea", "strDescriptionEN": "x\ny",
		"strVenue": strings.Repeat("Very Long Stadium Name ", 8)})
	body := string(Feed{Name: "Arsenal", Season: "2026-2027", Events: []recordT{ev}}.ICS())
	if !strings.HasPrefix(body, "BEGIN:VCALENDAR\r\n") || !strings.HasSuffix(body, "END:VCALENDAR\r\n") {
		t.Fatalf("body does not open and close the calendar: %q", body)
	}
	if n := strings.Count(body, "\n"); n != strings.Count(body, "\r\n") || n < 20 {
		t.Fatalf("%d LF, %d CRLF", n, strings.Count(body, "\r\n"))
	}
	if strings.Count(body, "\r") != strings.Count(body, "\r\n") {
		t.Fatal("a bare CR in the body")
	}
	for _, want := range []string{"VERSION:2.0\r\n", "PRODID:", "CALSCALE:GREGORIAN\r\n", "METHOD:PUBLISH\r\n",
		"X-WR-CALNAME:Arsenal\r\n", "REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n", "X-PUBLISHED-TTL:PT1H\r\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q", want)
		}
	}
}
