package tierlimit

import "testing"

func TestParseLimits(t *testing.T) {
	got, err := ParseLimits("premium:500, business:1000")
	if err != nil || got["free"] != 30 || got["premium"] != 500 || got["business"] != 1000 {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"premium", "gold:10", "free:0", "free:x"} {
		if _, err := ParseLimits(bad); err == nil {
			t.Errorf("ParseLimits(%q) accepted", bad)
		}
	}
}

func TestParseOpenStreams(t *testing.T) {
	got, err := ParseOpenStreams("premium:7")
	if err != nil || got["premium"] != 7 || got["business"] == 0 {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := ParseOpenStreams("free:3"); err == nil {
		t.Error("a free tier's streams accepted")
	}
}
