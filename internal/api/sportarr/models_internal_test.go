package sportarr

import "testing"

// Heights and weights as TheSportsDB writes them become the numbers Sportarr's Player model
// reads (whole centimetres, kilograms); text that holds none is null.
func TestMeasures(t *testing.T) {
	for s, want := range map[string]float64{
		"1.85 m (6 ft 1 in)": 185, "1,78 m": 178, "186 cm": 186, "6 ft 1 in": 185, `6'1"`: 185, "191": 191,
	} {
		if got, ok := centimetres(s); !ok || got != want {
			t.Errorf("height %q: %v %v, want %v", s, got, ok, want)
		}
	}
	for s, want := range map[string]float64{"80 kg": 80, "72.5 kg (160 lbs)": 72.5, "176 lbs": 79.8, "176lb": 79.8} {
		if got, ok := kilograms(s); !ok || got != want {
			t.Errorf("weight %q: %v %v, want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "tall", "0000-00-00", "12"} {
		if v, ok := centimetres(s); ok {
			t.Errorf("height %q: %v, want none", s, v)
		}
		if v, ok := kilograms(s); ok {
			t.Errorf("weight %q: %v, want none", s, v)
		}
	}
}
