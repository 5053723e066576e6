package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
)

// memLog is an in-memory HandLog: every hand's start, actions and end, as a
// table wrote them. refuse makes every later write fail, as a fenced log does.
type memLog struct {
	mu     sync.Mutex
	closed bool
	opened *LogState
	hands  []*loggedHand
	refuse bool
	// base is the last state logged (a hand's start or end, an open), at
	// baseAt; notes are the notes logged since, lastAt the last write's time
	// and inPlay whether base is a hand's start.
	base   *LogState
	baseAt time.Time
	notes  []LoggedNote
	lastAt time.Time
	inPlay bool
}

type loggedHand struct {
	no       int64
	cfg      engine.Config
	start    LogState
	actions  []engine.Action
	actionAt []time.Time
	end      *LogState
}

// setBase makes s the log's last state.
func (m *memLog) setBase(s LogState, inPlay bool) {
	m.base, m.baseAt, m.lastAt, m.notes, m.inPlay = &s, time.Now(), time.Now(), nil, inPlay
}

func (m *memLog) Note(_ context.Context, note any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refuse {
		return errRefused
	}
	b, err := json.Marshal(note)
	if err != nil {
		return err
	}
	n := LoggedNote{At: time.Now(), Note: b}
	if m.inPlay {
		n.Actions = len(m.hands[len(m.hands)-1].actions)
	}
	m.notes, m.lastAt = append(m.notes, n), n.At
	return nil
}

// resume returns what a node taking the table over reads from the log, the
// store holding stacks at the table.
func (m *memLog) resume(t *testing.T, stacks map[int64]int64) *Resume {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	b, _ := json.Marshal(m.base)
	r := &Resume{Stacks: stacks, StateAt: m.baseAt, LastAt: m.lastAt, Notes: append([]LoggedNote(nil), m.notes...)}
	if err := json.Unmarshal(b, &r.State); err != nil {
		t.Fatal(err)
	}
	if !m.inPlay {
		return r
	}
	h := m.hands[len(m.hands)-1]
	e, err := engine.New(h.cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.TurnAt = m.baseAt
	for i, a := range h.actions { // as cluster.HandLog.Rebuild does
		actor := e.ToAct()
		if e.Apply(a) != nil {
			continue
		}
		if a.Seat == actor || e.ToAct() != actor {
			r.TurnActions, r.TurnAt = i+1, h.actionAt[i]
		}
	}
	r.Hand, r.HandCfg = e, h.cfg
	return r
}

var errRefused = errors.New("fenced")

func (m *memLog) Opened(_ context.Context, state any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refuse {
		return errRefused
	}
	s := state.(LogState)
	m.opened = &s
	m.setBase(s, false)
	return nil
}

func (m *memLog) Closed(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refuse {
		return errRefused
	}
	m.closed = true
	return nil
}

func (m *memLog) StartHand(_ context.Context, hand int64, cfg engine.Config, state any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refuse {
		return errRefused
	}
	m.hands = append(m.hands, &loggedHand{no: hand, cfg: cfg, start: state.(LogState)})
	m.setBase(state.(LogState), true)
	return nil
}

func (m *memLog) Action(_ context.Context, a engine.Action) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refuse {
		return errRefused
	}
	h := m.hands[len(m.hands)-1]
	h.actions = append(h.actions, a)
	h.actionAt = append(h.actionAt, time.Now())
	m.lastAt = time.Now()
	return nil
}

func (m *memLog) EndHand(_ context.Context, state any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refuse {
		return errRefused
	}
	s := state.(LogState)
	m.hands[len(m.hands)-1].end = &s
	m.setBase(s, false)
	return nil
}

func (m *memLog) setRefuse() { m.setRefused(true) }

// setRefused makes every later write fail (a fenced log) or pass again (the
// log's new owner writes it).
func (m *memLog) setRefused(refuse bool) {
	m.mu.Lock()
	m.refuse = refuse
	m.mu.Unlock()
}

