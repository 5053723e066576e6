package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/felt-poker/felt/internal/history"
)

// viewer is one recipient of a table's messages in TestHiddenCardsInTheNewStates.
type viewer struct {
	p Player // ID 0: a spectator
	c *client
}

// actAll plays (a check or a call) for each viewer the table asks to act.
func actAll(t *testing.T, tb *Table, vs []viewer) {
	t.Helper()
	for _, v := range vs {
		if s := v.c.last(t); v.p.ID != 0 && s != nil && s.MyTurn() {
			actAs(t, tb, v.p, s)
			synctest.Wait()
		}
	}
}

// playUntil lets time pass, acting for vs, until done holds of watch's last
// state.
func playUntil(t *testing.T, tb *Table, vs []viewer, watch *client, what string, done func(*State) bool) *State {
	t.Helper()
	for range 3000 {
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		actAll(t, tb, vs)
		if s := watch.last(t); s != nil && done(s) {
			return s
		}
	}
	t.Fatalf("%s never came", what)
	return nil
}

// holeCardsHidden checks, in the raw bytes of every state msgs hold, that no
// hole card another player was dealt in a hand recorded in hands appears
// unless that player showed it: name is the recipient's ("" for a
// spectator). It checks the bytes, not the fields it knows, so a card sent in
// any field (a new one included) is caught. It returns how many states of
// recorded hands it read.
func holeCardsHidden(t *testing.T, msgs [][]byte, hands []*history.PHH, name string) int {
	t.Helper()
	secret := map[string][]string{} // hand key -> cards the recipient may not see
	for _, p := range hands {
		shown := map[string]bool{}
		dealt := map[string][]string{}
		for _, a := range p.Actions {
			f := strings.Fields(a)
			switch {
			case len(f) == 4 && f[0] == "d" && f[1] == "dh":
				dealt[f[2]] = append(dealt[f[2]], cardsOf(f[3])...)
			case len(f) >= 3 && f[1] == "sm":
				shown[f[0]] = true
			}
		}
		for who, cs := range dealt {
			var i int
			if _, err := fmt.Sscanf(who, "p%d", &i); err != nil || i < 1 || i > len(p.Players) {
				t.Fatalf("hand %s: player %q", p.HandKey, who)
			}
			if !shown[who] && p.Players[i-1] != name {
				secret[p.HandKey] = append(secret[p.HandKey], cs...)
			}
		}
		for _, c := range cardsOf(p.Burns) {
			secret[p.HandKey] = append(secret[p.HandKey], c)
		}
	}
	read := 0
	for _, b := range msgs {
		var m StateMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "state" || m.State.Hand == nil {
			continue
		}
		cs, ok := secret[m.State.Hand.HandKey]
		if !ok {
			continue
		}
		read++
		for _, c := range cs {
			if bytes.Contains(b, []byte(`"`+c+`"`)) {
				t.Fatalf("recipient %q got the hidden card %s of hand %s: %s", name, c, m.State.Hand.HandKey, b)
			}
		}
	}
	return read
}

// cardsOf splits PHH cards ("AhKd", "2c8h??") in twos, unknown ones left out.
func cardsOf(s string) []string {
	var out []string
	for i := 0; i+2 <= len(s); i += 2 {
		if c := s[i : i+2]; c != "??" {
			out = append(out, c)
		}
	}
	return out
}

// TestHiddenCardsInTheNewStates deals hands at a table of two bots, bob,
// alice and carol through the states the blind and return rules added:
// carol stands up with 1500 and watches with state.return; alice stands up
// and sits down again in another seat, waiting for the big blind while
// hands are dealt without her, then dealt in at it; the table's node is
// lost in a hand alice plays, and on the node that takes it over she is
// away (her seat marked so, her clock running) until she comes back. Every
// message a spectator, bob (her opponent), carol and alice receive on both
// nodes is read: none holds a hole card of another player that was not
// shown, nor a burned card.
func TestHiddenCardsInTheNewStates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(1, 2, 3), &memLog{}
		cfg := testConfig(b, "call", "call") // bots in seats 0 and 1
		cfg.Seats, cfg.HandLog = 6, log
		a := mustNew(t, cfg)
		spec, alice, bob, carol := viewer{Player{}, &client{}}, viewer{Player{1, "alice"}, &client{}},
			viewer{Player{2, "bob"}, &client{}}, viewer{Player{3, "carol"}, &client{}}
		for _, v := range []viewer{spec, alice, bob, carol} {
			if _, err := a.Watch(t.Context(), v.p, v.c); err != nil {
				t.Fatal(err)
			}
		}
		for p, seat := range map[Player]int{alice.p: 2, bob.p: 3, carol.p: 4} {
			if err := a.Sit(t.Context(), p, seat, 1500); err != nil {
				t.Fatal(err)
			}
		}
		var all []viewer
		defer func() { checkAllHidden(t, b, all) }()
		all = append(all, spec, alice, bob, carol)
		players := []viewer{alice, bob, carol}
		s := playUntil(t, a, players, spec.c, "two hands played", func(s *State) bool { return s.Hand != nil && s.Hand.Number >= 2 && s.Hand.Over })
		for _, p := range []Player{alice.p, carol.p} {
			if err := a.Stand(t.Context(), p); err != nil {
				t.Fatal(err)
			}
		}
		stood := s.Hand.Number
		playUntil(t, a, players, spec.c, "a hand without alice", func(s *State) bool { return s.Hand.Number > stood })
		if err := a.Sit(t.Context(), alice.p, 5, backWith(t, a, alice.p, 1500)); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := alice.c.last(t); s.You == nil || !s.You.WaitBigBlind {
			t.Fatalf("alice back in another seat: %+v, want her waiting for the big blind", s.You)
		}
		if s := carol.c.last(t); s.Return == nil {
			t.Fatal("carol, gone with 1500, has no return in her state")
		}
		s = playUntil(t, a, players, spec.c, "alice dealt in", func(s *State) bool { return s.Seats[5].InHand && !s.Hand.Over })
		lost := s.Hand.Number
		lose(t, a, log, false)
		h := log.last()
		bt := takeOver(t, cfg, log, 5*time.Second, map[int64]int64{alice.p.ID: h.cfg.Stacks[5], bob.p.ID: h.cfg.Stacks[3]})
		spec2, bob2, carol2 := viewer{spec.p, &client{}}, viewer{bob.p, &client{}}, viewer{carol.p, &client{}}
		for _, v := range []viewer{spec2, bob2, carol2} {
			if _, err := bt.Watch(t.Context(), v.p, v.c); err != nil {
				t.Fatal(err)
			}
		}
		all = append(all, spec2, bob2, carol2)
		s = playUntil(t, bt, []viewer{bob2}, spec2.c, "a hand after the lost one, alice away", func(s *State) bool {
			return s.Hand.Number > lost && s.Hand.Over
		})
		away := false
		for _, m := range spec2.c.all() {
			var sm StateMsg
			if json.Unmarshal(m, &sm) == nil && sm.Type == "state" && sm.State.Seats[5].Status == StatusAway {
				away = true
			}
		}
		if !away {
			t.Error("alice never shown away after the takeover")
		}
		alice2 := viewer{alice.p, &client{}}
		if _, err := bt.Watch(t.Context(), alice2.p, alice2.c); err != nil {
			t.Fatal(err)
		}
		all = append(all, alice2)
		after := s.Hand.Number
		playUntil(t, bt, []viewer{alice2, bob2}, spec2.c, "a hand with alice back", func(s *State) bool { return s.Hand.Number > after && s.Hand.Over })
		if err := bt.Close(t.Context(), "test over"); err != nil {
			t.Fatal(err)
		}
		b.checkLedger(t)
	})
}

