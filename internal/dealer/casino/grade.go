package casino

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/felt-poker/felt/internal/cards"
)

// Line is one rubric line of a grade report.
type Line struct {
	Name string
	// Protocol marks the lines about the protocol (a failure makes felt grade exit
	// non-zero); the others are about strategy.
	Protocol bool
	Pass     bool
	Detail   string
}

// Report is the grader's verdict on one bot.
type Report struct {
	Addr, ID, Avatar string
	Lines            []Line
}

// ProtocolOK reports whether every protocol line passed.
func (r Report) ProtocolOK() bool {
	for _, l := range r.Lines {
		if l.Protocol && !l.Pass {
			return false
		}
	}
	return true
}

// The rubric lines, in report order.
const (
	RubricLogin   = "answers login (the same answer twice)"
	RubricOnTime  = "always replies within the time"
	RubricLegal   = "always bets a legal amount"
	RubricClose   = "closes the socket after done"
	RubricHigh    = "bets high with three of a kind or a high spade in the hole"
	RubricNoCall  = "does not call big bets with nothing"
	RubricUpCards = "takes the other players' up cards into account"
)

// situation is one scripted question and what the rubric looks for in the answer.
type situation struct {
	msg           string
	stack, toCall int64
	kind          int    // what the answer is graded for (sit* below)
	pair          int    // sitHarmless and sitThreat: the pair of situations compared
	why           string // for the report
}

const (
	sitLegal    = iota // graded for time and legality only
	sitHigh            // should bet at least min(toCall+5, stack)
	sitFold            // should fold
	sitHarmless        // the same hand as a sitThreat, with harmless up cards around
	sitThreat          // ... with threatening up cards around: should put in less
)

// situations returns the scripted questions, each consistent with a real deal (the
// player's own up cards are among the up cards, no card twice).
func situations() []situation {
	c := cards.MustParseList
	b1 := func(stack, pot, toCall int64, own, ups string) string {
		o := c(own)
		return Bet1{Stack: stack, Pot: pot, ToCall: toCall, Hole: o[0], Up: o[1], Ups: c(ups)}.String()
	}
	b2 := func(stack, pot, toCall int64, own, ups string) string {
		o, u := c(own), c(ups)
		m := Bet2{Stack: stack, Pot: pot, ToCall: toCall, Hole: o[0], Up1: o[1], Up2: o[2]}
		for i := 0; i < len(u); i += 2 {
			m.Ups = append(m.Ups, [2]cards.Card{u[i], u[i+1]})
		}
		return m.String()
	}
	return []situation{
		{b1(40, 5, 0, "As 4d", "Kc 4d 9h Jd 6c"), 40, 0, sitHigh, 0, "ace of spades in the hole, round one"},
		{b2(40, 15, 0, "7d 7c 7h", "Kd 2s 7c 7h 9c 4d"), 40, 0, sitHigh, 0, "three sevens, nothing to call"},
		{b2(40, 30, 10, "2c 5d 9h", "5d 9h Kh Kc Qd 8s"), 40, 10, sitFold, 0, "nothing against kings up, 10 to call"},
		{b2(40, 12, 0, "8d 8c 4h", "2c 5s 8c 4h 3h 6d"), 40, 0, sitHarmless, 1, "eights, others show nothing"},
		{b2(40, 20, 3, "Qd Qc Qs", "Qc Qs Jh 5c 8d 8s"), 40, 3, sitHigh, 0, "three queens, 3 to call"},
		{b1(40, 18, 2, "Qh Kd", "Kd 5c 7s 3h"), 40, 2, sitHarmless, 2, "king up, others show small cards"},
		{b1(40, 18, 8, "3d 7c", "Ah 7c Kd Js"), 40, 8, sitFold, 0, "seven high, 8 to call"},
		{b2(40, 12, 0, "8d 8c 4h", "Ks Kd 8c 4h 3h 6d"), 40, 0, sitThreat, 1, "eights, another shows kings"},
		{b2(40, 14, 2, "Ks 3c 8d", "3c 8d Ah 9c 5h 2d"), 40, 2, sitHigh, 0, "king of spades in the hole (ace unseen), 2 to call"},
		{b1(40, 18, 2, "Qh Kd", "Kd Ac Ad Ah"), 40, 2, sitThreat, 2, "king up, others show aces"},
		{b2(4, 20, 2, "5c 5h 5s", "5h 5s Jc Td"), 4, 2, sitHigh, 0, "three fives with only 4 chips"},
		{b1(12, 3, 0, "9c Jh", "Jh 2d"), 12, 0, sitLegal, 0, "heads-up, nothing to call"},
	}
}

