package acpc

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// LogHand is one hand of an ACPC log: a STATE line of the ACPC dealer's log
// (or felt acpc's), "STATE:<hand>:<betting>:<cards>:<scores>:<names>", the
// scores and names in position order.
type LogHand struct {
	Hand int
	// Holes are the hole cards field, every position's cards in position order
	// ("8dJd|Td4d"): two logs dealt from the same seed have the same.
	Holes string
	// Betting is the betting field ("r300c/cr900f"), rounds parted by '/'.
	Betting string
	Scores  []float64
	Names   []string
}

// Folded tells how a hand of two players ended: pos is the position that
// folded (-1 when no one did: a showdown, all-in or not) and round the betting
// round of the fold (0 before the flop). Heads-up a fold ends the hand and the
// folder loses what it put in, so the folder is the one position that lost. ok
// is false for a hand of more than two players, or a fold that no one lost.
func (h LogHand) Folded() (pos, round int, ok bool) {
	if len(h.Scores) != 2 {
		return 0, 0, false
	}
	if !strings.HasSuffix(h.Betting, "f") {
		return -1, 0, true
	}
	round = strings.Count(h.Betting, "/")
	switch {
	case h.Scores[0] < 0 && h.Scores[1] > 0:
		return 0, round, true
	case h.Scores[1] < 0 && h.Scores[0] > 0:
		return 1, round, true
	}
	return 0, 0, false
}

// Score returns the score of the player called name in the hand, and whether
// the player played it.
func (h LogHand) Score(name string) (float64, bool) {
	for i, n := range h.Names {
		if n == name {
			return h.Scores[i], true
		}
	}
	return 0, false
}

const (
	// maxLogPlayers bounds the players of a STATE line: the ACPC dealer's
	// MAX_PLAYERS.
	maxLogPlayers = 10
	// MaxLogScore bounds a score of a STATE line: more than a player can win
	// in a hand of the ACPC dealer (stacks are 32-bit, at most nine others),
	// little enough that sums of scores and of their squares over a log
	// cannot pass for real ones.
	MaxLogScore = 1 << 35
)

// ReadLog reads the STATE lines of an ACPC log; every other line (comments,
// the SCORE line) is skipped. A malformed STATE line is an error naming its
// line number. What it keeps of a hand is a copy of the fields it reads (the
// players' names shared between hands), not the line: the memory it takes
// grows with the hands, not with what a crafted line holds besides. To read a
// log in memory bounded whatever its length, use a LogReader.
func ReadLog(r io.Reader) ([]LogHand, error) {
	var out []LogHand
	names := map[string]string{}
	lr := NewLogReader(r)
	for h, ok := lr.Next(); ok; h, ok = lr.Next() {
		h.Holes, h.Betting = strings.Clone(h.Holes), strings.Clone(h.Betting)
		for i, name := range h.Names {
			if _, ok := names[name]; !ok {
				names[strings.Clone(name)] = strings.Clone(name)
			}
			h.Names[i] = names[name]
		}
		out = append(out, h)
	}
	if err := lr.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// LogReader reads the STATE lines of an ACPC log one hand at a time, as
// ReadLog does, holding no more than the line being read (at most 1 MiB): a
// log of any number of hands is read in bounded memory.
type LogReader struct {
	sc   *bufio.Scanner
	line int // the lines read so far
	err  error
}

// NewLogReader returns a LogReader of r.
func NewLogReader(r io.Reader) *LogReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	return &LogReader{sc: sc}
}

// Next returns the next hand of the log, or false at its end or at an error
// (Err tells which). The hand's strings are its own: they stay valid after the
// next call.
func (l *LogReader) Next() (LogHand, bool) {
	for l.err == nil && l.sc.Scan() {
		l.line++
		line := strings.TrimSpace(l.sc.Text())
		if !strings.HasPrefix(line, "STATE:") {
			continue
		}
		h, err := parseLogState(line)
		if err != nil {
			l.err = fmt.Errorf("acpc log, line %d: %w", l.line, err)
			return LogHand{}, false
		}
		return h, true
	}
	if err := l.sc.Err(); err != nil && l.err == nil {
		l.err = fmt.Errorf("acpc log: %w", err)
	}
	return LogHand{}, false
}

