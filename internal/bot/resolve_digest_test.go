package bot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
)

// strategyDigest plays a 100-big-blind hand (blinds 50/100) in which the bot, in
// seat 0, takes its likeliest action by Strategy at every decision, and seat 1
// plays script's actions in turn (then checks or calls); it writes into d every
// plan and belief the bot made, each probability rounded to 1e-6 (so
// that a machine that fuses multiply-adds gives the same digest).
func strategyDigest(t *testing.T, d hash.Hash, name, hole0, hole1, board string, script ...string) {
	t.Helper()
	x, err := New(name, Options{Rand: rand.New(rand.NewPCG(1, 3))})
	if err != nil {
		t.Fatal(err)
	}
	b := x.(*resolveBot)
	h := dealt(t, hole0, hole1, board, engine.Config{Stacks: []int64{10000, 10000}, SmallBlind: 50, BigBlind: 100})
	for h.ToAct() != engine.NoSeat {
		v := h.View(h.ToAct())
		if h.ToAct() == 1 {
			if len(script) == 0 {
				script = []string{"c"}
				if v.Legal.Can(engine.Check) {
					script = []string{"k"}
				}
			}
			play(t, h, script[0])
			script = script[1:]
			continue
		}
		probs, ok := b.Strategy(&v, nil)
		if !ok || len(probs) == 0 {
			t.Fatalf("%s: no strategy", name)
		}
		best := probs[0]
		for _, p := range probs {
			fmt.Fprintf(d, "%v %.6f;", p.Action, p.Prob)
			if p.Prob > best.Prob {
				best = p
			}
		}
		best.Action.Seat = 0
		if err := h.Apply(best.Action); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b.cache)) {
		p := b.cache[k]
		fmt.Fprintf(d, "plan %q %v\n", k, p.acts)
		for _, x := range slices.Sorted(maps.Keys(p.probs)) {
			fmt.Fprintf(d, "%d", x)
			for _, q := range p.probs[x] {
				fmt.Fprintf(d, " %.6f", q)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b.starts)) {
		fmt.Fprintf(d, "start %q", k)
		for r := range b.starts[k] {
			for _, w := range b.starts[k][r] {
				fmt.Fprintf(d, " %.6f", w)
			}
		}
	}
}

// TestResolveStrategyUnchanged: Strategy, which has no deadline, gives the same
// plans and beliefs as before the solver could stop inside an iteration (the
// digest was taken on the code before that change): on a turn and river line with
// the opponent's off-tree bets, and with flop re-solving on equity leaves
// (leaf=equity: the leaves flop=true had when the digest was taken). The digest
// was taken again when a round's start came to be named with its board (the
// beliefs' keys end with the round's new cards): with those keys cut back to
// what they were, this code gives the old digest, adfac497…. And again when
// defend came to hold the river's re-solves to the minimum defence: on the
// second line the river's plan facing a bet folded 0.577 of the bot's range,
// where 0.556 may (plus defendSlack); nothing else changed (43e3aa1a… before).
func TestResolveStrategyUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("several re-solves")
	}
	d := sha256.New()
	strategyDigest(t, d, "resolve:budget=50ms", "TcQh", "8s8c", "KdJs9h7d2c")
	strategyDigest(t, d, "resolve:budget=50ms", "AhQd", "8s8c", "Kd7s2hTc3d", "c", "k", "r170", "r1300")
	strategyDigest(t, d, "resolve:budget=50ms,flop=true,leaf=equity", "AhQd", "8s8c", "Kd7s2hTc3d", "c", "r185")
	const want = "78ce0e2ae7f4fb92e856777d5c076837534785eac937e939a94339fc88fd0fbc"
	if got := hex.EncodeToString(d.Sum(nil)); got != want {
		t.Errorf("digest %s, want %s", got, want)
	}
}