// last returns the last hand logged.
func (m *memLog) last() *loggedHand {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.hands) == 0 {
		return nil
	}
	h := *m.hands[len(m.hands)-1]
	h.actions = append([]engine.Action(nil), h.actions...)
	return &h
}

// rebuild replays a logged hand as a new owner does (refused actions skipped).
func (h *loggedHand) rebuild(t *testing.T) *engine.Hand {
	t.Helper()
	e, err := engine.New(h.cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range h.actions {
		_ = e.Apply(a)
	}
	return e
}

// TestHandLogWritesAhead plays hands at a table with a log: every hand the
// table records is the one its log rebuilds (same nets), and every hand's end
// is logged with the stacks after it.
func TestHandLogWritesAhead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1), &memLog{}
		cfg := testConfig(b, "call", "random")
		cfg.HandLog = log
		tb := mustNew(t, cfg)
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		play(t, tb, b, rand.New(rand.NewPCG(5, 6)), 8, map[Player]*client{alice: c})
		checkChips(t, tb)
		b.mu.Lock()
		recorded := append(b.hands[:0:0], b.hands...)
		b.mu.Unlock()
		log.mu.Lock()
		defer log.mu.Unlock()
		if len(log.hands) < len(recorded) {
			t.Fatalf("%d hands logged, %d recorded", len(log.hands), len(recorded))
		}
		for k, rec := range recorded {
			h := log.hands[k]
			e := h.rebuild(t)
			if !e.Over() || h.end == nil || h.end.Hand != h.no || h.start.Hand != h.no || h.no != int64(k+1) {
				t.Fatalf("hand %d: over %v, end %+v", h.no, e.Over(), h.end)
			}
			r := e.Result()
			for _, p := range rec.Players {
				if r.Net[p.Seat] != p.Net {
					t.Errorf("hand %d seat %d: recorded net %d, the log's %d", h.no, p.Seat, p.Net, r.Net[p.Seat])
				}
				if s := h.end.Seats[p.Seat]; s.Occupied && s.Stack != r.Stacks[p.Seat] {
					t.Errorf("hand %d seat %d: end stack logged %d, the hand's %d", h.no, p.Seat, s.Stack, r.Stacks[p.Seat])
				}
			}
		}
	})
}

// TestRefusedLogAbandonsTable is the stale owner: once its log refuses a write
// (another node has fenced it), the table stops at once, tells its watchers it
// moved, and pays nothing out: the seats are the new owner's.
func TestRefusedLogAbandonsTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1), &memLog{}
		cfg := testConfig(b, "call", "call")
		cfg.HandLog = log
		tb := mustNew(t, cfg)
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		waitTurn(t, c)
		hands := b.numHands() // the bots' hands before alice was dealt in
		log.setRefuse()
		if err := tb.Act(t.Context(), alice, engine.Fold, 0); !errors.Is(err, ErrMoved) {
			t.Fatalf("act on a refused log: %v, want ErrMoved", err)
		}
		<-tb.Done()
		if c.notices(t, "table_moved") != 1 {
			t.Error("alice was not told the table moved")
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.credits[1] != 9000 || len(b.hands) != hands {
			t.Errorf("credits %d, %d hands recorded: want 9000 (nothing paid out), %d", b.credits[1], len(b.hands), hands)
		}
	})
}

// waitTurn waits until the client's last state says it is to act.
func waitTurn(t *testing.T, c *client) *State {
	t.Helper()
	for range 1000 {
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if s := c.last(t); s != nil && s.Hand != nil && s.Hand.Legal != nil {
			return s
		}
	}
	t.Fatal("never to act")
	return nil
}

