package bot

import (
	"fmt"
	"strings"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/solver"
)

// The bounds of the re-solves a resolve bot keeps for reuse (solveStore): the
// most it keeps, and their memory in all (solver.Solver.Memory); a re-solve
// larger than that is not kept.
const (
	maxStored      = 6
	maxStoredBytes = 192 << 20
)

// solveStore keeps a resolve bot's last full re-solves of the hand it is playing,
// so that a re-solve it would make again is not made again: LBR asks about many
// histories that share a round's start and tree (its bet that it then makes, the
// round ended by a call and walked again for the next round's beliefs, a history
// tried again after the kept solve changed). A re-solve is a function of its
// round's start (the history's key then, which fixes the stacks, the pot, the
// viewer and the board), its tree, the beliefs and the bound it starts from, and its
// iterations (the bot's budget's, all of them: one cut short by a deadline is not
// kept); the solver is deterministic, so a kept solve with all of these equal is
// the one a new re-solve would give, bit for bit, and the bot's answers do not
// change.
type solveStore struct {
	list  []storedSolve // oldest first
	bytes int64
}

// storedSolve is a kept re-solve and what it was made from.
type storedSolve struct {
	start string // the history's key when its round began, its board dealt
	key   string // start, board and tree (solveKey)
	bel   [2]belief
	bound *solver.Bound
	s     *solver.Solver
	bytes int64 // s.Memory()
}

// solveKey names a round's re-solve by its start, board and tree.
func solveKey(start string, board []cards.Card, t *solver.Tree) string {
	return fmt.Sprintf("%s|%v|%v", start, board, *t)
}

// find returns the kept re-solve of key from bel with bound, or nil.
func (st *solveStore) find(key string, bel *[2]belief, bound *solver.Bound) *solver.Solver {
	for i := range st.list {
		e := &st.list[i]
		if e.key == key && e.bound == bound && e.bel == *bel {
			return e.s
		}
	}
	return nil
}

// add keeps e, a full re-solve, dropping the oldest past maxStored or
// maxStoredBytes; one larger than maxStoredBytes is not kept.
func (st *solveStore) add(e storedSolve) {
	if e.bytes > maxStoredBytes {
		return
	}
	for len(st.list) >= maxStored || len(st.list) > 0 && st.bytes+e.bytes > maxStoredBytes {
		st.bytes -= st.list[0].bytes
		st.list = append(st.list[:0], st.list[1:]...)
	}
	st.list = append(st.list, e)
	st.bytes += e.bytes
}

// keepHand drops the re-solves of rounds that did not begin on the way to the
// history of key: those of another hand (or of another line of this one, which a
// question about this history cannot need).
func (st *solveStore) keepHand(key string) {
	kept := st.list[:0]
	for _, e := range st.list {
		if strings.HasPrefix(key, e.start) {
			kept = append(kept, e)
		} else {
			st.bytes -= e.bytes
		}
	}
	clear(st.list[len(kept):])
	st.list = kept
}
