package media

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxPath is the longest image path kept: the public service's are under 120 bytes.
const MaxPath = 512

// Copies are the smaller copies, by the name appended to an original's path, with the
// width each is at most. The height keeps the original's aspect.
var Copies = map[string]int{"medium": 500, "small": 250, "preview": 200, "tiny": 50}

// ErrBadPath: a path that no image can have (HTTP 400).
var ErrBadPath = errors.New("bad image path")

// Path is an image path read by ParsePath.
type Path struct {
	// Original is the original's path; the whole path when it names an original.
	Original string
	// Copy names the smaller copy ("small"), "" for the original itself.
	Copy string
}

// Width is the most a copy is wide, 0 for an original.
func (p Path) Width() int { return Copies[p.Copy] }

// String is the path.
func (p Path) String() string {
	if p.Copy == "" {
		return p.Original
	}
	return p.Original + "/" + p.Copy
}

// ParsePath reads an image path, what follows the host in an image's URL: "/images/..."
// with plain segments, an original's or a copy's. It refuses what could step out of the
// tree or mean two things: "." and ".." segments, empty ones, backslashes, control
// characters, bytes that are not UTF-8, and an original whose last segment is a copy's
// name.
func ParsePath(p string) (Path, error) {
	if len(p) > MaxPath {
		return Path{}, fmt.Errorf("%w: longer than %d bytes", ErrBadPath, MaxPath)
	}
	rest, ok := strings.CutPrefix(p, "/images/")
	if !ok {
		return Path{}, fmt.Errorf("%w: it must start with /images/", ErrBadPath)
	}
	if !utf8.ValidString(p) {
		return Path{}, fmt.Errorf("%w: not UTF-8", ErrBadPath)
	}
	segs := strings.Split(rest, "/")
	for _, s := range segs {
		if s == "" || s == "." || s == ".." {
			return Path{}, fmt.Errorf("%w: empty, \".\" or \"..\" segment", ErrBadPath)
		}
		if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
			return Path{}, fmt.Errorf("%w: control character or backslash", ErrBadPath)
		}
	}
	last := segs[len(segs)-1]
	if _, ok := Copies[last]; !ok {
		return Path{Original: p}, nil
	}
	if len(segs) < 2 {
		return Path{}, fmt.Errorf("%w: a copy of nothing", ErrBadPath)
	}
	orig := p[:len(p)-len(last)-1]
	if _, ok := Copies[segs[len(segs)-2]]; ok {
		return Path{}, fmt.Errorf("%w: a copy of a copy", ErrBadPath)
	}
	return Path{Original: orig, Copy: last}, nil
}