// Grade drives the bot on conn through the scripted situations and reports per
// rubric line. timeout is the time the bot has for each answer. It closes conn.
func Grade(ctx context.Context, conn net.Conn, timeout time.Duration) Report {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	defer conn.Close()
	g := grader{conn: conn, timeout: timeout}
	rep := Report{Addr: conn.RemoteAddr().String()}

	// Login, twice: at the start and again after the hands.
	first, ok := g.ask(MsgLogin)
	id, avatar, err := ParseLogin(first)
	if ok && err == nil {
		rep.ID, rep.Avatar = id, avatar
	}
	results := g.play()
	second, ok2 := "", false
	if !g.lost {
		second, ok2 = g.ask(MsgLogin)
	}
	login := Line{Name: RubricLogin, Protocol: true}
	switch {
	case !ok || err != nil:
		login.Detail = fmt.Sprintf("first answer %q: %v", clip(first), err)
	case !ok2:
		login.Detail = "no answer the second time"
	case second != first:
		login.Detail = fmt.Sprintf("%q, then %q", clip(first), clip(second))
	default:
		login.Pass, login.Detail = true, fmt.Sprintf("%q both times", first)
	}
	rep.Lines = append(rep.Lines, login)
	rep.Lines = append(rep.Lines, g.protocolLines(len(results))...)
	rep.Lines = append(rep.Lines, strategyLines(results)...)
	return rep
}

// graded is the bot's reply to one scripted situation.
type graded struct {
	s    situation
	n    int64 // chips put in; -1 for fold
	ok   bool  // answered, in time and legally
	text string
}

// play asks the bot every scripted situation in turn, telling it a hand's end
// now and then, until it has answered them all or stopped answering.
func (g *grader) play() []graded {
	var results []graded
	for i, s := range situations() {
		if g.lost {
			break
		}
		text, answered := g.ask(s.msg)
		r := graded{s: s, text: text, n: -1}
		if answered {
			n, fold, err := ParseReply(text)
			switch {
			case err != nil:
				g.illegal(i, s, text, err.Error())
			case fold:
				r.ok = true
			case n < s.toCall || n > s.toCall+MaxRaise || n > s.stack:
				g.illegal(i, s, text, fmt.Sprintf("must be %d..%d", s.toCall, min(s.toCall+MaxRaise, s.stack)))
			default:
				r.n, r.ok = n, true
			}
		}
		results = append(results, r)
		if i%3 == 2 && !g.lost { // a hand ends now and then; status needs no answer
			st := Status{Win: i%2 == 0, Cards: [3]cards.Card{cards.MustParse("Ad"), cards.MustParse("Ac"), cards.MustParse("4s")}}
			g.tell(st.String())
		}
	}
	return results
}

// protocolLines grades answering on time, legally and closing when done, after
// the bot answered answered situations.
func (g *grader) protocolLines(answered int) []Line {
	onTime := Line{Name: RubricOnTime + fmt.Sprintf(" (%v)", g.timeout), Protocol: true, Pass: len(g.late) == 0 && !g.lost}
	onTime.Detail = fmt.Sprintf("%d answers, slowest %v", g.answers, g.slowest.Round(time.Millisecond))
	if len(g.late) > 0 {
		onTime.Detail = strings.Join(g.late, "; ")
	}
	legal := Line{Name: RubricLegal, Protocol: true, Pass: len(g.bad) == 0 && answered == len(situations())}
	legal.Detail = fmt.Sprintf("%d bets and folds, all legal", answered)
	if len(g.bad) > 0 {
		legal.Detail = strings.Join(g.bad, "; ")
	} else if !legal.Pass {
		legal.Detail = fmt.Sprintf("only %d of %d situations answered", answered, len(situations()))
	}
	closeLine := Line{Name: RubricClose, Protocol: true}
	if g.lost {
		closeLine.Detail = "not graded: the bot stopped answering"
	} else {
		closeLine.Pass, closeLine.Detail = g.closesAfterDone()
	}
	return []Line{onTime, legal, closeLine}
}

