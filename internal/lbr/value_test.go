package lbr

import "testing"

// The values break even where the pot odds say, and a bet that always takes the
// pot is worth the pot.
func TestValues(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		// Calling 100 into 300 (the bet included) needs a quarter of the 400 at the end.
		{"call at the pot odds", CallValue(0.25, 300, 100), 0},
		{"call with the nuts", CallValue(1, 300, 100), 300},
		{"check", CallValue(0.5, 200, 0), 100},
		{"bet that always takes the pot", BetValue(1, 0, 150, 100, 100), 150},
		// A pot-size bet called: 50% of 600 for the 200 put in.
		{"pot bet always called", BetValue(0, 0.5, 200, 200, 200), 100},
		// The paper's form with nothing to call: fp·pot + (1−fp)(wp·(pot+bet) − (1−wp)·bet).
		{"paper's bet", BetValue(0.3, 0.4, 200, 100, 100), 0.3*200 + 0.7*(0.4*300-0.6*100)},
		// Raising 100 to 400 (adding 400, the bot's call adding 300).
		{"raise", BetValue(0.5, 0.6, 300, 400, 300), 0.5*300 + 0.5*(0.6*1000-400)},
	} {
		if d := c.got - c.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}
