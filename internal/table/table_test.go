package table

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/eval"
	"github.com/felt-poker/felt/internal/history"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
)

// bank is an in-memory Bank: credits per user and the hands recorded.
type bank struct {
	mu      sync.Mutex
	credits map[int64]int64
	start   map[int64]int64
	hands   []store.Hand
}

func newBank(users ...int64) *bank {
	b := &bank{credits: map[int64]int64{}, start: map[int64]int64{}}
	for _, u := range users {
		b.credits[u], b.start[u] = 10_000, 10_000
	}
	return b
}

func (b *bank) BuyIn(_ context.Context, u int64, _ string, amount int64) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.credits[u] < amount {
		return 0, house.ErrInsufficientCredits
	}
	b.credits[u] -= amount
	return b.credits[u], nil
}

func (b *bank) CashOut(_ context.Context, u int64, _ string, amount int64) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.credits[u] += amount
	return b.credits[u], nil
}

func (b *bank) RecordHand(_ context.Context, h store.Hand) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var sum int64
	for _, p := range h.Players {
		sum += p.Net
	}
	if sum != 0 {
		return 0, house.ErrUnbalancedHand
	}
	b.hands = append(b.hands, h)
	return int64(len(b.hands)), nil
}

// checkLedger checks that every user's credits are their start plus their nets in the
// hands recorded: no chip was made or lost between the ledger and the table.
func (b *bank) checkLedger(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	want := map[int64]int64{}
	for u := range b.credits {
		want[u] = b.start[u]
	}
	for _, h := range b.hands {
		for _, p := range h.Players {
			if p.UserID != 0 {
				want[p.UserID] += p.Net
			}
		}
	}
	for u, c := range b.credits {
		if c != want[u] {
			t.Errorf("user %d has %d credits, want %d (start + nets)", u, c, want[u])
		}
	}
}

func (b *bank) numHands() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.hands)
}

// client records the messages a watcher receives.
type client struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (c *client) Send(m []byte) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
}

func (c *client) all() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.msgs...)
}

// last returns the newest state received, or nil.
func (c *client) last(t *testing.T) *State {
	msgs := c.all()
	for i := len(msgs) - 1; i >= 0; i-- {
		var m StateMsg
		if err := json.Unmarshal(msgs[i], &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "state" {
			return m.State
		}
	}
	return nil
}

func (c *client) notices(t *testing.T, code string) int {
	n := 0
	for _, b := range c.all() {
		var m NoticeMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "notice" && m.Code == code {
			n++
		}
	}
	return n
}

func testConfig(b Bank, bots ...string) Config {
	return Config{
		Name: "test", Variant: NoLimit, Seats: 4, SmallBlind: 10, BigBlind: 20,
		MinBuyIn: 200, MaxBuyIn: 2000, ActionTime: 10 * time.Second, TimeBank: 5 * time.Second,
		BotDelay: 50 * time.Millisecond, HandPause: time.Second, Bots: bots, Bank: b,
	}
}

func mustNew(t *testing.T, cfg Config) *Table {
	t.Helper()
	tb, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close(context.Background(), "test over") })
	return tb
}