// strategyLines grades the answers' strategy: betting high hands, folding what
// cannot win, and betting less against strong up cards than against harmless ones.
func strategyLines(results []graded) []Line {
	high := Line{Name: RubricHigh, Pass: true}
	fold := Line{Name: RubricNoCall, Pass: true}
	var highs, folds []string
	amount := map[int][2]int64{} // pair -> harmless, threat
	seen := map[int]int{}
	for _, r := range results {
		say := fmt.Sprintf("%s: %s", r.s.why, answerText(r.n))
		switch r.s.kind {
		case sitHigh:
			want := min(r.s.toCall+5, r.s.stack)
			if !r.ok || r.n < want {
				high.Pass = false
				say += fmt.Sprintf(" (want at least bet:%d)", want)
			}
			highs = append(highs, say)
		case sitFold:
			if !r.ok || r.n >= 0 {
				fold.Pass = false
			}
			folds = append(folds, say)
		case sitHarmless, sitThreat:
			a := amount[r.s.pair]
			a[r.s.kind-sitHarmless] = r.n
			amount[r.s.pair] = a
			seen[r.s.pair]++
		}
	}
	high.Detail, fold.Detail = strings.Join(highs, "; "), strings.Join(folds, "; ")
	if len(highs) == 0 {
		high.Pass, high.Detail = false, "not graded"
	}
	if len(folds) == 0 {
		fold.Pass, fold.Detail = false, "not graded"
	}
	return []Line{high, fold, upCardsLine(amount, seen)}
}

// upCardsLine grades the two pairs of situations that hold the same cards
// against harmless and against strong up cards.
func upCardsLine(amount map[int][2]int64, seen map[int]int) Line {
	up := Line{Name: RubricUpCards}
	less := 0
	var ups []string
	for p := 1; p <= 2; p++ {
		a := amount[p]
		if seen[p] != 2 {
			ups = append(ups, fmt.Sprintf("pair %d not graded", p))
			continue
		}
		switch {
		case a[1] < a[0]:
			less++
		case a[1] > a[0]:
			less = -10
		}
		ups = append(ups, fmt.Sprintf("same cards: %s with harmless up cards around, %s against strong ones", answerText(a[0]), answerText(a[1])))
	}
	up.Pass = less > 0 && seen[1] == 2 && seen[2] == 2
	up.Detail = strings.Join(ups, "; ")
	return up
}

func answerText(n int64) string {
	if n < 0 {
		return "fold"
	}
	return Bet(n)
}

// grader holds the state of one grading session.
type grader struct {
	conn    net.Conn
	timeout time.Duration
	answers int
	slowest time.Duration
	late    []string
	bad     []string
	lost    bool // the bot stopped answering or hung up: grading ends
}

// resyncFactor times the timeout is how long the grader waits for a late answer
// before giving up on the bot, so that a slow answer is not taken for the answer to
// the next question.
const resyncFactor = 10

// ask writes msg and reads the answer; it reports false when there is none.
func (g *grader) ask(msg string) (string, bool) {
	if g.lost {
		return "", false
	}
	start := time.Now()
	g.conn.SetDeadline(start.Add(g.timeout))
	if err := WriteUTF(g.conn, msg); err != nil {
		g.lose(msg, err)
		return "", false
	}
	text, err := ReadUTF(g.conn)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		g.conn.SetDeadline(time.Now().Add(resyncFactor * g.timeout))
		text, err = ReadUTF(g.conn)
		if err == nil {
			g.late = append(g.late, fmt.Sprintf("%q answered after %v", clip(msg), time.Since(start).Round(time.Millisecond)))
		}
	}
	if err != nil {
		g.lose(msg, err)
		return "", false
	}
	g.answers++
	g.slowest = max(g.slowest, time.Since(start))
	return text, true
}

// tell writes a message that needs no answer.
func (g *grader) tell(msg string) bool {
	g.conn.SetDeadline(time.Now().Add(g.timeout))
	if err := WriteUTF(g.conn, msg); err != nil {
		g.lose(msg, err)
		return false
	}
	return true
}

func (g *grader) lose(msg string, err error) {
	g.lost = true
	why := "no answer"
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		why = err.Error()
	}
	g.late = append(g.late, fmt.Sprintf("%q: %s", clip(msg), why))
}

func (g *grader) illegal(i int, s situation, text, why string) {
	g.bad = append(g.bad, fmt.Sprintf("situation %d (%s, %d to call, %d chips): %q %s", i+1, s.why, s.toCall, s.stack, clip(text), why))
}

// closesAfterDone sends done and expects the bot to close within twice the timeout
// without writing anything.
func (g *grader) closesAfterDone() (bool, string) {
	start := time.Now()
	g.conn.SetDeadline(start.Add(2 * g.timeout))
	if err := WriteUTF(g.conn, Done("grading finished")); err != nil {
		return false, "could not send done: " + err.Error()
	}
	var b [1]byte
	_, err := g.conn.Read(b[:])
	switch {
	case err == nil:
		return false, "wrote after done instead of closing"
	case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed), isReset(err):
		return true, fmt.Sprintf("closed %v after done", time.Since(start).Round(time.Millisecond))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return false, fmt.Sprintf("still open %v after done", 2*g.timeout)
	}
	return false, err.Error()
}

// isReset reports a connection reset by the peer, which is a close too.
func isReset(err error) bool { return errors.Is(err, syscall.ECONNRESET) }