// Err returns the error that ended the log (a malformed STATE line, a line
// over 1 MiB, a failed read), or nil when it ended at its end.
func (l *LogReader) Err() error { return l.err }

// parseLogState reads one STATE line.
func parseLogState(line string) (LogHand, error) {
	f := strings.SplitN(line, ":", 7)
	if len(f) != 6 {
		return LogHand{}, fmt.Errorf("%w: %.200q: want STATE:hand:betting:cards:scores:names", ErrState, line)
	}
	hand, err := strconv.Atoi(f[1])
	if err != nil || hand < 0 {
		return LogHand{}, fmt.Errorf("%w: %.200q: bad hand number", ErrState, line)
	}
	holes, _, _ := strings.Cut(f[3], "/")
	scores, players := strings.Count(f[4], "|")+1, strings.Count(f[5], "|")+1
	if scores != players || scores < 2 || scores > maxLogPlayers {
		return LogHand{}, fmt.Errorf("%w: %.200q: %d scores for %d names (2 to %d players)", ErrState, line, scores, players, maxLogPlayers)
	}
	h := LogHand{Hand: hand, Holes: holes, Betting: f[2], Names: strings.Split(f[5], "|"), Scores: make([]float64, 0, scores)}
	var sum float64
	for _, s := range strings.Split(f[4], "|") {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.Abs(x) > MaxLogScore {
			return LogHand{}, fmt.Errorf("%w: %.200q: bad score %.40q (a number of chips, at most %d either way)", ErrState, line, s, int64(MaxLogScore))
		}
		h.Scores = append(h.Scores, x)
		sum += x
	}
	if sum > 1e-6 || sum < -1e-6 {
		return LogHand{}, fmt.Errorf("%w: %.200q: the scores sum to %g, not 0", ErrState, line, sum)
	}
	return h, nil
}

// Duplicate pairs the hands of two logs of one match played twice from the same
// seed, the players' positions swapped: it returns, for each hand, player's
// score in a plus its score in b. The logs must hold the same hands, each dealt
// the same hole cards, with the player in both (DuplicatePair).
func Duplicate(a, b []LogHand, player string) ([]float64, error) {
	if len(a) != len(b) {
		return nil, DuplicateLengthError(len(a), len(b))
	}
	out := make([]float64, len(a))
	for i := range a {
		x, err := DuplicatePair(a[i], b[i], player)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// DuplicateLengthError is Duplicate's error for logs of a and b hands.
func DuplicateLengthError(a, b int) error {
	return fmt.Errorf("acpc logs: %d hands and %d: not one match played twice", a, b)
}

// DuplicatePair returns player's score in a plus its score in b, hands of the
// same place in two logs of one match played twice with the positions swapped:
// an error unless they are one hand (its number and hole cards) with the player
// in both, in other positions.
func DuplicatePair(a, b LogHand, player string) (float64, error) {
	x, okA := a.Score(player)
	y, okB := b.Score(player)
	switch {
	case !okA || !okB:
		return 0, fmt.Errorf("acpc logs: %s did not play hand %d in both", player, a.Hand)
	case slices.Index(a.Names, player) == slices.Index(b.Names, player):
		return 0, fmt.Errorf("acpc logs: %s is in the same position in hand %d of both: not the seats swapped", player, a.Hand)
	case a.Hand != b.Hand || a.Holes != b.Holes:
		return 0, fmt.Errorf("acpc logs: hand %d (%s) and hand %d (%s) were not dealt the same cards", a.Hand, a.Holes, b.Hand, b.Holes)
	}
	return x + y, nil
}
