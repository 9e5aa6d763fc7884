package match

import (
	"slices"
	"testing"
	"time"
)

func TestParseDates(t *testing.T) {
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name  string
		dates []time.Time
	}{
		{"NFL.2024.09.15.Chiefs.vs.Bengals.1080p.WEB.h264-GRP.mkv", []time.Time{day(2024, 9, 15)}},
		{"Chiefs vs Bengals 2024-09-15.mkv", []time.Time{day(2024, 9, 15)}},
		{"Chiefs_vs_Bengals_20240915.ts", []time.Time{day(2024, 9, 15)}},
		{"Chiefs v Bengals 15-09-2024.mkv", []time.Time{day(2024, 9, 15)}},
		{"Chiefs v Bengals 09-15-2024.mkv", []time.Time{day(2024, 9, 15)}},
		{"Chiefs v Bengals 03-04-2024.mkv", []time.Time{day(2024, 4, 3), day(2024, 3, 4)}},
		{"Chiefs vs Bengals 15 Sep 2024.mkv", []time.Time{day(2024, 9, 15)}},
		{"Chiefs vs Bengals Sep 15, 2024.mkv", []time.Time{day(2024, 9, 15)}},
		{"Chiefs vs Bengals 15th September 2024.mkv", []time.Time{day(2024, 9, 15)}},
		{"Chiefs vs Bengals September 2nd 2024.mkv", []time.Time{day(2024, 9, 2)}},
		{"Chiefs vs Bengals 31-02-2024.mkv", nil},
	}
	for _, tt := range tests {
		if got := parse(tt.name, tables); !slices.Equal(got.dates, tt.dates) {
			t.Errorf("%s: dates %v, want %v", tt.name, got.dates, tt.dates)
		}
	}
}

func TestParseWords(t *testing.T) {
	tests := []struct {
		name      string
		words     []string
		sep       int
		awayFirst bool
		round     int
		session   string
	}{
		{"NFL.2024.09.15.Chiefs.vs.Bengals.1080p.WEB.h264-GRP.mkv", []string{"nfl", "chiefs", "bengals"}, 2, false, 0, ""},
		{"[GRP] Chiefs @ Bengals 2160p.UHD.BluRay.DD+5.1.HDR.x265-GROUP.mkv", []string{"chiefs", "bengals"}, 1, true, 0, ""},
		{"NFL 2024 Week 3 Chiefs at Bengals.mkv", []string{"nfl", "chiefs", "bengals"}, 2, true, 3, ""},
		{"Formula1.2025.R05.Monaco.Grand.Prix.Free.Practice.1080p.mkv", []string{"formula1", "monaco", "grand", "prix"}, -1, false, 5, "free practice"},
		{"UFC 300 Main Card.mp4", []string{"ufc", "300"}, -1, false, 0, "main card"},
		{"/media/Sports/Atlético_Madrid_v_Real_Bilbao.mkv", []string{"atletico", "madrid", "real", "bilbao"}, 2, false, 0, ""},
	}
	for _, tt := range tests {
		p := parse(tt.name, tables)
		if !slices.Equal(p.words, tt.words) || p.sep != tt.sep || p.awayFirst != tt.awayFirst || p.round != tt.round || p.session != tt.session {
			t.Errorf("%s: words %q sep %d away first %v round %d session %q, want %q %d %v %d %q",
				tt.name, p.words, p.sep, p.awayFirst, p.round, p.session, tt.words, tt.sep, tt.awayFirst, tt.round, tt.session)
		}
	}
}

func TestTablesRead(t *testing.T) {
	if got := tables.leagues["epl"]; !slices.Equal(got, []string{"English Premier League"}) {
		t.Errorf("epl stands for %q", got)
	}
	if _, err := readTables("nonsense line", ""); err == nil {
		t.Error("a league line without = was read")
	}
	if _, err := readTables("", "codec: x264"); err == nil {
		t.Error("a word group that does not exist was read")
	}
}

// No name, however odd, makes parse fail: it reads what it can.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"NFL.2024.09.15.Chiefs.vs.Bengals.1080p.WEB.h264-GRP.mkv", "@@@", "vs", "at at at",
		"15 Sep", "2024 13 45", "[x", "-GRP", "\\server\\share\\a.mkv", "\xff\xfe", "R", "Round"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p := parse(name, tables)
		if p.sep > len(p.words) || p.sep == 0 {
			t.Errorf("%q: separator at %d of %d words", name, p.sep, len(p.words))
		}
	})
}
