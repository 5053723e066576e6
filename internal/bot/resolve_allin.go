package bot

import (
	"math"
	"slices"
	"sync"

	"github.com/felt-poker/felt/internal/engine"
)

// shoveSpot is a bet before the flop that leaves the bot only to fold or call, in
// units of the bet: the bettor had put in before (what he gives up by folding
// instead), the bot has put in mine (what it gives up by folding), and calling
// makes both bets one (called hands go to showdown).
type shoveSpot struct {
	before, mine float64
}

// shoveKey rounds a spot to thousandths of the bet, the key of the cache.
type shoveKey [2]int32

func (s shoveSpot) key() shoveKey {
	return shoveKey{int32(math.Round(s.before * 1000)), int32(math.Round(s.mine * 1000))}
}

// shoveIterations is the CFR+ iterations of a push-or-fold equilibrium (a game of
// 169 starting-hand classes a side, about 10 ms of CPU): its exploitability is
// then about a ten-thousandth of the bet (TestShoveEquilibrium).
const shoveIterations = 100

// maxShoveCache bounds the equilibria kept (2.7 KB each); they are dropped all at
// once past it.
const maxShoveCache = 256

// shoveEq is a push-or-fold equilibrium: each starting-hand class's chance of
// calling (the caller) and of betting (the bettor).
type shoveEq struct {
	call, bet *[numClasses]float64
}

var shoveCache struct {
	sync.Mutex
	m map[shoveKey]shoveEq
}

// shoveEquilibrium returns the equilibrium of the push-or-fold game of sp: the
// bettor bets with any class or folds, the caller calls or folds, called hands are
// dealt out (the class-against-class equities of t, card removal between the two
// hands left out). Its calls are the least defence of the spot: no bettor can win
// more from a caller that calls at least this often, whatever he bets with. Its
// bets are the most a bettor who may only bet all-in or fold can make against any
// caller. Equilibria are cached by the spot's proportions.
func shoveEquilibrium(t *preflopTable, sp shoveSpot) shoveEq {
	k := sp.key()
	shoveCache.Lock()
	e, ok := shoveCache.m[k]
	shoveCache.Unlock()
	if ok {
		return e
	}
	e.call, e.bet = solveShove(t, sp, shoveIterations)
	shoveCache.Lock()
	if shoveCache.m == nil || len(shoveCache.m) >= maxShoveCache {
		shoveCache.m = map[shoveKey]shoveEq{}
	}
	shoveCache.m[k] = e
	shoveCache.Unlock()
	return e
}

// shoveCalls returns, for each starting-hand class, its chance of calling in the
// equilibrium of the push-or-fold game of sp (shoveEquilibrium): whatever the
// bot's model says, the least defence of the spot.
func shoveCalls(t *preflopTable, sp shoveSpot) *[numClasses]float64 {
	return shoveEquilibrium(t, sp).call
}

// classCombos is the number of two-card hands in each class (6, 4 or 12).
var classCombos = func() (n [numClasses]float64) {
	for _, c := range classOfCombo {
		n[c]++
	}
	return n
}()

// solveShove runs n iterations of CFR+ (alternating updates, linear averaging)
// on the push-or-fold game of sp, every hand dealt to each side alike, and
// returns the caller's and the bettor's average strategies (the chance of
// calling, of betting, by class).
func solveShove(t *preflopTable, sp shoveSpot, n int) (call, bet *[numClasses]float64) {
	return solveShoveRanges(t, sp, &classCombos, &classCombos, n)
}

