package record

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Letters that Unicode does not decompose into a base letter and a mark.
var foldSpecial = map[rune]string{
	'ß': "ss", 'ø': "o", 'Ø': "o", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe",
	'đ': "d", 'Đ': "d", 'ł': "l", 'Ł': "l", 'ı': "i", 'þ': "th", 'ð': "d",
}

// Fold returns the form names are matched and sorted in: lower case, accents removed,
// '_' and '+' read as spaces (as the public service reads them in query values), runs of
// space collapsed, trimmed.
func Fold(s string) string {
	if f, ok := foldASCII(s); ok {
		return f
	}
	return foldUnicode(s)
}

// foldASCII is Fold of a string of ASCII bytes only, which NFD leaves as it is and which
// holds no marks nor special letters: most names of an import. It returns s itself when s is
// already folded, and false when s holds a byte >= 0x80.
func foldASCII(s string) (string, bool) {
	folded := true
	space := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case 'A' <= c && c <= 'Z', c == '_', c == '+', asciiSpace(c) && (c != ' ' || space):
			folded = false
		}
		space = asciiSpace(c)
	}
	if folded && !space || s == "" {
		return s, true
	}
	b := make([]byte, 0, len(s))
	space = true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '+' || asciiSpace(c):
			if !space {
				b = append(b, ' ')
				space = true
			}
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		space = false
		b = append(b, c)
	}
	if len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return string(b), true
}

// asciiSpace is unicode.IsSpace for a byte below 0x80.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func foldUnicode(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true // drops leading space
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r == '_' || r == '+' || unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
				space = true
			}
			continue
		}
		space = false
		if rep, ok := foldSpecial[r]; ok {
			b.WriteString(rep)
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimRight(b.String(), " ")
}

// FoldList folds a comma separated list into ",a,b,c," so that one item can be matched with
// a substring search for ",item,".
func FoldList(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	parts := strings.Split(s, ",")
	var b strings.Builder
	b.WriteByte(',')
	for _, p := range parts {
		if f := Fold(p); f != "" {
			b.WriteString(f)
			b.WriteByte(',')
		}
	}
	return b.String()
}

// IndexValue is what the store keeps in an index column for a value.
func (ix Index) IndexValue(v Value) string {
	switch ix.Norm {
	case Name:
		return Fold(v.S)
	case List:
		return FoldList(v.S)
	}
	return v.S
}
