package bot

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/felt-poker/felt/internal/engine"
)

// classPlan is what a player does with each starting-hand class at one decision:
// the actions and each class's chance of each.
type classPlan struct {
	acts  []engine.Action
	probs [numClasses][]float64
}

// classPlanOf reads p by class (every hand of a class shares its plan before the
// flop; the first hand of each class stands for it).
func classPlanOf(p *plan) classPlan {
	cp := classPlan{acts: p.acts}
	for x := range comboCards {
		if c := classOfCombo[x]; cp.probs[c] == nil {
			cp.probs[c] = p.probs[x]
		}
	}
	return cp
}

// botPlanAfter returns the plan of b, the small blind (seat 0) of a hand of stack
// chips each (blinds 50/100), after the actions of line.
func botPlanAfter(t *testing.T, b *resolveBot, stack int64, line ...string) classPlan {
	t.Helper()
	return botPlanIn(t, b, 0, stack, line...)
}

// botPlanIn returns the plan of b in seat (0 the small blind) of a hand of stack
// chips each (blinds 50/100), after the actions of line.
func botPlanIn(t *testing.T, b *resolveBot, seat int, stack int64, line ...string) classPlan {
	t.Helper()
	h := dealt(t, "4c5c", "2c3d", "Kd7s2hTc3c", engine.Config{Stacks: []int64{stack, stack}, SmallBlind: 50, BigBlind: 100})
	play(t, h, line...)
	if h.ToAct() != seat {
		t.Fatalf("%v: seat %d to act, not the bot's", line, h.ToAct())
	}
	v := h.View(seat)
	hist, ok := readHistory(&v)
	if !ok {
		t.Fatal("no history")
	}
	p := b.planAt(context.Background(), &hist)
	if p == nil || len(p.probs) == 0 {
		t.Fatalf("%v: no plan", line)
	}
	return classPlanOf(p)
}

// openerValue returns what the small blind wins, in big blinds a hand, first in
// at stack big blinds each when it opens by open and, facing an all-in over its
// limp or raise a, calls by answer[a]'s plan (fold and call), against a big blind
// who answers each of its opens with each class by the best of: fold (to a
// raise), check or call and see a showdown with no more betting, move all-in.
// The big blind's choice is restricted (no raise short of all-in, no betting
// after the flop), so for a small blind whose answers are its own this is an
// upper bound on what it wins against a best response; for a push-or-fold small
// blind, whose opponent may only call or fold, it is exact. Equities are class
// against class (preflopTable), card removal between the hands left out.
func openerValue(open classPlan, answer map[int]classPlan, stack float64) float64 {
	eq := &preflopOnce().eq
	total := float64(numCombos)
	v := 0.0
	for a, act := range open.acts {
		var w [numClasses]float64
		for i := range numClasses {
			w[i] = classCombos[i] * open.probs[i][a]
		}
		if act.Kind == engine.Fold {
			for i := range numClasses {
				v -= 0.5 * w[i] * total
			}
			continue
		}
		r := 1.0 // the small blind's bet after a
		if act.Kind == engine.Raise {
			r = min(float64(act.Amount)/100, stack)
		}
		// showdown is the small blind's net with class i against class j when
		// each has put in x.
		showdown := func(i, j int, x float64) float64 { return x * (2*float64(eq[i][j]) - 1) }
		for j := range numClasses {
			var call, fold, shove float64
			for i := range numClasses {
				if w[i] == 0 {
					continue
				}
				call += w[i] * showdown(i, j, r)
				fold += w[i]
				if r < stack {
					c := answerCall(answer[a], i)
					shove += w[i] * (c*showdown(i, j, stack) - (1-c)*r)
				}
			}
			best := call
			if act.Kind == engine.Raise {
				best = min(best, fold)
			}
			if r < stack {
				best = min(best, shove)
			}
			v += classCombos[j] * best
		}
	}
	return v / (total * total)
}

// answerCall returns class i's chance of calling in plan a (fold or call).
func answerCall(a classPlan, i int) float64 {
	for k, act := range a.acts {
		if act.Kind == engine.Call {
			return a.probs[i][k]
		}
	}
	return 0
}

