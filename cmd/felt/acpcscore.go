package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/felt-poker/felt/internal/arena"
	"github.com/felt-poker/felt/internal/dealer/acpc"
)

// acpcScoreCmd is "felt acpc-score": a player's win rate over ACPC logs.
type acpcScoreCmd struct {
	Logs   []string `arg:"" name:"log" help:"An ACPC log, or two logs of one match played twice from the same seed with the seats swapped (duplicate)."`
	Player string   `required:"" help:"The player's name in the logs."`
	Game   string   `default:"holdem.nolimit.2p.reverse_blinds" help:"The game definition (file or built-in name), for its big blind."`
	JSON   bool     `name:"json" help:"Print one JSON object instead of text."`
}

// Help is the long help of "felt acpc-score".
func (c *acpcScoreCmd) Help() string {
	return `Reads the STATE lines of ACPC logs (the ACPC dealer's or felt acpc's) and prints the
player's win in mbb/g (thousandths of a big blind per hand) and bb/100, ± the 95%
half-width. With two logs of one match dealt twice from the same seed, the players'
positions swapped (the ACPC dealer run twice with the same rngSeed and the players in
the other order), hand i of one is paired with hand i of the other, whose hole cards
must be the same: duplicate, the luck of the cards mostly cancelled. With one log,
consecutive hands are paired (an odd last hand is left out): in a log of felt acpc, which
plays every deal twice in a row with the positions swapped, those are the duplicate
pairs; in one of the ACPC dealer, independent hands.

In logs of two players a second line tells how the player's hands ended, over every
hand of the logs: the hands it folded (and of those, on the flop), the chips it gave up
folding (what it had put in), and the showdowns (hands no one folded, all-in or not).

--json prints one object: "player", "logs", "hands", "duplicate", "chips",
"mbb_per_game", "mbb_ci95", "bb_per_100", "ci95", and for two players "endings"
("hands", "folds", "flop_folds", "fold_chips", "showdowns").`
}

// acpcScoreOutput is what "felt acpc-score --json" prints.
type acpcScoreOutput struct {
	Player     string   `json:"player"`
	Logs       []string `json:"logs"`
	Hands      int      `json:"hands"`
	Duplicate  bool     `json:"duplicate"`
	Chips      int64    `json:"chips"`
	MBBPerGame float64  `json:"mbb_per_game"`
	MBBCI95    float64  `json:"mbb_ci95"`
	BBPer100   float64  `json:"bb_per_100"`
	CI95       float64  `json:"ci95"`
	// Endings is nil for logs of more than two players.
	Endings *handEndings `json:"endings,omitempty"`
}

// handEndings counts how a player's hands ended, over every hand of the logs.
type handEndings struct {
	Hands     int   `json:"hands"`
	Folds     int   `json:"folds"`
	FlopFolds int   `json:"flop_folds"`
	FoldChips int64 `json:"fold_chips"` // what the player had put in the hands it folded
	Showdowns int   `json:"showdowns"`
}

// add counts how player's hand h ended; false if h is not of two players (or
// player did not play it), counting nothing.
func (e *handEndings) add(h acpc.LogHand, player string) bool {
	x, played := h.Score(player)
	pos, round, ok := h.Folded()
	if !played || !ok {
		return false
	}
	e.Hands++
	switch {
	case pos < 0:
		e.Showdowns++
	case h.Names[pos] == player:
		e.Folds++
		e.FoldChips += int64(math.Round(-x))
		if round == 1 {
			e.FlopFolds++
		}
	}
	return true
}

// Run is called by kong.
func (c *acpcScoreCmd) Run(ctx context.Context) error { return c.run(os.Stdout) }

// runACPCScore parses args as "felt acpc-score" would and runs it: the entry
// point for tests.
func runACPCScore(args []string, stdout io.Writer) error {
	var c struct {
		Score acpcScoreCmd `cmd:"" name:"acpc-score"`
	}
	if err := parseCommand(&c, "acpc-score", args, stdout); err != nil {
		return err
	}
	return c.Score.run(stdout)
}

func (c *acpcScoreCmd) run(stdout io.Writer) error {
	if len(c.Logs) > 2 {
		return usageError("felt acpc-score takes one log, or two of one match with the seats swapped")
	}
	g, err := loadGame(c.Game)
	if err != nil {
		return usageError("--game: %v", err)
	}
	logs := make([]namedLog, len(c.Logs))
	for i, name := range c.Logs {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		logs[i] = namedLog{name, f}
	}
	t, err := scoreLogs(logs, c.Player)
	if err != nil {
		return err
	}
	if t.pairs.N < 2 {
		return fmt.Errorf("acpc-score: %d hands of %s: too few for an interval", t.hands, c.Player)
	}
	bb := slicesMax(g.Blind)
	out := acpcScoreOutput{Player: c.Player, Logs: c.Logs, Hands: t.hands, Duplicate: len(logs) == 2, Chips: t.pairs.Sum}
	out.MBBPerGame, out.MBBCI95 = t.pairs.Rate(bb, 1000)
	out.BBPer100, out.CI95 = t.pairs.Rate(bb, 100)
	if t.twoPlayers {
		out.Endings = &t.endings
	}
	if c.JSON {
		return writeArenaJSON(stdout, out)
	}
	how := "consecutive hands paired"
	if out.Duplicate {
		how = "duplicate: the two logs' hands paired"
	}
	_, err = fmt.Fprintf(stdout, "%s: %s hands (%s), %s chips: %+.0f mbb/g ± %.0f (95%%), %+.1f bb/100 ± %.1f\n",
		c.Player, thousands(int64(t.hands)), how, signedThousands(out.Chips), out.MBBPerGame, out.MBBCI95, out.BBPer100, out.CI95)
	if err != nil || out.Endings == nil {
		return err
	}
	e := out.Endings
	_, err = fmt.Fprintf(stdout, "%s: of %s hands, folded %s (%s on the flop), giving up %s chips; %s showdowns\n",
		c.Player, thousands(int64(e.Hands)), thousands(int64(e.Folds)), thousands(int64(e.FlopFolds)),
		thousands(e.FoldChips), thousands(int64(e.Showdowns)))
	return err
}

