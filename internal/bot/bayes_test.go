package bot

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// TestHandBuckets places hands in seed 001's 25 hand-type buckets.
func TestHandBuckets(t *testing.T) {
	for _, c := range []struct {
		hole, board string
		want        int
	}{
		{"7h2c", "Ks9d5c", bkHighNone},
		{"Ah2c", "Ks9d5c", bkHighOne},
		{"AhQc", "Js9d5c", bkHighTwo},
		{"3h3c", "Ks9d5c", bkUnderPair},
		{"5h2c", "Ks9d5c", bkBottomPair},
		{"9h2c", "Ks9d5c", bkMiddlePair},
		{"Kh7c", "Ks9d5c", bkTopPairWeak},
		{"KhJc", "Ks9d5c", bkTopPairGood},
		{"KhAc", "Ks9d5c", bkTopPairTop},
		{"JhJc", "Ts9d5c", bkOverPair},
		{"AhAc", "Ks9d5c", bkOverPairBig},
		{"Kh2c", "Ks9d9c", bkTwoPairOne},
		{"9h5h", "Ks9d5c", bkTwoPairBoth},
		{"Kh9c", "Ks9d5c", bkTwoPairTop},
		{"Kh2c", "KsKd5c", bkTrips},
		{"5h5d", "Ks9d5c", bkSet},
		{"8h2c", "7s6d5c4h", bkStraightOne},
		{"8h7c", "6s5d4c", bkStraightBoth},
		{"9h2h", "Kh7h5h", bkFlushLow},
		{"Qh2h", "Kh7h5h", bkFlushHigh},
		{"Ah2h", "Kh7h5h", bkFlushNut},
		{"Kh2c", "KsKd5c5h", bkBoatOne},
		{"Kh5d", "KsKd5c", bkBoatBoth},
		{"KhKc", "KsKd5c", bkQuads},
		{"9h8h", "7h6h5h", bkStraightFlush},
		{"2h3c", "AsKsQsJsTs", bkHighNone}, // the board plays
		{"Ah3c", "5s5d5c", bkHighOne},      // the board's trips play
	} {
		if got := handBucketOf(cards.MustParseList(c.hole)[0], cards.MustParseList(c.hole)[1], cards.MustParseList(c.board)); got != c.want {
			t.Errorf("%s on %s: bucket %d, want %d", c.hole, c.board, got, c.want)
		}
	}
}

// TestBayesData: the measured beliefs grow with the hand types that matter (a
// set beats top pair beats high card on every street) and the EV ranks put aces
// on top and seven-deuce offsuit at the bottom.
func TestBayesData(t *testing.T) {
	d := bayesData()
	for k := range 3 {
		w := d.win[k]
		if !(w[bkHighNone] < w[bkTopPairGood] && w[bkTopPairGood] < w[bkSet] && w[bkSet] < w[bkQuads]+0.02 && w[bkQuads] > 0.95) {
			t.Errorf("board of %d: beliefs %.2f", k+3, w)
		}
	}
	aa, kk, aks, j7, w72 := evRank(cards.MustParse("Ah"), cards.MustParse("As")), evRank(cards.MustParse("Kh"), cards.MustParse("Ks")),
		evRank(cards.MustParse("Ah"), cards.MustParse("Kh")), evRank(cards.MustParse("Jh"), cards.MustParse("7c")), evRank(cards.MustParse("7h"), cards.MustParse("2c"))
	if !(aa > kk && kk > aks && aks > j7 && j7 > w72 && aa > 0.99 && w72 < 0.05) {
		t.Errorf("EV ranks: AA %.3f KK %.3f AKs %.3f J7o %.3f 72o %.3f", aa, kk, aks, j7, w72)
	}
}

