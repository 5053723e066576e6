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

// maxShoveCache bounds the equilibria kept (1.4 KB each); they are dropped all at
// once past it.
const maxShoveCache = 256

var shoveCache struct {
	sync.Mutex
	m map[shoveKey]*[numClasses]float64
}

// shoveCalls returns, for each starting-hand class, its chance of calling in the
// equilibrium of the push-or-fold game of sp: the bettor bets with any class or
// folds, the caller calls or folds, called hands are dealt out (the class-against-
// class equities of t, card removal between the two hands left out). No bettor
// can win more from a caller that calls at least this often, whatever he bets
// with: it is the least defence of the spot, whatever the bot's model says.
func shoveCalls(t *preflopTable, sp shoveSpot) *[numClasses]float64 {
	k := sp.key()
	shoveCache.Lock()
	c, ok := shoveCache.m[k]
	shoveCache.Unlock()
	if ok {
		return c
	}
	c, _ = solveShove(t, sp, shoveIterations)
	shoveCache.Lock()
	if shoveCache.m == nil || len(shoveCache.m) >= maxShoveCache {
		shoveCache.m = map[shoveKey]*[numClasses]float64{}
	}
	shoveCache.m[k] = c
	shoveCache.Unlock()
	return c
}

// classCombos is the number of two-card hands in each class (6, 4 or 12).
var classCombos = func() (n [numClasses]float64) {
	for _, c := range classOfCombo {
		n[c]++
	}
	return n
}()

// solveShove runs n iterations of CFR+ (alternating updates, linear averaging)
// on the push-or-fold game of sp and returns the caller's and the bettor's
// average strategies (the chance of calling, of betting, by class).
func solveShove(t *preflopTable, sp shoveSpot, n int) (call, bet *[numClasses]float64) {
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
	for i := range classCombos {
		total += classCombos[i]
	}
	for it := 1; it <= n; it++ {
		strategy(&rb, &sb)
		for j := range numClasses { // the caller, against the bettor's range
			vCall, vFold := 0.0, 0.0
			for i := range numClasses {
				w := classCombos[i] * sb[i]
				vCall += w * (1 - 2*float64(t.eq[i][j]))
				vFold -= w * sp.mine
			}
			regret(&rc[j], sc[j], vFold, vCall)
		}
		strategy(&rc, &sc)
		for i := range numClasses { // the bettor, against the caller's range
			vBet := 0.0
			for j := range numClasses {
				vBet += classCombos[j] * (sc[j]*(2*float64(t.eq[i][j])-1) + (1-sc[j])*sp.mine)
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
// become calls, never the other way; it changes p in place.
func defendShove(p *plan, h *pubHistory, i, k, me int) {
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
	for x, q := range p.probs {
		want := calls[classOfCombo[x]]
		if q == nil || q[call] >= want || q[fold] <= 0 {
			continue
		}
		q = slices.Clone(q)
		move := min(q[fold], want-q[call])
		q[fold] -= move
		q[call] += move
		p.probs[x] = q
	}
}
