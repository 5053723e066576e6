package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// The bots that state their strategy state the action Act takes, with
// certainty, wherever they answer; the chart players answer before the flop and
// decline after it (their equity is simulated there), so felt lbr samples them.
func TestStrategistsMatchAct(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"fold", "call", "raise", "maniac", "chart", "tag"} {
		b, err := New(name, Options{Rand: r})
		if err != nil {
			t.Fatal(err)
		}
		st := b.(Strategist)
		var out []ActionProb
		preflop, postflop := 0, 0
		for seed := range uint64(200) {
			h, err := engine.New(engine.Config{Stacks: []int64{20000, 20000}, SmallBlind: 50, BigBlind: 100,
				Seed: cards.SeedFromUint64(seed)})
			if err != nil {
				t.Fatal(err)
			}
			for h.ToAct() != engine.NoSeat {
				v := h.View(h.ToAct())
				var ok bool
				out, ok = st.Strategy(&v, out)
				a := b.Act(&v)
				switch {
				case ok && (len(out) != 1 || out[0].Prob != 1 || out[0].Action != a):
					t.Fatalf("%s: Strategy %v, Act %v", name, out, a)
				case !ok && (name != "chart" && name != "tag" || v.Street == engine.Preflop):
					t.Fatalf("%s declines on the %v", name, v.Street)
				case ok && v.Street == engine.Preflop:
					preflop++
				case ok:
					postflop++
				}
				if err := h.Apply(engine.RandomAction(r, v.Legal)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if preflop == 0 || (postflop == 0) != (name == "chart" || name == "tag") {
			t.Errorf("%s answered %d times before the flop, %d after", name, preflop, postflop)
		}
	}
}