// checkChips checks the table's own count: on the table = in - out.
func checkChips(t *testing.T, tb *Table) {
	t.Helper()
	on, in, out, err := tb.Chips(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if on != in-out {
		t.Fatalf("chips on the table %d, in %d - out %d = %d", on, in, out, in-out)
	}
}

// play acts for each seated player whenever its last state says it is to act,
// with a random legal action, until the bank has recorded n hands or no hand has
// ended for ten minutes (the players went broke).
func play(t *testing.T, tb *Table, b *bank, r *rand.Rand, n int, seats map[Player]*client) {
	t.Helper()
	playWith(t, tb, b, n, seats, func(l *LegalInfo) (engine.ActionKind, int64) { return randomLegal(r, l) })
}

// checkFold checks when it may and folds otherwise: a player who never loses
// more than the blinds.
func checkFold(l *LegalInfo) (engine.ActionKind, int64) {
	if slices.Contains(l.Actions, "check") {
		return engine.Check, 0
	}
	return engine.Fold, 0
}

// playWith is play with the players' actions chosen by choose.
func playWith(t *testing.T, tb *Table, b *bank, n int, seats map[Player]*client, choose func(*LegalInfo) (engine.ActionKind, int64)) {
	t.Helper()
	last, since := 0, 0
	for range 10_000 {
		if h := b.numHands(); h >= n {
			return
		} else if h != last {
			last, since = h, 0
		} else if since++; since > 6000 {
			if h < 3 {
				t.Fatalf("only %d hands played", h)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		for p, c := range seats {
			s := c.last(t)
			if s == nil || s.Hand == nil || s.Hand.Legal == nil {
				continue
			}
			kind, amount := choose(s.Hand.Legal)
			if err := tb.Act(t.Context(), p, kind, amount); err != nil {
				t.Fatalf("%s %v %d: %v", p.Name, kind, amount, err)
			}
		}
	}
	t.Fatalf("only %d hands played", b.numHands())
}

func TestFirstRound(t *testing.T) {
	ev := func(k engine.EventKind, st engine.Street, seat int8, forced bool) engine.Event {
		return engine.Event{Kind: k, Street: st, Seat: seat, Forced: forced}
	}
	vpip, pfr := firstRound([]engine.Event{
		ev(engine.EvSmallBlind, engine.Preflop, 0, false), ev(engine.EvBigBlind, engine.Preflop, 1, false),
		ev(engine.EvCall, engine.Preflop, 2, false), ev(engine.EvRaise, engine.Preflop, 3, false),
		ev(engine.EvCall, engine.Preflop, 0, false), ev(engine.EvCheck, engine.Preflop, 1, false),
		ev(engine.EvBet, engine.Flop, 1, false), ev(engine.EvRaise, engine.StudOne, 4, true),
		ev(engine.EvBet, engine.StudOne, 5, false),
	})
	if got := fmt.Sprint(vpip.Seats(), pfr.Seats()); got != "[0 2 3 5] [3 5]" {
		t.Errorf("vpip, pfr = %s", got)
	}
}

func randomLegal(r *rand.Rand, l *LegalInfo) (engine.ActionKind, int64) {
	name := l.Actions[r.IntN(len(l.Actions))]
	kind, _ := ParseAction(name)
	if kind == engine.Bet || kind == engine.Raise {
		return kind, l.MinTo + r.Int64N(l.MaxTo-l.MinTo+1)
	}
	return kind, 0
}

func TestHandsWithBots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b, "call", "random"))
		alice, c := Player{1, "alice"}, &client{}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		play(t, tb, b, rand.New(rand.NewPCG(1, 2)), 20, map[Player]*client{alice: c})
		checkChips(t, tb)
		if err := tb.Stand(t.Context(), alice); err != nil && !errors.Is(err, ErrNotSeated) { // not seated: she went broke
			t.Fatal(err)
		}
		time.Sleep(time.Minute) // the hand in play ends with alice checking or folding
		synctest.Wait()
		if err := tb.Close(t.Context(), "test over"); err != nil {
			t.Fatal(err)
		}
		on, in, out, _ := tb.Chips(t.Context())
		if on != 0 || in != out {
			t.Fatalf("after closing: on %d, in %d, out %d", on, in, out)
		}
		b.checkLedger(t)
		checkVisibility(t, c.all(), 1)
		for _, h := range b.hands {
			if h.PHH == "" {
				t.Fatal("hand recorded without its PHH")
			}
		}
		checkFairness(t, c.all(), b.hands)
		checkBest(t, c.all())
	})
}