// solveShoveRanges is solveShove with the bettor's hands of each class weighted
// by wBet and the caller's by wCall (a class's number of hands times its weight
// in a range).
func solveShoveRanges(t *preflopTable, sp shoveSpot, wBet, wCall *[numClasses]float64, n int) (call, bet *[numClasses]float64) {
	var rb, rc [numClasses][2]float64 // regrets: fold, bet (or call)
	var sb, sc [numClasses]float64    // current strategies
	call, bet = new([numClasses]float64), new([numClasses]float64)
	strategy := func(r *[numClasses][2]float64, s *[numClasses]float64) {
		for i := range r {
			if sum := r[i][0] + r[i][1]; sum > 0 {
				s[i] = r[i][1] / sum
			} else {
				s[i] = 0.5
			}
		}
	}
	regret := func(r *[2]float64, s, vFold, vAct float64) {
		u := s*vAct + (1-s)*vFold
		r[0] = max(0, r[0]+vFold-u)
		r[1] = max(0, r[1]+vAct-u)
	}
	total := 0.0
	for i := range wCall {
		total += wCall[i]
	}
	for it := 1; it <= n; it++ {
		strategy(&rb, &sb)
		for j := range numClasses { // the caller, against the bettor's range
			vCall, vFold := 0.0, 0.0
			for i := range numClasses {
				w := wBet[i] * sb[i]
				vCall += w * (1 - 2*float64(t.eq[i][j]))
				vFold -= w * sp.mine
			}
			regret(&rc[j], sc[j], vFold, vCall)
		}
		strategy(&rc, &sc)
		for i := range numClasses { // the bettor, against the caller's range
			vBet := 0.0
			for j := range numClasses {
				vBet += wCall[j] * (sc[j]*(2*float64(t.eq[i][j])-1) + (1-sc[j])*sp.mine)
			}
			regret(&rb[i], sb[i], -sp.before*total, vBet)
		}
		for i := range numClasses {
			call[i] += float64(it) * sc[i]
			bet[i] += float64(it) * sb[i]
		}
	}
	norm := float64(n) * float64(n+1) / 2
	for i := range numClasses {
		call[i] /= norm
		bet[i] /= norm
	}
	return call, bet
}

// defendShove keeps the bot, facing before the flop a bet it may only fold to or
// call (an all-in, or a bet the blueprint's tree maps to its all-in: its plan
// holds no raise), from folding a hand more often than the push-or-fold game of
// the real chips would (shoveCalls): the blueprint's answer to its all-in is made
// for its depth's stack, and a shorter real stack (the 20-big-blind depth plays
// down to one big blind) or a bet short of all-in (an open to 10 big blinds at
// 100 maps to all-in more than half the time) gives a far better price. Folds
// become calls; only facing an open-shove, the push-or-fold game itself, calls
// past the equilibrium's become folds. Facing a raise of at most the pot that
// the tree maps to its all-in, it adds a raise all-in (addShoves). It changes p
// in place; bel holds the beliefs before the bot's action.
func defendShove(p *plan, h *pubHistory, i, k, me int, bel *[2]belief) {
	st := &h.streets[i]
	if st.street != engine.Preflop || k == 0 {
		return
	}
	fold := slices.IndexFunc(p.acts, func(a engine.Action) bool { return a.Kind == engine.Fold })
	call := slices.IndexFunc(p.acts, func(a engine.Action) bool { return a.Kind == engine.Call })
	raises := slices.ContainsFunc(p.acts, func(a engine.Action) bool { return a.Kind == engine.Raise || a.Kind == engine.Bet })
	bet, _ := st.betsBefore(k)
	prev, _ := st.betsBefore(k - 1)
	opp := 1 - me
	if fold < 0 || call < 0 || bet[opp] <= bet[me] || raises && bet[opp] < h.stacks[opp] {
		return
	}
	to := float64(min(bet[opp], h.stacks[me]))
	calls := shoveCalls(preflopOnce(), shoveSpot{before: float64(prev[opp]) / to, mine: float64(bet[me]) / to})
	// An open-shove is the push-or-fold game itself: there the equilibrium's
	// calls are the most the bot calls too (the blueprint called junk at deep
	// stacks, which a shover of strong hands only won from).
	open := k == 1 && bet[opp] >= min(h.stacks[opp], h.stacks[me])
	for x, q := range p.probs {
		if q == nil {
			continue
		}
		switch want := calls[classOfCombo[x]]; {
		case q[call] < want && q[fold] > 0:
			p.probs[x] = foldToCall(q, fold, call, min(q[fold], want-q[call]))
		case open && q[call] > want:
			p.probs[x] = foldToCall(q, fold, call, want-q[call])
		}
	}
	// A raise of at most the pot before it that the tree maps to its all-in (its
	// raises ran out) leaves the stacks deep: raising again is the bot's to take.
	if !raises && bet[opp] < min(h.stacks[opp], h.stacks[me]) && bet[opp]-prev[opp] <= st.potWith(prev) {
		addShoves(p, h, bet, me, call, bel)
	}
}

