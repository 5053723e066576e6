package casino

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

// fuzzHand deals a three card stud hand to seats players with the given stacks
// (at least the ante each) and plays moves random legal actions into it. It
// returns nil when the hand is over by then.
func fuzzHand(t testing.TB, seats, stack uint8, moves uint8) *engine.Hand {
	n := 2 + int(seats)%(engine.MaxSeats-1)
	cfg := engine.Config{Variant: engine.StudThree, Ante: engine.DefaultStudAnte, Stacks: make([]int64, n),
		Seed: cards.SeedFromUint64(uint64(seats)<<16 | uint64(stack)<<8 | uint64(moves))}
	for i := range cfg.Stacks {
		cfg.Stacks[i] = cfg.Ante + int64(stack)*int64(i+1)%40
	}
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(moves), 9))
	for range moves % 8 {
		if h.Over() {
			return nil
		}
		if err := h.Apply(engine.RandomAction(r, h.Legal())); err != nil {
			t.Fatal(err)
		}
	}
	if h.Over() {
		return nil
	}
	return h
}

// FuzzClientReply feeds the dealer's reading of a player's frames (ParseLogin for
// the answer to login, Reply for the answer to bet1 and bet2, as login and decide
// use them) any text, at a point of a hand: no panic; a refused text wraps
// ErrBadMessage or ErrIllegalBet; an accepted login writes back to the same text;
// an accepted reply is legal on the engine, puts in between the call and the call
// plus MaxRaise, and is the one the protocol writes for it.
func FuzzClientReply(f *testing.F) {
	for _, s := range []string{"fold", "bet:0", "bet:1", "bet:2", "bet:10", "bet:11", "bet:12", "bet:007", "bet:-1", "bet:",
		"bet:99999999999999", "bet:9223372036854775807", "bet: 1", "Bet:1", "fold ", "bet:1:2", "octocat:Cat",
		"a:b:c", ":", ":Cat", "octocat:", "", "login", "\x00:\x00", "x\n1\tmallory:Cat", "\x1b[2J:Cat", "-A1:Cat",
		"octocat:\u202eCat"} {
		for moves := range uint8(4) {
			f.Add(s, uint8(moves), uint8(10+moves), moves)
		}
	}
	f.Fuzz(func(t *testing.T, text string, seats, stack, moves uint8) {
		if id, avatar, err := ParseLogin(text); err != nil {
			if !errors.Is(err, ErrBadMessage) {
				t.Fatalf("ParseLogin(%q): %v wraps no ErrBadMessage", text, err)
			}
		} else if id == "" || avatar == "" || Login(id, avatar) != text {
			t.Fatalf("ParseLogin(%q) = %q, %q", text, id, avatar)
		}
		h := fuzzHand(t, seats, stack, moves)
		if h == nil {
			return
		}
		l := h.Legal()
		a, err := Reply(l, text)
		if err != nil {
			if !errors.Is(err, ErrBadMessage) && !errors.Is(err, ErrIllegalBet) {
				t.Fatalf("Reply(%q): %v wraps neither ErrBadMessage nor ErrIllegalBet", text, err)
			}
			return
		}
		if err := h.Clone().Apply(a); err != nil {
			t.Fatalf("Reply(%q) = %v, which the engine refuses: %v", text, a, err)
		}
		n, fold, _ := ParseReply(text)
		want := Bet(n)
		if fold {
			want = MsgFold
		} else if toCall := l.CurrentBet - l.Committed; n < toCall || n > toCall+MaxRaise || n > l.Stack {
			t.Fatalf("Reply(%q) accepted %d chips with %d to call and %d in the stack", text, n, toCall, l.Stack)
		}
		if got := ChipsReply(l, a); got != want {
			t.Fatalf("Reply(%q) = %v, written back as %q", text, a, got)
		}
	})
}

// FuzzDealerMessage feeds a client's reading of the dealer's messages
// (ParseMessage, ViewOf and the reference strategy, as Client.Play does) any text:
// no panic; a refused text wraps ErrBadMessage; an accepted one writes back to a
// text that parses to the same message; the reference bot's answer to a question
// is a reply the dealer can read.
func FuzzDealerMessage(f *testing.F) {
	for _, s := range []string{"login", "login:x", "done:game over", "done:", "status:win:AS:AD:3C", "status:lose:10S:QH:2C",
		"status:draw:AS:AD:3C", "bet1:19:3:0:2C:AH:up:QH:AH:KH", "bet2:14:13:0:2C:AH:JD:up:QH:10D:AH:JD",
		"bet1:0:3:5:2C:AH:up:AH", "bet1:19:3:0:2C:AH:up:QH:KH", "bet2:1:1:1:2C:AH:JD:up:QH", "bet1:-1:3:0:2C:AH:up:AH",
		"bet1:99999999999999999999:3:0:2C:AH:up:AH", "bet9:1", ""} {
		f.Add(s)
	}
	// and every question of a few hands played at random, as the dealer asks them
	for i := range uint8(4) {
		h := fuzzHand(f, i, 20+i, 0)
		r := rand.New(rand.NewPCG(uint64(i), 1))
		for !h.Over() {
			f.Add(question(h, h.ToAct()))
			if err := h.Apply(engine.RandomAction(r, h.Legal())); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMessage(text)
		if err != nil {
			if !errors.Is(err, ErrBadMessage) {
				t.Fatalf("ParseMessage(%q): %v wraps no ErrBadMessage", text, err)
			}
			return
		}
		var again string
		switch {
		case m.Bet1 != nil:
			again = m.Bet1.String()
		case m.Bet2 != nil:
			again = m.Bet2.String()
		case m.Status != nil:
			again = m.Status.String()
		}
		if again != "" {
			if m2, err := ParseMessage(again); err != nil || !reflect.DeepEqual(m, m2) {
				t.Fatalf("%q wrote back as %q, which parses to %+v, %v", text, again, m2, err)
			}
		}
		if m.Kind != MsgBet1 && m.Kind != MsgBet2 {
			return
		}
		v, err := ViewOf(m)
		if err != nil {
			if !errors.Is(err, ErrBadMessage) {
				t.Fatalf("ViewOf(%q): %v wraps no ErrBadMessage", text, err)
			}
			return
		}
		reply := ChipsReply(v.Legal, Reference{}.Act(&v))
		if _, _, err := ParseReply(reply); err != nil {
			t.Fatalf("the reference bot answers %q with %q: %v", text, reply, err)
		}
	})
}