// namedLog is one log to score and its name for errors.
type namedLog struct {
	name string
	r    io.Reader
}

// logTally is what acpc-score counts of a player over its logs.
type logTally struct {
	pairs arena.PairStats // the player's results in pairs of hands
	hands int             // the hands of those pairs
	// endings counts how the player's hands ended, when every hand is of two
	// players (twoPlayers).
	endings    handEndings
	twoPlayers bool
	// foldErr says that the chips folded passed an int64: a crafted log,
	// streamed (hands of 2^35 chips folded and won back by turns, 2^28 pairs
	// of them, the pairs' sums nothing); before, the count wrapped round,
	// silently.
	foldErr error
}

// endHand counts how h ended in t.endings while every hand so far was of two
// players.
func (t *logTally) endHand(h acpc.LogHand, player string) {
	before := t.endings.FoldChips
	t.twoPlayers = t.twoPlayers && t.endings.add(h, player)
	if t.endings.FoldChips < before && t.foldErr == nil { // wrapped round
		t.foldErr = fmt.Errorf("acpc log: the chips %s folded up to hand %d are too many to sum", player, h.Hand)
	}
}

// scoreLogs scores player over one log (consecutive hands paired) or two
// (the duplicate pairs), reading them a hand at a time: the memory it takes
// does not grow with the hands. Its errors are those of reading every log
// whole first, then pairing: a malformed line of the first log, then of the
// second, then logs of unequal lengths, then the first hand that cannot be
// paired or scored.
func scoreLogs(logs []namedLog, player string) (logTally, error) {
	if len(logs) == 2 {
		return scoreDuplicate(logs[0], logs[1], player)
	}
	t := logTally{twoPlayers: true}
	lr := acpc.NewLogReader(logs[0].r)
	var prev float64
	var scoreErr error
	for h, ok := lr.Next(); ok; h, ok = lr.Next() {
		t.endHand(h, player)
		if scoreErr != nil {
			continue // read on: a malformed line later is the error to report
		}
		x, played := h.Score(player)
		if !played {
			scoreErr = fmt.Errorf("acpc log: %s did not play hand %d", player, h.Hand)
			continue
		}
		if t.hands%2 == 1 {
			scoreErr = addPair(&t.pairs, prev+x, h.Hand)
		}
		prev = x
		t.hands++
	}
	if err := lr.Err(); err != nil {
		return logTally{}, fmt.Errorf("%s: %w", logs[0].name, err)
	}
	t.hands -= t.hands % 2
	return t, cmp.Or(scoreErr, t.foldErr)
}

// scoreDuplicate scores player over two logs of one match played twice with
// the seats swapped, reading them in step: hand i of a with hand i of b.
func scoreDuplicate(a, b namedLog, player string) (logTally, error) {
	t := logTally{twoPlayers: true}
	ra, rb := acpc.NewLogReader(a.r), acpc.NewLogReader(b.r)
	var na, nb int
	var pairErr, sumErr error
	for ra.Err() == nil {
		ha, okA := ra.Next()
		hb, okB := rb.Next()
		if !okA && !okB {
			break
		}
		if okA {
			na++
			t.endHand(ha, player)
		}
		if okB {
			nb++
			t.endHand(hb, player)
		}
		if !okA || !okB || pairErr != nil {
			continue
		}
		x, err := acpc.DuplicatePair(ha, hb, player)
		switch {
		case err != nil:
			pairErr = err
		case sumErr == nil:
			sumErr = addPair(&t.pairs, x, ha.Hand)
		}
	}
	switch {
	case ra.Err() != nil:
		return logTally{}, fmt.Errorf("%s: %w", a.name, ra.Err())
	case rb.Err() != nil:
		return logTally{}, fmt.Errorf("%s: %w", b.name, rb.Err())
	case na != nb:
		return logTally{}, acpc.DuplicateLengthError(na, nb)
	case pairErr != nil:
		return logTally{}, pairErr
	}
	t.hands = 2 * na
	return t, cmp.Or(sumErr, t.foldErr)
}

// maxPairChips bounds a pair's result: its square fits an int64.
const maxPairChips = 3_037_000_499

// addPair adds a pair's result x (the pair ending with hand) to s, or says
// that the sums would overflow: a crafted log, not a real one (before, they
// wrapped round, silently).
func addPair(s *arena.PairStats, x float64, hand int) error {
	v := int64(math.Round(x))
	if math.Abs(x) > maxPairChips || s.SumSq > math.MaxInt64-v*v {
		return fmt.Errorf("acpc log: the scores up to hand %d are too large to sum (%.0f chips in a pair)", hand, x)
	}
	s.Add(arena.PairStats{N: 1, Sum: v, SumSq: v * v})
	return nil
}

// slicesMax returns the largest of xs (0 for none).
func slicesMax(xs []int64) int64 {
	var m int64
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