// addShoves gives plan p a raise all-in where the blueprint's tree holds none
// before the flop though the opponent has chips behind (its all-in node, to which
// a bet short of all-in is mapped: the fifth raise of a min-raise war at 100 big
// blinds, 6 of them, where aces only called). It solves the push-or-fold game
// there (only facing a raise of at most the pot: defendShove), the bot the bettor and the opponent the caller, each with its believed
// range (solveShoveRanges), and each class that bets in it for value (its equity
// against the hands that call is over a half) moves that share of its calls
// all-in. The equilibrium's bluffs stay calls: the opponent's believed range
// keeps every hand (oppFloor), so bluffs would fold out far fewer hands than it
// says where the real range is strong (with them it shoved 0.43 of the bot's
// range over an open to 10 big blinds at 100, which is no raise war: defendShove
// asks for one). bet is each role's bet in the round, call the plan's call.
func addShoves(p *plan, h *pubHistory, bet [2]int64, me, call int, bel *[2]belief) {
	opp := 1 - me
	to := float64(min(h.stacks[0], h.stacks[1]))
	var wMe, wOpp [numClasses]float64
	for x := range comboCards {
		c := classOfCombo[x]
		wMe[c] += bel[me][x]
		wOpp[c] += bel[opp][x]
	}
	t := preflopOnce()
	calls, shove := solveShoveRanges(t, shoveSpot{before: float64(bet[me]) / to, mine: float64(bet[opp]) / to}, &wMe, &wOpp, shoveIterations)
	var value [numClasses]float64
	for i := range numClasses {
		w, e := 0.0, 0.0
		for j := range numClasses {
			w += wOpp[j] * calls[j]
			e += wOpp[j] * calls[j] * float64(t.eq[i][j])
		}
		if w > 0 && e > w/2 {
			value[i] = shove[i]
		}
	}
	p.acts = append(slices.Clip(p.acts), engine.Action{Kind: engine.Raise, Amount: h.stacks[me]})
	for x, q := range p.probs {
		if q == nil {
			continue
		}
		q = append(slices.Clone(q), 0)
		move := min(q[call], value[classOfCombo[x]])
		q[call] -= move
		q[len(q)-1] += move
		p.probs[x] = q
	}
}

// pushFoldBB is the effective stack, in big blinds, at or below which the bot's
// small blind first in plays push-or-fold (pushFoldPlan) rather than the
// blueprint's opens (docs/bots.md, "Short stacks": the measurement that set it).
var pushFoldBB = 15.0

// pushFoldPlan returns the plan of the small blind first in before the flop when
// the effective stack is at most pushFoldBB big blinds: all-in or fold, each
// class by its chance of betting in the equilibrium of the push-or-fold game of
// the real chips (shoveEquilibrium); nil elsewhere. The blueprint's shortest
// depth is 20 big blinds, and its opens (a limp, a raise to 2 or 2.5 big blinds)
// played at 3 to 15 leave the rest of the stack to the big blind's all-in.
func pushFoldPlan(h *pubHistory, i, k, me int) *plan {
	st := &h.streets[i]
	if st.street != engine.Preflop || k != 0 || me != roleSB {
		return nil
	}
	eff := min(h.stacks[0], h.stacks[1])
	bet, _ := st.betsBefore(0)
	if float64(eff) > pushFoldBB*float64(h.bb) || eff <= bet[1-me] || bet[me] >= bet[1-me] {
		return nil
	}
	e := shoveEquilibrium(preflopOnce(), shoveSpot{before: float64(bet[me]) / float64(eff), mine: float64(bet[1-me]) / float64(eff)})
	p := &plan{acts: []engine.Action{{Kind: engine.Fold}, {Kind: engine.Raise, Amount: eff}}, probs: make(map[int][]float64, numCombos)}
	byClass := map[uint8][]float64{}
	for x := range comboCards {
		c := classOfCombo[x]
		q, ok := byClass[c]
		if !ok {
			q = []float64{1 - e.bet[c], e.bet[c]}
			byClass[c] = q
		}
		p.probs[x] = q
	}
	return p
}
