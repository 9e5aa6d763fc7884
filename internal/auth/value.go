package auth

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxValueLength is the longest key an operator may store by value (keys add --key), in
// characters: far above the built-in keys clients carry. MaxKeyLength leaves room for 128
// characters of 4 bytes each.
const MaxValueLength = 128

// CheckValue says why a key given by value cannot be stored, or nil. A key travels as a path
// segment (/api/v1/json/{key}/...), so "/" would split it, and a character that cannot be
// printed could not be typed into a client's settings.
func CheckValue(v string) error {
	if v == "" {
		return errors.New("a key needs at least 1 character")
	}
	if !utf8.ValidString(v) {
		return errors.New("a key must be UTF-8 text")
	}
	if n := utf8.RuneCountInString(v); n > MaxValueLength {
		return fmt.Errorf("a key has at most %d characters, not %d", MaxValueLength, n)
	}
	if strings.Contains(v, "/") {
		return errors.New(`a key cannot hold "/" (it is a path segment of each request)`)
	}
	for i, r := range v {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("a key holds printable characters only; character %d is not one (%U)", utf8.RuneCountInString(v[:i])+1, r)
		}
	}
	return nil
}
