package casino

import (
	"errors"
	"testing"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
)

func TestFormatCard(t *testing.T) {
	for in, want := range map[string]string{"2c": "2C", "Ts": "10S", "Qh": "QH", "Ad": "AD", "Jc": "JC"} {
		if got := FormatCard(cards.MustParse(in)); got != want {
			t.Errorf("FormatCard(%s) = %s, want %s", in, got, want)
		}
		if c, err := ParseCard(want); err != nil || c != cards.MustParse(in) {
			t.Errorf("ParseCard(%s) = %v, %v", want, c, err)
		}
	}
}

func TestMessagesRoundTrip(t *testing.T) {
	c := cards.MustParse
	b1 := Bet1{Stack: 99, Pot: 3, ToCall: 0, Hole: c("Ts"), Up: c("Qh"), Ups: []cards.Card{c("Qh"), c("2c"), c("Ad")}}
	b2 := Bet2{Stack: 90, Pot: 21, ToCall: 4, Hole: c("Ts"), Up1: c("Qh"), Up2: c("3d"), Ups: [][2]cards.Card{{c("Qh"), c("3d")}, {c("Ad"), c("Ac")}}}
	st := Status{Win: true, Cards: [3]cards.Card{c("As"), c("Ad"), c("3c")}}
	for _, tc := range []struct{ got, want string }{
		{b1.String(), "bet1:99:3:0:10S:QH:up:QH:2C:AD"},
		{b2.String(), "bet2:90:21:4:10S:QH:3D:up:QH:3D:AD:AC"},
		{st.String(), "status:win:AS:AD:3C"},
		{Status{Cards: st.Cards}.String(), "status:lose:AS:AD:3C"},
		{Done("too slow"), "done:too slow"},
		{Done("a:b"), "done:a;b"},
		{Bet(12), "bet:12"},
		{Login("octocat", "Cat"), "octocat:Cat"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	for _, s := range []string{b1.String(), b2.String(), st.String(), "login", "done:no chips"} {
		m, err := ParseMessage(s)
		if err != nil {
			t.Fatalf("ParseMessage(%q): %v", s, err)
		}
		var again string
		switch m.Kind {
		case MsgBet1:
			again = m.Bet1.String()
		case MsgBet2:
			again = m.Bet2.String()
		case MsgStatus:
			again = m.Status.String()
		case MsgLogin:
			again = MsgLogin
		case MsgDone:
			again = Done(m.Reason)
		}
		if again != s {
			t.Errorf("round trip %q -> %q", s, again)
		}
	}
	for _, bad := range []string{"", "bet1:1:2", "bet2:1:2:3:AS:KS:QS:up:2C", "status:maybe:AS:KS:QS", "bet1:x:1:1:AS:KS:up:KS", "hello"} {
		if _, err := ParseMessage(bad); !errors.Is(err, ErrBadMessage) {
			t.Errorf("ParseMessage(%q) = %v, want ErrBadMessage", bad, err)
		}
	}
}

func TestParseReplies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int64
		fold bool
		ok   bool
	}{
		{"fold", 0, true, true}, {"bet:0", 0, false, true}, {"bet:15", 15, false, true},
		{"bet:-1", 0, false, false}, {"bet:+1", 0, false, false}, {"bet: 1", 0, false, false},
		{"bet:1\n", 0, false, false}, {"Fold", 0, false, false}, {"bet:", 0, false, false},
		{"bet:99999999999999999999", 0, false, false}, {"call", 0, false, false}, {"", 0, false, false},
	} {
		n, fold, err := ParseReply(tc.in)
		if (err == nil) != tc.ok || n != tc.n || fold != tc.fold {
			t.Errorf("ParseReply(%q) = %d, %v, %v", tc.in, n, fold, err)
		}
	}
	for _, tc := range []struct {
		in       string
		id, avat string
		ok       bool
	}{{"octocat:Cat", "octocat", "Cat", true}, {"octocat", "", "", false}, {":Cat", "", "", false}, {"a:b:c", "", "", false}, {"a:", "", "", false}} {
		id, av, err := ParseLogin(tc.in)
		if (err == nil) != tc.ok || id != tc.id || av != tc.avat {
			t.Errorf("ParseLogin(%q) = %q, %q, %v", tc.in, id, av, err)
		}
	}
}

// TestReplyBounds checks the legal replies against a real engine hand: the opener of
// round one with nothing to call may bet 0..10, never more than its stack.
func TestReplyBounds(t *testing.T) {
	h, err := engine.New(engine.Config{Variant: engine.StudThree, Stacks: []int64{6, 50, 50}})
	if err != nil {
		t.Fatal(err)
	}
	l := h.Legal()
	toCall := l.CurrentBet - l.Committed
	for n := int64(0); n <= 12; n++ {
		_, err := Reply(l, Bet(n))
		want := n >= toCall && n <= toCall+MaxRaise && n <= l.Stack
		if (err == nil) != want {
			t.Errorf("seat %d stack %d: bet:%d: err %v, want ok=%v", l.Seat, l.Stack, n, err, want)
		}
	}
	if a, err := Reply(l, "fold"); err != nil || a.Kind != engine.Fold {
		t.Errorf("fold: %v %v", a, err)
	}
	if _, err := Reply(l, "bet:x"); !errors.Is(err, ErrBadMessage) {
		t.Errorf("garbage: %v", err)
	}
}
