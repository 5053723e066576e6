package bot

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
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

// fixedModels is a ModelStore holding one model for every (bot, opponent).
type fixedModels []byte

func (m fixedModels) LoadModel(context.Context, string, string) ([]byte, error) { return m, nil }
func (fixedModels) SaveModel(context.Context, string, string, []byte) error     { return nil }

// A Bayesian bot's model with more folds than bets faced, or negative counts
// (a damaged or crafted state file), is replaced by a fresh one: its ratios
// stay probabilities.
func TestBayesModelValidated(t *testing.T) {
	for _, m := range []string{
		`{"hands":100,"faced":[10,10,10,10],"folded":[50,0,0,0]}`,
		`{"hands":100,"faced":[-4,0,0,0],"folded":[0,0,0,0]}`,
		`{"hands":100,"acted":[1,1,1,1],"raised":[-9,0,0,0]}`,
	} {
		b, err := New("bayes", Options{Models: fixedModels(m)})
		if err != nil {
			t.Fatal(err)
		}
		om := b.(*bayesBot).Model("x")
		for s := range engine.Street(numStreets) {
			if f, r := om.FoldRatio(s), om.RaiseRatio(s); !(f >= 0 && f <= 1 && r >= 0 && r <= 1) {
				t.Errorf("model %s: street %d fold ratio %v, raise ratio %v", m, s, f, r)
			}
		}
	}
}

// A weights file of more than MaxHidden units is refused.
func TestNetHiddenBounded(t *testing.T) {
	n := RandomNet(rand.New(rand.NewPCG(1, 2)), MaxHidden+1)
	data, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseNet(data); err == nil {
		t.Errorf("a network of %d hidden units was accepted", MaxHidden+1)
	}
}

// FuzzModelFiles reads anything as each file a bot reads: neural weights, an
// adaptive bot's state and a Bayesian bot's opponent model. Nothing panics; a
// network accepted gives an output in [0, 1] and an adaptive state accepted a
// threshold in its range; a Bayesian model read gives probabilities.
func FuzzModelFiles(f *testing.F) {
	f.Add(defaultNetJSON)
	f.Add([]byte(`{"raise_threshold":1.5}`))
	f.Add([]byte(`{"hands":100,"faced":[10,10,10,10],"folded":[5,0,0,0],"acted":[3,3,3,3],"raised":[1,1,1,1]}`))
	var in [NumInputs]float64
	for k := range in {
		in[k] = 1
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if n, err := ParseNet(data); err == nil {
			if o := n.Output(&in); !(o >= 0 && o <= 1) {
				t.Fatalf("network output %v", o)
			}
		}
		if b, err := New("adaptive", Options{Models: fixedModels(data)}); err == nil {
			st := b.(*adaptiveBot).State()
			if !(st.RaiseThreshold >= adaptiveMin && st.RaiseThreshold <= adaptiveMax) {
				t.Fatalf("adaptive threshold %v", st.RaiseThreshold)
			}
		}
		b, err := New("bayes", Options{Models: fixedModels(data)})
		if err != nil {
			t.Fatal(err)
		}
		om := b.(*bayesBot).Model("x")
		for s := range engine.Street(numStreets) {
			if f, r := om.FoldRatio(s), om.RaiseRatio(s); !(f >= 0 && f <= 1 && r >= 0 && r <= 1) {
				t.Fatalf("model %s: street %d fold ratio %v, raise ratio %v", data, s, f, r)
			}
		}
	})
}