// botOpenerValue returns openerValue for b's own small blind at stack big blinds.
func botOpenerValue(t *testing.T, b *resolveBot, stack int) (float64, classPlan) {
	t.Helper()
	chips := int64(stack) * 100
	open := botPlanAfter(t, b, chips)
	answer := map[int]classPlan{}
	for a, act := range open.acts {
		if act.Kind == engine.Fold || act.Kind == engine.Raise && act.Amount >= chips {
			continue
		}
		line := []string{"c"}
		if act.Kind == engine.Raise {
			line = []string{fmt.Sprintf("r%d", act.Amount)}
		}
		answer[a] = botPlanAfter(t, b, chips, append(line, fmt.Sprintf("r%d", chips))...)
	}
	return openerValue(open, answer, float64(stack)), open
}

// pushFoldValue returns openerValue for the push-or-fold equilibrium's small
// blind at stack big blinds.
func pushFoldValue(stack float64) float64 {
	e := shoveEquilibrium(preflopOnce(), shoveSpot{before: 0.5 / stack, mine: 1 / stack})
	open := classPlan{acts: []engine.Action{{Kind: engine.Fold}, {Kind: engine.Raise, Amount: int64(stack * 100)}}}
	for i := range numClasses {
		open.probs[i] = []float64{1 - e.bet[i], e.bet[i]}
	}
	return openerValue(open, nil, stack)
}

// TestResolveShortOpenerReport prints, at stacks from 3 to 25 big blinds, what
// the bot's small blind first in wins against the big blind's best answers
// (openerValue) as it plays (FELT_SHORT=old: the blueprint's opens, as before
// push-or-fold) beside the push-or-fold equilibrium: FELT_SHORT=1 go test
// ./internal/bot -run ShortOpenerReport -v.
func TestResolveShortOpenerReport(t *testing.T) {
	which := os.Getenv("FELT_SHORT")
	if which == "" {
		t.Skip("set FELT_SHORT=1, or old")
	}
	if which == "old" {
		defer func(x float64) { pushFoldBB = x }(pushFoldBB)
		pushFoldBB = 0
	}
	for _, s := range []int{3, 4, 5, 6, 8, 10, 12, 13, 14, 15, 17, 20, 25} {
		b := newTestResolve(t, 1)
		v, open := botOpenerValue(t, b, s)
		var share []string
		for a, act := range open.acts {
			x := 0.0
			for i := range numClasses {
				x += classCombos[i] * open.probs[i][a] / numCombos
			}
			share = append(share, fmt.Sprintf("%v %.2f", act, x))
		}
		t.Logf("%3d bb: bot %+.4f bb/hand, push-or-fold %+.4f (%s)", s, v, pushFoldValue(float64(s)), strings.Join(share, ", "))
	}
}

// TestResolveShortStackPushesOrFolds: first in as the small blind at 3 to 15 big
// blinds, the bot moves all-in or folds as the push-or-fold equilibrium of the
// real chips does, and a big blind who answers its opens as well as he can
// (openerValue: fold, call, or move all-in over a limp or raise) wins no more
// than against that equilibrium. The old bot played the 20-big-blind depth's
// opens there (a limp 0.35, a raise to 2 or 2.5 big blinds 0.40): at 5 big blinds
// the big blind who moved all-in over them won 0.16 big blinds a hand, where the
// equilibrium gives up none (it wins 0.05). At 20 big blinds the blueprint opens.
func TestResolveShortStackPushesOrFolds(t *testing.T) {
	for _, s := range []int{3, 5, 10, 15} {
		v, open := botOpenerValue(t, newTestResolve(t, 1), s)
		if want := pushFoldValue(float64(s)); v < want-1e-9 {
			t.Errorf("%d bb: the small blind wins %+.4f bb a hand against the best answers, want %+.4f (push-or-fold)", s, v, want)
		}
		for a, act := range open.acts {
			if act.Kind != engine.Fold && !(act.Kind == engine.Raise && act.Amount >= int64(s)*100) {
				t.Errorf("%d bb: opens with %v (%.2f of AA's plan), want all-in or fold", s, act, open.probs[0][a])
			}
		}
	}
	_, open := botOpenerValue(t, newTestResolve(t, 1), 20)
	if len(open.acts) <= 2 {
		t.Errorf("20 bb: %v, want the blueprint's opens", open.acts)
	}
}
