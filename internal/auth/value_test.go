package auth

import (
	"strings"
	"testing"
)

// The value rules of keys add --key: 1 to 128 printable characters, no "/", each refusal
// saying what was wanted.
func TestCheckValue(t *testing.T) {
	for _, ok := range []string{"1", "2", "123", strings.Repeat("k", MaxValueLength), strings.Repeat("é", MaxValueLength), "a-b_c.d~e"} {
		if err := CheckValue(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"":                                    "at least 1 character",
		strings.Repeat("k", MaxValueLength+1): "at most 128 characters, not 129",
		"ab/cd":                               `cannot hold "/"`,
		"ab\tcd":                              "character 3 is not one (U+0009)",
		"ab\x00":                              "printable characters only",
		"\xff":                                "UTF-8",
	} {
		err := CheckValue(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %q", bad, err, want)
		}
	}
	// A key the rules accept is one the resolver will look up, not refuse by its length.
	if long := strings.Repeat("€", MaxValueLength); len(long) > MaxKeyLength {
		t.Errorf("a %d-byte key of %d characters is longer than MaxKeyLength %d", len(long), MaxValueLength, MaxKeyLength)
	}
}