// checkBest checks every hand shown in a finished hand's result: its best five
// are distinct cards of its own and the board's, and rank as the seven do.
func checkBest(t *testing.T, msgs [][]byte) {
	t.Helper()
	n := 0
	for _, b := range msgs {
		var m StateMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "state" || m.State.Hand == nil || m.State.Hand.Result == nil {
			continue
		}
		r := m.State.Hand.Result
		for _, sh := range r.Shown {
			all, err := cards.ParseList(strings.Join(append(append([]string{}, sh.Cards...), r.Board...), ""))
			if err != nil {
				t.Fatal(err)
			}
			best, err := cards.ParseList(strings.Join(sh.Best, ""))
			if err != nil || len(best) != 5 {
				t.Fatalf("hand %d, seat %d: best %v (%v)", m.State.Hand.Number, sh.Seat, sh.Best, err)
			}
			for _, c := range best {
				if !slices.Contains(all, c) {
					t.Fatalf("hand %d, seat %d: best %v has %s, not in %v", m.State.Hand.Number, sh.Seat, sh.Best, c, all)
				}
			}
			if eval.Evaluate(best...) != eval.Evaluate(all...) {
				t.Fatalf("hand %d, seat %d: best %v does not rank as %v", m.State.Hand.Number, sh.Seat, sh.Best, all)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no hand was shown")
	}
}

func TestBestCards(t *testing.T) {
	parse := func(s string) []cards.Card {
		cs, err := cards.ParseList(s)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	for _, tc := range []struct {
		hole, board string
		variant     engine.Variant
		want        string
	}{
		{"AsKs", "QsJsTs2c3d", engine.Holdem, "AsKsQsJsTs"},
		{"2c2d", "KhKdKs9h4c", engine.Holdem, "KsKhKd2d2c"},
		{"Ah5d", "2c3d4s9hTh", engine.Holdem, "5d4s3d2cAh"},
		{"7h2d", "AcKdQhJs9c", engine.Holdem, "AcKdQhJs9c"},
		{"AsKsQs", "", engine.StudThree, "AsKsQs"},
	} {
		got := strings.Join(bestCards(parse(tc.hole), parse(tc.board), tc.variant), "")
		if got != tc.want {
			t.Errorf("best of %s + %s = %s, want %s", tc.hole, tc.board, got, tc.want)
		}
	}
}

// checkFairness checks that every recorded hand verifies against the commitment
// its watcher saw before the hand was over, that the watcher never got the seed
// (which deals every card of the hand, folded ones too), and the statistics
// recorded with it.
func checkFairness(t *testing.T, msgs [][]byte, hands []store.Hand) {
	t.Helper()
	noSeedSent(t, msgs, hands)
	published := map[string]string{} // hand key -> commitment seen while the hand was live
	for _, b := range msgs {
		var m StateMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "state" || m.State.Hand == nil || m.State.Hand.Over {
			continue
		}
		published[m.State.Hand.HandKey] = m.State.Hand.SeedSHA256
	}
	for _, h := range hands {
		p, err := history.Parse([]byte(h.PHH))
		if err != nil {
			t.Fatal(err)
		}
		seen, ok := published[p.HandKey]
		if !ok {
			t.Fatalf("hand %s: no commitment was published", p.HandKey)
		}
		if _, err := p.Verify(seen); err != nil {
			t.Fatalf("hand %s: %v", p.HandKey, err)
		}
		if h.BigBlind != 20 {
			t.Errorf("hand %s recorded with big blind %d", p.HandKey, h.BigBlind)
		}
		for _, pl := range h.Players {
			if pl.PFR && !pl.VPIP {
				t.Errorf("hand %s: seat %d raised first but is not VPIP", p.HandKey, pl.Seat)
			}
		}
	}
}

// noSeedSent checks that no message sent the seed of a recorded hand: it deals
// every card of the hand, folded ones too.
func noSeedSent(t *testing.T, msgs [][]byte, hands []store.Hand) {
	t.Helper()
	for _, h := range hands {
		p, err := history.Parse([]byte(h.PHH))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range msgs {
			if p.Seed == "" || bytes.Contains(b, []byte(p.Seed)) {
				t.Fatalf("hand %s: its seed %q was sent to a watcher", p.HandKey, p.Seed)
			}
		}
	}
}

// checkVisibility walks every message a recipient got and fails on any card of
// another seat that is not "??" unless that seat showed it in the same hand.
// viewerID 0 is a spectator.
func checkVisibility(t *testing.T, msgs [][]byte, viewerID int64) {
	t.Helper()
	for _, b := range msgs {
		var m StateMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "state" {
			continue
		}
		s := m.State
		own := -1
		if s.You != nil {
			own = s.You.Seat
			if viewerID == 0 {
				t.Fatal("a spectator got a seat")
			}
		}
		shown := map[int]map[string]bool{}
		if s.Hand != nil {
			for _, e := range s.Hand.Events {
				if e.Kind == "show" {
					shown[*e.Seat] = map[string]bool{}
					for _, c := range e.Cards {
						shown[*e.Seat][c] = true
					}
				}
				if e.Kind == "hole_cards" && *e.Seat != own {
					for _, c := range e.Cards {
						if c != Hidden && !shown[*e.Seat][c] {
							// a later show event may reveal it: check against all shows
							if !showsCard(s.Hand.Events, *e.Seat, c) {
								t.Fatalf("recipient %d saw hole card %s of seat %d in event %d", viewerID, c, *e.Seat, e.I)
							}
						}
					}
				}
				if e.Kind == "burn" {
					t.Fatal("a burn was sent")
				}
			}
		}
		for _, seat := range s.Seats {
			if seat.Seat == own {
				continue
			}
			for i, c := range seat.Cards {
				hole := i < 2 || s.Info.Variant == StudThree && i == 0
				if s.Info.Variant == StudThree {
					hole = i == 0
				}
				if hole && c != Hidden && !showsCard(s.Hand.Events, seat.Seat, c) {
					t.Fatalf("recipient %d saw hole card %s of seat %d (hand %d)", viewerID, c, seat.Seat, s.Hand.Number)
				}
			}
		}
	}
}

func showsCard(events []EventInfo, seat int, card string) bool {
	for _, e := range events {
		if e.Kind == "show" && *e.Seat == seat {
			for _, c := range e.Cards {
				if c == card {
					return true
				}
			}
		}
	}
	return false
}

func TestSpectatorsAndSeatsSeeOnlyTheirCards(t *testing.T) {
	for _, variant := range []string{NoLimit, FixedLimit, StudThree} {
		t.Run(variant, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := newBank(1, 2)
				cfg := testConfig(b, "call")
				cfg.Variant = variant
				if variant == StudThree {
					cfg.SmallBlind, cfg.BigBlind, cfg.Ante, cfg.MinBuyIn, cfg.MaxBuyIn = 0, 0, 1, 10, 100
				}
				tb := mustNew(t, cfg)
				spec := &client{}
				if _, err := tb.Watch(t.Context(), Player{}, spec); err != nil {
					t.Fatal(err)
				}
				seats := map[Player]*client{}
				for _, p := range []Player{{1, "alice"}, {2, "bob"}} {
					c := &client{}
					seats[p] = c
					if _, err := tb.Watch(t.Context(), p, c); err != nil {
						t.Fatal(err)
					}
					if err := tb.Sit(t.Context(), p, -1, cfg.MinBuyIn*5); err != nil {
						t.Fatal(err)
					}
				}
				play(t, tb, b, rand.New(rand.NewPCG(3, 4)), 15, seats)
				if err := tb.Close(t.Context(), "done"); err != nil {
					t.Fatal(err)
				}
				checkVisibility(t, spec.all(), 0)
				noSeedSent(t, spec.all(), b.hands)
				for p, c := range seats {
					checkVisibility(t, c.all(), p.ID)
					noSeedSent(t, c.all(), b.hands)
				}
				b.checkLedger(t)
				if len(spec.all()) == 0 {
					t.Fatal("the spectator got nothing")
				}
			})
		})
	}
}

func TestTimeoutsSitOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		cfg := testConfig(b, "call")
		cfg.SitOutLimit = time.Hour // TestSittingOutTooLongStandsUp tests the limit
		tb := mustNew(t, cfg)
		alice, c := Player{1, "alice"}, &client{}
		tb.Watch(t.Context(), alice, c)
		if err := tb.Sit(t.Context(), alice, 3, 1000); err != nil {
			t.Fatal(err)
		}
		// alice never acts: each decision times out after 10 s (+5 s of bank the first time).
		time.Sleep(5 * time.Minute)
		synctest.Wait()
		if c.notices(t, "sat_out") != 1 {
			t.Fatalf("sat_out notices: %d", c.notices(t, "sat_out"))
		}
		s := c.last(t)
		if s.You == nil || !s.You.SittingOut || s.You.Status != StatusSittingOut || s.You.TimeBankMS != 0 {
			t.Fatalf("you: %+v", s.You)
		}
		n := b.numHands()
		time.Sleep(time.Minute)
		synctest.Wait()
		if b.numHands() != n {
			t.Fatal("hands dealt with only a bot sitting in")
		}
		if err := tb.SitIn(t.Context(), alice); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if s := c.last(t); s.Hand == nil || s.Hand.Over || !s.Seats[3].InHand {
			t.Fatal("no hand dealt after sitting in")
		}
		tb.Close(t.Context(), "done")
		b.checkLedger(t)
	})
}

func TestDisconnectGraceReconnectAndCashOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		tb := mustNew(t, testConfig(b, "raise"))
		alice, c := Player{1, "alice"}, &client{}
		id, _ := tb.Watch(t.Context(), alice, c)
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		s := c.last(t)
		if s.Hand == nil || s.Hand.Over {
			t.Fatal("no hand in play")
		}
		mine := s.Seats[s.You.Seat].Cards
		if len(mine) != 2 || mine[0] == Hidden {
			t.Fatalf("own cards %v", mine)
		}
		tb.Unwatch(t.Context(), id)
		time.Sleep(time.Second)
		synctest.Wait()
		// Back within the grace: the same seat and, if the hand is the same, the same cards.
		c2 := &client{}
		id, _ = tb.Watch(t.Context(), alice, c2)
		synctest.Wait()
		s2 := c2.last(t)
		if s2.You == nil || s2.You.Seat != s.You.Seat || s2.You.Status == StatusAway {
			t.Fatalf("after reconnecting: you %+v", s2.You)
		}
		if s2.Hand.Number == s.Hand.Number && fmt.Sprint(s2.Seats[s.You.Seat].Cards) != fmt.Sprint(mine) {
			t.Fatalf("cards %v after reconnecting, had %v", s2.Seats[s.You.Seat].Cards, mine)
		}
		// Gone for good: after 2 minutes the seat is freed and the chips are back.
		tb.Unwatch(t.Context(), id)
		spec := &client{}
		tb.Watch(t.Context(), Player{}, spec)
		time.Sleep(30 * time.Second)
		synctest.Wait()
		if st := spec.last(t).Seats[s.You.Seat].Status; st != StatusAway {
			t.Fatalf("seat status %s during the grace", st)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if st := spec.last(t).Seats[s.You.Seat]; st.Status != StatusEmpty {
			t.Fatalf("seat %+v after the grace", st)
		}
		checkChips(t, tb)
		b.checkLedger(t)
		tb.Close(t.Context(), "done")
	})
}

func TestBadInputChangesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1, 2)
		b.credits[2], b.start[2] = 100, 100
		tb := mustNew(t, testConfig(b, "call"))
		alice, bob := Player{1, "alice"}, Player{2, "bob"}
		c := &client{}
		tb.Watch(t.Context(), alice, c)
		ctx := t.Context()
		for _, tc := range []struct {
			name string
			err  error
			f    func() error
		}{
			{"anonymous sit", ErrAnonymous, func() error { return tb.Sit(ctx, Player{}, -1, 500) }},
			{"buy-in too small", house.ErrInvalid, func() error { return tb.Sit(ctx, alice, -1, 10) }},
			{"buy-in too big", house.ErrInvalid, func() error { return tb.Sit(ctx, alice, -1, 1e9) }},
			{"seat out of range", house.ErrInvalid, func() error { return tb.Sit(ctx, alice, 9, 500) }},
			{"seat of a bot", ErrSeatTaken, func() error { return tb.Sit(ctx, alice, 0, 500) }},
			{"insufficient credits", house.ErrInsufficientCredits, func() error { return tb.Sit(ctx, bob, -1, 500) }},
			{"act unseated", ErrNotSeated, func() error { return tb.Act(ctx, alice, engine.Check, 0) }},
			{"stand unseated", ErrNotSeated, func() error { return tb.Stand(ctx, alice) }},
			{"sit", nil, func() error { return tb.Sit(ctx, alice, 2, 500) }},
			{"sit twice", ErrSeated, func() error { return tb.Sit(ctx, alice, 3, 500) }},
			{"leave kind", engine.ErrIllegalAction, func() error {
				time.Sleep(1500 * time.Millisecond)
				synctest.Wait()
				return tb.Act(ctx, alice, engine.Leave, 0)
			}},
			{"chat anonymous", ErrAnonymous, func() error { return tb.Chat(ctx, Player{}, "", "hi") }},
			{"chat empty", house.ErrInvalid, func() error { return tb.Chat(ctx, alice, "", "  ") }},
		} {
			err := tc.f()
			if (tc.err == nil) != (err == nil) || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
			}
			checkChips(t, tb)
		}
		// Wrong turn and bad amounts, whoever is to act.
		s := c.last(t)
		if s.Hand == nil || s.Hand.Over {
			t.Fatal("no hand")
		}
		before := len(s.Hand.Events)
		if s.Hand.Legal == nil {
			if err := tb.Act(ctx, alice, engine.Fold, 0); !errors.Is(err, engine.ErrNotYourTurn) {
				t.Fatalf("out of turn: %v", err)
			}
		} else {
			if err := tb.Act(ctx, alice, engine.Raise, s.Hand.Legal.MaxTo+1); !errors.Is(err, engine.ErrBadAmount) && !errors.Is(err, engine.ErrIllegalAction) {
				t.Fatalf("too big a raise: %v", err)
			}
		}
		synctest.Wait()
		if s2 := c.last(t); s2.Hand.Number == s.Hand.Number && len(s2.Hand.Events) != before {
			t.Fatal("a refused action changed the hand")
		}
		for range 5 {
			tb.Chat(ctx, alice, "", "hello")
		}
		if err := tb.Chat(ctx, alice, "", "one too many"); !errors.Is(err, chat.ErrRateLimited) {
			t.Fatalf("chat flood: %v", err)
		}
		tb.Close(ctx, "done")
		b.checkLedger(t)
		if b.credits[2] != 100 {
			t.Fatal("bob's credits changed")
		}
	})
}

func TestBlindSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		cfg := testConfig(b, "call", "call")
		cfg.Schedule = Schedule{EveryHands: 2}
		tb := mustNew(t, cfg)
		c := &client{}
		tb.Watch(t.Context(), Player{}, c)
		play(t, tb, b, nil, 5, nil)
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		s := c.last(t)
		if s.Hand.Number < 5 || s.Hand.BigBlind != 20<<((s.Hand.Number-1)/2) || s.Info.Level != int((s.Hand.Number-1)/2) {
			t.Fatalf("hand %d: big blind %d, level %d", s.Hand.Number, s.Hand.BigBlind, s.Info.Level)
		}
		tb.Close(t.Context(), "done")
	})
}

