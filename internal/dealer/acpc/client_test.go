package acpc

import (
	"errors"
	"testing"
)

// TestImpossibleStates feeds the client's reading of a dealer's line (ParseState,
// then Replay) states no dealer may send: each is refused with ErrState, where
// the old reading played some of them on board cards it made up (a "cc" with no
// flop shown, a "c/c" whose '/' ends no round) or ignored what did not fit.
func TestImpossibleStates(t *testing.T) {
	cfg, limit := fuzzGame(t, true)
	for _, line := range []string{
		"MATCHSTATE:0:0::AsAs|",                         // a card twice in a hand
		"MATCHSTATE:0:0:cc/:AsKs|/AsKd2c",               // a hole card on the board
		"MATCHSTATE:1:0:cc/:AsKs|AsQd/2c3c4c",           // in both hands
		"MATCHSTATE:0:0:cc:AsKs|",                       // the flop dealt, not marked nor shown
		"MATCHSTATE:0:0:c/c:AsKs|",                      // a '/' that ends no round
		"MATCHSTATE:0:0:cc/cc:AsKs|/2c3c4c",             // the turn dealt, not marked nor shown
		"MATCHSTATE:0:0:cc/cc/:AsKs|/2c3c4c",            // the turn marked, not shown
		"MATCHSTATE:0:0::AsKs|/2c3c4c",                  // a flop no betting dealt
		"MATCHSTATE:0:0:cc/:AsKs|/2c3c4c5c6c7c",         // six flop cards
		"MATCHSTATE:0:0:cc/:AsKs|/2c/3c/4c/5c/6c",       // five boards
		"MATCHSTATE:0:0:cc/:AsKs|/2c3c",                 // a short flop
		"MATCHSTATE:0:0:r20000c:AsKs|QdQh",              // an all-in run-out not marked
		"MATCHSTATE:0:0:r20000c///:AsKs|QdQh/2c3c4c/5c", // nor shown
		"MATCHSTATE:0:0:r30000:AsKs|",                   // a raise past the stack
		"MATCHSTATE:0:0:r100:AsKs|",                     // a raise below the big blind
		"MATCHSTATE:0:0:fc:AsKs|",                       // an action after the hand ended
		"MATCHSTATE:0:0:cf:AsKs|",                       // a fold with nothing to call
		"MATCHSTATE:0:-3::AsKs|",                        // a hand before the first
		"MATCHSTATE:0:0::|AsKs",                         // my hole cards hidden
	} {
		s, err := ParseState(line)
		if err == nil {
			_, err = s.Replay(cfg, limit)
		}
		if !errors.Is(err, ErrState) {
			t.Errorf("%s: got %v, want an ErrState", line, err)
		}
	}
}