// TestResumeHandInPlay takes a table over mid-hand: the first table's log is
// fenced while alice is to act; a second table resumes from the log and the
// store's stacks, shows alice the same cards and her turn, plays the hand to
// its end and pays her out: every chip accounted for.
func TestResumeHandInPlay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1), &memLog{}
		cfg := testConfig(b, "call", "call")
		cfg.HandLog = log
		a := mustNew(t, cfg)
		alice, ca := Player{1, "alice"}, &client{}
		if _, err := a.Watch(t.Context(), alice, ca); err != nil {
			t.Fatal(err)
		}
		if err := a.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		before := waitTurn(t, ca)
		if err := a.Act(t.Context(), alice, engine.Call, 0); err != nil {
			t.Fatal(err)
		}
		before = waitTurn(t, ca) // her next turn, later in the hand
		log.setRefuse()          // a is lost: its next write is refused
		if err := a.Act(t.Context(), alice, engine.Check, 0); !errors.Is(err, ErrMoved) {
			t.Fatalf("act at the lost table: %v", err)
		}
		<-a.Done()

		h := log.last()
		r := &Resume{State: h.start, Hand: h.rebuild(t), HandCfg: h.cfg, Stacks: map[int64]int64{1: 1000}}
		if o := r.Orphans(); len(o) != 0 {
			t.Errorf("orphans %v", o)
		}
		cfg.HandLog, cfg.Resume = &memLog{}, r
		cfg.HandLog.(*memLog).hands = []*loggedHand{h}
		bt := mustNew(t, cfg)
		if bt.Ref() != a.Ref() {
			t.Errorf("resumed ref %q, want %q", bt.Ref(), a.Ref())
		}
		cb := &client{}
		if _, err := bt.Watch(t.Context(), alice, cb); err != nil {
			t.Fatal(err)
		}
		after := waitTurn(t, cb)
		if after.Hand.Number != before.Hand.Number || after.Hand.HandKey != before.Hand.HandKey ||
			!reflect.DeepEqual(after.Seats[after.You.Seat].Cards, before.Seats[before.You.Seat].Cards) ||
			!reflect.DeepEqual(after.Hand.Board, before.Hand.Board) || after.Hand.Pot != before.Hand.Pot {
			j1, _ := json.Marshal(before.Hand)
			j2, _ := json.Marshal(after.Hand)
			t.Fatalf("the resumed hand differs:\n%s\n%s", j1, j2)
		}
		hands := b.numHands() // the bots' hands before alice was dealt in
		playWith(t, bt, b, hands+1, map[Player]*client{alice: cb}, checkFold)
		checkChips(t, bt)
		if err := bt.Close(t.Context(), "test over"); err != nil {
			t.Fatal(err)
		}
		b.checkLedger(t)
		b.mu.Lock()
		defer b.mu.Unlock()
		if got := b.hands[hands].PHH; !strings.Contains(got, after.Hand.HandKey) {
			t.Errorf("the hand recorded after the resume is not the resumed one:\n%s", got)
		}
	})
}

// fencedBank refuses every cash-out as the house does once another node has
// fenced the table.
type fencedBank struct {
	*bank
	mu       sync.Mutex
	cashOuts int
}

func (b *fencedBank) CashOut(context.Context, int64, string, int64) (int64, error) {
	b.mu.Lock()
	b.cashOuts++
	b.mu.Unlock()
	return 0, fmt.Errorf("cash-out: %w", house.ErrFenced)
}

// A cash-out the house refuses as fenced (another node runs the table, with
// the seat) is given up at once, not retried until the table closes.
func TestFencedCashOutGivenUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &fencedBank{bank: newBank(1)}
		tb := mustNew(t, testConfig(b, "call"))
		alice := Player{1, "alice"}
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		if err := tb.SitOut(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute) // any hand she was in is over
		if err := tb.Stand(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.cashOuts != 1 {
			t.Fatalf("%d attempts, want 1", b.cashOuts)
		}
	})
}