func TestHeadsUpUntilBroke(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank(1)
		cfg := testConfig(b, "raise")
		cfg.Seats, cfg.HeadsUp, cfg.Private, cfg.BotStack = 2, true, true, 1000
		closed := make(chan string, 1)
		cfg.Hooks.Closed = func(name string) { closed <- name }
		tb := mustNew(t, cfg)
		alice, c := Player{1, "alice"}, &client{}
		if err := tb.Sit(t.Context(), alice, -1, 1000); err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Watch(t.Context(), alice, c); err != nil { // a private table: seated first
			t.Fatal(err)
		}
		// alice calls everything: one all-in decides the match.
		for range 1000 {
			time.Sleep(100 * time.Millisecond)
			synctest.Wait()
			select {
			case <-tb.Done():
			default:
				if s := c.last(t); s != nil && s.Hand != nil && s.Hand.Legal != nil {
					tb.Act(t.Context(), alice, engine.Call, 0)
				}
				continue
			}
			break
		}
		if name := <-closed; name != "test" {
			t.Fatal(name)
		}
		if c.notices(t, "table_closed") != 1 {
			t.Fatal("no table_closed notice")
		}
		// alice saw the deciding hand's showdown before the notice.
		if s := c.last(t); s.Hand == nil || !s.Hand.Over || s.Hand.Result == nil {
			t.Fatalf("alice's last state before the table closed: %+v, want the deciding hand's result", s.Hand)
		}
		on, in, out, _ := tb.Chips(t.Context())
		if on != 0 || in != out {
			t.Fatalf("on %d in %d out %d", on, in, out)
		}
		b.checkLedger(t)
		if got := b.credits[1]; got != 9000 && got != 10_000+1000 {
			t.Fatalf("alice ends with %d credits", got)
		}
	})
}

func TestEmptyTableCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBank()
		tb := mustNew(t, testConfig(b, "call", "call"))
		perm := testConfig(b, "call", "call")
		perm.Permanent = true
		pt := mustNew(t, perm)
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		select {
		case <-tb.Done():
		default:
			t.Fatal("a table with nobody in it is still open")
		}
		select {
		case <-pt.Done():
			t.Fatal("a permanent table closed")
		default:
		}
		if b.numHands() != 0 {
			t.Fatal("bots played to an empty room")
		}
		pt.Close(t.Context(), "done")
	})
}

// TestChaosConservesChips has players sit, act, time out, disconnect, come back,
// stand and leave at random; every chip must end in the ledger.
func TestChaosConservesChips(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 99))
				users := []int64{1, 2, 3, 4, 5}
				b := newBank(users...)
				cfg := testConfig(b, "random")
				cfg.Seats = 5
				cfg.Grace = 20 * time.Second
				if seed%2 == 1 {
					cfg.Variant = PotLimit
				}
				tb := mustNew(t, cfg)
				ctx := t.Context()
				type person struct {
					p     Player
					c     *client
					watch int
					on    bool
				}
				var people []*person
				for _, u := range users {
					people = append(people, &person{p: Player{u, fmt.Sprint("p", u)}, c: &client{}, watch: -1})
				}
				for range 400 {
					pp := people[r.IntN(len(people))]
					switch r.IntN(10) {
					case 0:
						if pp.watch < 0 {
							pp.watch, _ = tb.Watch(ctx, pp.p, pp.c)
						} else {
							tb.Unwatch(ctx, pp.watch)
							pp.watch = -1
						}
					case 1:
						tb.Sit(ctx, pp.p, r.IntN(6)-1, 200+r.Int64N(2000))
					case 2:
						tb.Stand(ctx, pp.p)
					case 3:
						tb.Leave(ctx, pp.p)
					case 4:
						tb.SitOut(ctx, pp.p)
					case 5:
						tb.SitIn(ctx, pp.p)
					default:
						if s := pp.c.last(t); s != nil && s.Hand != nil && s.Hand.Legal != nil {
							kind, amount := randomLegal(r, s.Hand.Legal)
							if r.IntN(10) == 0 {
								amount = r.Int64N(5000) - 100 // garbage
							}
							tb.Act(ctx, pp.p, kind, amount)
						}
					}
					time.Sleep(time.Duration(r.IntN(3000)) * time.Millisecond)
					synctest.Wait()
					checkChips(t, tb)
				}
				if err := tb.Close(ctx, "done"); err != nil {
					t.Fatal(err)
				}
				on, in, out, _ := tb.Chips(ctx)
				if on != 0 || in != out {
					t.Fatalf("on %d in %d out %d", on, in, out)
				}
				b.checkLedger(t)
				if b.numHands() == 0 {
					t.Fatal("no hand played")
				}
				for _, pp := range people {
					checkVisibility(t, pp.c.all(), pp.p.ID)
				}
			})
		})
	}
}
