package media

import (
	"errors"
	"strings"
	"testing"
)

func TestParsePath(t *testing.T) {
	for path, want := range map[string]Path{
		"/images/media/team/badge/x.png":        {Original: "/images/media/team/badge/x.png"},
		"/images/media/team/badge/x.png/small":  {Original: "/images/media/team/badge/x.png", Copy: "small"},
		"/images/media/player/thumb/y.jpg/tiny": {Original: "/images/media/player/thumb/y.jpg", Copy: "tiny"},
		"/images/icons/Competitions.png":        {Original: "/images/icons/Competitions.png"},
		"/images/sports/soccer.jpg/medium":      {Original: "/images/sports/soccer.jpg", Copy: "medium"},
		"/images/media/team/badge/a b é.png":    {Original: "/images/media/team/badge/a b é.png"},
	} {
		got, err := ParsePath(path)
		if err != nil || got != want || got.String() != path {
			t.Errorf("%q: %+v, %v; want %+v", path, got, err, want)
		}
	}
	for _, path := range []string{
		"", "/", "/images/", "/images", "/media/x.png", "images/x.png",
		"/images/media/../../etc/passwd", "/images/media/./x.png", "/images//x.png", "/images/x.png/",
		"/images/x\x00.png", "/images/x\n.png", `/images/a\b.png`, "/images/\xff.png",
		"/images/small", "/images/x.png/small/tiny", "/images/" + strings.Repeat("a", MaxPath),
	} {
		if got, err := ParsePath(path); !errors.Is(err, ErrBadPath) {
			t.Errorf("%q: %+v, %v; want ErrBadPath", path, got, err)
		}
	}
}