// TestResumedBotKnowsTheSeats takes a table with a learning bot over mid-hand:
// the bot made again on the new owner is told who sits where in the hand in
// play, so that what it learns of that hand goes to its model of the player,
// not to a model of nobody.
func TestResumedBotKnowsTheSeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1), &memLog{}
		cfg := testConfig(b, "bayes")
		cfg.HandLog, cfg.BotModels = log, &memModels{m: map[string][]byte{}}
		a := mustNew(t, cfg)
		alice, ca := Player{1, "alice"}, &client{}
		if _, err := a.Watch(t.Context(), alice, ca); err != nil {
			t.Fatal(err)
		}
		if err := a.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		waitTurn(t, ca)
		log.setRefuse() // a is lost while alice is to act
		if err := a.Act(t.Context(), alice, engine.Call, 0); !errors.Is(err, ErrMoved) {
			t.Fatalf("act at the lost table: %v", err)
		}
		<-a.Done()
		hands := b.numHands()

		h := log.last()
		models := &memModels{m: map[string][]byte{}}
		cfg.HandLog, cfg.BotModels = &memLog{hands: []*loggedHand{h}}, models
		cfg.Resume = &Resume{State: h.start, Hand: h.rebuild(t), HandCfg: h.cfg, Stacks: map[int64]int64{1: 1000}}
		bt := mustNew(t, cfg)
		cb := &client{}
		if _, err := bt.Watch(t.Context(), alice, cb); err != nil {
			t.Fatal(err)
		}
		playWith(t, bt, b, hands+1, map[Player]*client{alice: cb}, checkFold)
		if err := bt.Close(t.Context(), "test over"); err != nil {
			t.Fatal(err)
		}
		models.mu.Lock()
		defer models.mu.Unlock()
		if _, ok := models.m["bayes/"]; ok || len(models.m["bayes/alice"]) == 0 {
			t.Errorf("the resumed hand was learnt as %v, want bayes/alice", keys(models.m))
		}
	})
}

// TestClosingIsLogged closes tables with a log: the closing is logged before
// anyone is paid out, and a table whose log refuses it (another node owns
// the table now) does not close but moves, paying nobody.
func TestClosingIsLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		alice := Player{1, "alice"}
		for _, refuse := range []bool{false, true} {
			log := &memLog{}
			cfg := testConfig(b, "call")
			cfg.HandLog = log
			tb := mustNew(t, cfg)
			if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
				t.Fatal(err)
			}
			if refuse {
				log.setRefuse()
			}
			if err := tb.Close(t.Context(), "test over"); err != nil {
				t.Fatal(err)
			}
			log.mu.Lock()
			closed := log.closed
			log.mu.Unlock()
			b.mu.Lock()
			credits := b.credits[1]
			b.mu.Unlock()
			switch {
			case !refuse && (!closed || tb.Moved() || credits != 10_000):
				t.Errorf("closed: logged %v, moved %v, credits %d; want logged, not moved, 10000", closed, tb.Moved(), credits)
			case refuse && (!tb.Moved() || credits != 9_000):
				t.Errorf("close refused by the log: moved %v, credits %d; want moved, 9000 (the seat is the new owner's)", tb.Moved(), credits)
			}
		}
	})
}

// TestResumedHeadsUpWithoutItsPlayerCloses takes over a heads-up game whose
// node was lost before its first hand, its player's buy-in not logged (it goes
// back to their credits): the game, without its player, closes at once
// instead of waiting for its idle time with the bot alone.
func TestResumedHeadsUpWithoutItsPlayerCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1), &memLog{}
		cfg, err := HeadsUpConfig("hu-test", HeadsUp{Bot: "call", Chips: 1000, SmallBlind: 10, BigBlind: 20})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Bank, cfg.HandLog = b, log
		a := mustNew(t, cfg)
		log.mu.Lock()
		opened := *log.opened
		log.mu.Unlock()
		if err := a.HandOver(t.Context(), "its node is lost"); err != nil {
			t.Fatal(err)
		}
		cfg.HandLog, cfg.Resume = &memLog{}, &Resume{State: opened, Stacks: map[int64]int64{}}
		bt := mustNew(t, cfg)
		synctest.Wait()
		select {
		case <-bt.Done():
		default:
			t.Fatal("the game without its player is still open")
		}
		if bt.Moved() {
			t.Error("the game moved instead of closing")
		}
	})
}
