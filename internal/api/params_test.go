package api

import "testing"

func TestParseID(t *testing.T) {
	for in, want := range map[string]string{"4328": "4328", "007": "7", "0": "0"} {
		if got, ok := ParseID(in); !ok || got != want {
			t.Errorf("ParseID(%q) = %q, %v", in, got, ok)
		}
	}
	for _, bad := range []string{"", "-1", "+1", " 1", "1.0", "1e3", "abc", "1234567890123456789", "４３"} {
		if got, ok := ParseID(bad); ok {
			t.Errorf("ParseID(%q) accepted as %q", bad, got)
		}
	}
}

func TestPrintable(t *testing.T) {
	for s, want := range map[string]bool{"Atlético Madrid": true, "a\x00b": false, "tab\there": false, "\xff": false, "": true, "a\u0085b": false} {
		if Printable(s) != want {
			t.Errorf("Printable(%q) = %v", s, !want)
		}
	}
}
