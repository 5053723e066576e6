package bot

import (
	"errors"
	"strings"
	"testing"
)

// FuzzBotName feeds New's option strings to the checks a house runs on a name
// from the network. No check panics; a name CheckUntrusted accepts names no file
// and New makes its bot without touching one; every refusal wraps ErrBadOption or
// ErrUnknownBot and repeats no file option's value.
func FuzzBotName(f *testing.F) {
	for _, s := range []string{"chart", "montecarlo:samples=200,bluff=false", "montecarlo:samples=2000",
		"resolve:budget=1s,safe=false,blueprint=true,flop=true", "bayes:draws=false,update=true,thresholds=tight",
		"neural:weights=/etc/passwd", "adaptive:state=x.json", "cfr:strategy=s.json", "montecarlo:samples=-1",
		"montecarlo:samples=99999999999999999999", "resolve:budget=-1s", "resolve:budget=9223372036854775807ns",
		"montecarlo:samples=1,samples=2", "chart:", "chart:,", "fold:=", "hsppot:bluff=NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		_ = Check(name)
		_ = CheckGame(name, headsUpLimit)
		err := CheckUntrusted(name)
		_, params, perr := parseName(name)
		if err != nil {
			if !errors.Is(err, ErrBadOption) && !errors.Is(err, ErrUnknownBot) {
				t.Fatalf("CheckUntrusted(%q) = %v: neither a bad option nor an unknown bot", name, err)
			}
			for _, p := range params {
				if p.file() && len(p.value) > 2 && strings.Contains(err.Error(), p.value) {
					t.Fatalf("CheckUntrusted(%q) repeats the file %q: %v", name, p.value, err)
				}
			}
			return
		}
		if perr != nil {
			t.Fatalf("CheckUntrusted(%q) accepted a name parseName refuses: %v", name, perr)
		}
		for _, p := range params {
			if p.file() {
				t.Fatalf("CheckUntrusted(%q) accepted the file option %s", name, p.key)
			}
		}
		if _, err := New(name, Options{Game: headsUpLimit}); err != nil {
			t.Fatalf("New(%q) refused a name CheckUntrusted accepted: %v", name, err)
		}
	})
}