// checkAllHidden runs holeCardsHidden on every message of vs, against every
// hand b recorded.
func checkAllHidden(t *testing.T, b *bank, vs []viewer) {
	t.Helper()
	b.mu.Lock()
	var hands []*history.PHH
	for _, h := range b.hands {
		p, err := history.Parse([]byte(h.PHH))
		if err != nil {
			t.Fatal(err)
		}
		hands = append(hands, p)
	}
	b.mu.Unlock()
	for _, v := range vs {
		checkVisibility(t, v.c.all(), v.p.ID)
		noSeedSent(t, v.c.all(), b.hands)
		if holeCardsHidden(t, v.c.all(), hands, v.p.Name) == 0 {
			t.Errorf("%q got no state of a recorded hand", v.p.Name)
		}
	}
}

// TestHiddenCardsAtATourneyTakeover: at a tournament's table alice never
// connects (away, then blinded out) and carol sits out; its node is lost in a
// hand and the table taken over, where everyone is away until they come
// back. Every message a spectator and bob (who plays) receive on both nodes
// holds no hole card of another player that was not shown, nor a burn.
func TestHiddenCardsAtATourneyTakeover(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, log := newBank(), &memLog{}
		alice, bob, carol := Player{1, "alice"}, Player{2, "bob"}, Player{3, "carol"}
		cfg := testConfig(b)
		cfg.Grace, cfg.HandLog = 10*time.Second, log
		cfg.Tourney = &Tourney{
			ID:      9,
			Seats:   []TourneySeat{{Player: alice, Stack: 5000}, {Player: bob, Stack: 5000}, {Player: carol, Stack: 5000}},
			Blinds:  func(time.Time) (int, int64, int64, int64) { return 0, 10, 20, 0 },
			HandEnd: func(TourneyHand) []Player { return nil },
		}
		a := mustNew(t, cfg)
		spec, vb, vc := viewer{Player{}, &client{}}, viewer{bob, &client{}}, viewer{carol, &client{}}
		for _, v := range []viewer{spec, vb, vc} {
			if _, err := a.Watch(t.Context(), v.p, v.c); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.SitOut(t.Context(), carol); err != nil {
			t.Fatal(err)
		}
		all := []viewer{spec, vb, vc}
		defer func() { checkAllHidden(t, b, all) }()
		s := playUntil(t, a, []viewer{vb}, spec.c, "a third hand in play", func(s *State) bool { return s.Hand != nil && s.Hand.Number >= 3 && !s.Hand.Over })
		lose(t, a, log, false)
		bt := takeOver(t, cfg, log, 5*time.Second, nil)
		spec2, vb2 := viewer{Player{}, &client{}}, viewer{bob, &client{}}
		for _, v := range []viewer{spec2, vb2} {
			if _, err := bt.Watch(t.Context(), v.p, v.c); err != nil {
				t.Fatal(err)
			}
		}
		all = append(all, spec2, vb2)
		lost := s.Hand.Number
		playUntil(t, bt, []viewer{vb2}, spec2.c, "two hands after the lost one", func(s *State) bool { return s.Hand.Number > lost+1 && s.Hand.Over })
		if !shownAway(t, spec2.c) {
			t.Error("nobody shown away after the takeover")
		}
	})
}

// shownAway reports whether c got a state with a seat marked away.
func shownAway(t *testing.T, c *client) bool {
	t.Helper()
	for _, m := range c.all() {
		var sm StateMsg
		if err := json.Unmarshal(m, &sm); err != nil {
			t.Fatal(err)
		}
		if sm.Type != "state" {
			continue
		}
		for _, st := range sm.State.Seats {
			if st.Status == StatusAway {
				return true
			}
		}
	}
	return false
}