// TestBayesStatesItsStrategy: in Hold'em the Bayesian bot states probabilities
// that sum to 1 and hold every action Act takes, and Act's frequencies follow
// them; in stud it declines.
func TestBayesStatesItsStrategy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b, _ := New("bayes", Options{Rand: r})
	st := b.(Strategist)
	var out []ActionProb
	for seed := range uint64(100) {
		h, err := engine.New(engine.Config{Stacks: []int64{20000, 20000}, SmallBlind: 50, BigBlind: 100, Seed: cards.SeedFromUint64(seed)})
		if err != nil {
			t.Fatal(err)
		}
		for h.ToAct() != engine.NoSeat {
			v := h.View(h.ToAct())
			var ok bool
			if out, ok = st.Strategy(&v, out); !ok {
				t.Fatalf("declines on the %v", v.Street)
			}
			sum, counts := 0.0, map[engine.Action]int{}
			for _, p := range out {
				sum += p.Prob
			}
			const n = 300
			for range n {
				counts[b.Act(&v)]++
			}
			for a, k := range counts {
				p := -1.0
				for _, q := range out {
					if q.Action == a {
						p = q.Prob
					}
				}
				if p < 0 || math.Abs(float64(k)/n-p) > 4*math.Sqrt(p*(1-p)/n)+0.01 {
					t.Fatalf("Act took %v %d times in %d; Strategy %v", a, k, n, out)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("probabilities sum to %v: %v", sum, out)
			}
			if err := h.Apply(engine.RandomAction(r, v.Legal)); err != nil {
				t.Fatal(err)
			}
		}
	}
	h := studHand(t, "AsKd2h3c4s5d6h7c8s9d")
	v := h.View(h.ToAct())
	if _, ok := st.Strategy(&v, out); ok {
		t.Error("states a strategy in stud, where its belief is simulated")
	}
}

// TestBayesBeliefUpdating: top pair facing a bet and a raise believes far less
// against a tight opponent (who raises rarely and folds often) than against a
// maniac, and not at all less with update=false.
func TestBayesBeliefUpdating(t *testing.T) {
	belief := func(name string, raiseRatio float64) float64 {
		h := headsUp(t, "7h7c", "KhJc", "Ks9d5c4h2s")
		play(t, h, "c", "k", "r4", "r12") // seat 1 (me) bets the flop, seat 0 raises
		b, _ := New(name, Options{})
		by := b.(*bayesBot)
		by.SeatNames([]string{"villain", "me"})
		m := by.Model("villain")
		m.Hands = 1000
		m.Acted[engine.Preflop], m.Raised[engine.Preflop] = 1000, int64(raiseRatio*1000)
		m.Acted[engine.Flop], m.Raised[engine.Flop] = 1000, int64(raiseRatio*1000)
		v := h.View(1)
		return by.holdemBelief(&v, v.Seats[1].Cards[0], v.Seats[1].Cards[1], 1, cards.SetOf(v.Board...))
	}
	tight, maniac, off := belief("bayes", 0.1), belief("bayes", 0.95), belief("bayes:update=false", 0.1)
	t.Logf("top pair raised: against a tight opponent %.3f, a maniac %.3f; without updating %.3f", tight, maniac, off)
	if !(tight < maniac-0.3 && maniac < off && off > 0.8) {
		t.Errorf("beliefs: tight %.3f, maniac %.3f, without updating %.3f", tight, maniac, off)
	}
}

// TestBayesOptions: the experiments' switches parse, bad ones are refused.
func TestBayesOptions(t *testing.T) {
	b, err := New("bayes:draws=false,update=false,thresholds=tight", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if by := b.(*bayesBot); by.draws || by.update || by.th != bayesThresholdSets["tight"] {
		t.Errorf("options not applied: draws %v, update %v", by.draws, by.update)
	}
	for _, name := range []string{"bayes:thresholds=wild", "bayes:draws=maybe", "bayes:update="} {
		if _, err := New(name, Options{}); !errors.Is(err, ErrBadOption) {
			t.Errorf("%s: %v, want ErrBadOption", name, err)
		}
	}
}

// TestBayesFoldsToAnAllInWithoutAStrongHand: facing an all-in before the flop the
// Bayesian bot folds below its AllIn EV rank, however its rules would play the
// hand against a small raise (king-jack suited raises or calls a raise of three
// big blinds).
func TestBayesFoldsToAnAllInWithoutAStrongHand(t *testing.T) {
	for _, c := range []struct {
		raise string
		fold  bool
	}{{"r6", false}, {"r200", true}} {
		h := headsUp(t, "7h7c", "KsJs", "2c3d8hTsQd")
		play(t, h, c.raise)
		b, _ := New("bayes", Options{})
		v := h.View(1)
		probs, _ := b.(Strategist).Strategy(&v, nil)
		folds := len(probs) == 1 && probs[0].Action.Kind == engine.Fold
		if folds != c.fold {
			t.Errorf("KJs facing %s: %v", c.raise, probs)
		}
	}
}
