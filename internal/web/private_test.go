package web

import (
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/history"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestPrivateHeadsUpWatchers checks who may watch a heads-up table: by default
// its player alone; anyone once the player opened it with "watchers": "anyone".
// Either way it is not listed in the lobby.
func TestPrivateHeadsUpWatchers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		player, stranger := th.client(t), th.client(t)
		player.must("POST", "/api/guest", nil, 201)
		stranger.must("POST", "/api/guest", nil, 201)
		anonymous := th.client(t)
		if code, out := player.do("POST", "/api/headsup", map[string]any{"bot": "call", "watchers": "friends"}); code != 400 {
			t.Fatalf("watchers \"friends\": %d %v", code, out)
		} else if _, field := errField(out); field != "watchers" {
			t.Fatalf("watchers \"friends\": %v", out)
		}
		for _, tc := range []struct {
			watchers any
			open     bool
		}{{nil, false}, {"none", false}, {"anyone", true}} {
			req := map[string]any{"bot": "call", "chips": 2000}
			if tc.watchers != nil {
				req["watchers"] = tc.watchers
			}
			name := player.must("POST", "/api/headsup", req, 201)["name"].(string)
			if ts := anonymous.must("GET", "/api/tables", nil, 200); len(ts["tables"].([]any)) != 0 {
				t.Fatalf("watchers %v: the heads-up table is listed in the lobby: %v", tc.watchers, ts)
			}
			w := player.dial()
			i := 0
			if r := w.request(&i, 1, map[string]any{"type": "watch", "table": name}); r["type"] != "ok" {
				t.Fatalf("the player cannot watch her table: %v", r)
			}
			for _, u := range []*user{stranger, anonymous} {
				sw := u.dial()
				j := 0
				r := sw.request(&j, 1, map[string]any{"type": "watch", "table": name})
				if tc.open && r["type"] != "ok" {
					t.Fatalf("watchers %v: refused: %v", tc.watchers, r)
				}
				if !tc.open && (r["type"] != "error" || r["error"].(map[string]any)["code"] != "forbidden") {
					t.Fatalf("watchers %v: a stranger's watch got %v", tc.watchers, r)
				}
				if tc.open {
					sw.wait(&j, "state", typeIs("state"))
				}
			}
			w.request(&i, 2, map[string]any{"type": "leave", "table": name})
		}
	})
}

// recordHand deals a three-handed hand in which alice (seat 0) folds and bob
// (seat 1) and a player with no account (seat 2) check it down, records it as
// played at playedAt and returns its id and the engine's hand.
func recordHand(t *testing.T, th *testHouse, alice, bob int64, ref string, playedAt time.Time, edits ...func(*store.Hand)) (int64, *engine.Hand, cards.Seed) {
	t.Helper()
	cfg := engine.Config{Stacks: []int64{1000, 1000, 1000}, SmallBlind: 10, BigBlind: 20, Button: 2, Seed: cards.SeedFromUint64(uint64(playedAt.UnixNano()))}
	h, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for !h.Over() {
		s, kind := h.ToAct(), engine.Call
		if s == 0 {
			kind = engine.Fold
		} else if h.Legal().Can(engine.Check) {
			kind = engine.Check
		}
		if err := h.Apply(engine.Action{Seat: s, Kind: kind}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := history.FromHand(cfg, h, history.Info{Hand: 1, Table: "T", Players: []string{"alice", "bob", "bot-call-3"}})
	if err != nil {
		t.Fatal(err)
	}
	p.HandKey = ref + "/1"
	p.SeedSHA256 = history.SeedCommitment(p.HandKey, cfg.Seed)
	text, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	for _, u := range []int64{alice, bob} {
		if _, err := th.house.BuyIn(ctx, u, ref, 1000); err != nil {
			t.Fatal(err)
		}
	}
	net := h.Result().Net
	hand := store.Hand{TableRef: ref, Variant: "nlhe", BigBlind: 20, PHH: string(text), PlayedAt: playedAt,
		Players: []store.HandPlayer{{Seat: 0, UserID: alice, Name: "alice", Net: net[0]}, {Seat: 1, UserID: bob, Name: "bob", Net: net[1]},
			{Seat: 2, Name: "bot-call-3", Net: net[2]}}}
	for _, edit := range edits {
		edit(&hand)
	}
	id, err := th.house.RecordHand(ctx, hand)
	if err != nil {
		t.Fatal(err)
	}
	return id, h, cfg.Seed
}

// threePlayers registers alice, bob and dave, and returns their clients, one not
// logged in, and alice's and bob's ids.
func threePlayers(t *testing.T, th *testHouse) (alice, bob, dave, anonymous *user, ids map[string]int64) {
	t.Helper()
	alice, bob, dave, anonymous = th.client(t), th.client(t), th.client(t), th.client(t)
	alice.register("alice")
	bob.register("bob")
	dave.register("dave")
	ids = map[string]int64{}
	for _, n := range []string{"alice", "bob"} {
		u, _, err := th.house.Player(t.Context(), n)
		if err != nil {
			t.Fatal(err)
		}
		ids[n] = u.ID
	}
	return alice, bob, dave, anonymous, ids
}

// TestHandHistoryPrivacy checks GET /api/hands/{id}: each viewer sees the cards
// shown at showdown and their own, never another player's folded or mucked
// cards nor the seed, until the hand's full record is public a day later.
func TestHandHistoryPrivacy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		alice, bob, dave, anonymous, ids := threePlayers(t, th)
		id, h, seedOf := recordHand(t, th, ids["alice"], ids["bob"], "table:T#1", time.Now())
		hole := func(seat int) []string {
			v := h.View(seat)
			return cardsOf(v.Seats[seat].Cards[:v.Seats[seat].NCards])
		}
		var shown []string
		mucked := map[int]bool{0: true, 1: true, 2: true}
		for _, e := range h.Events() {
			if e.Kind == engine.EvShow {
				shown = append(shown, cardsOf(e.Cards[:e.NCards])...)
				delete(mucked, int(e.Seat))
			}
		}
		if len(shown) == 0 || !mucked[0] {
			t.Fatalf("the hand has no showdown, or alice showed: shown %v", shown)
		}
		seed := seedOf.String()
		for viewer, tc := range map[string]struct {
			u   *user
			own int
		}{"alice": {alice, 0}, "bob": {bob, 1}, "dave": {dave, -1}, "anonymous": {anonymous, -1}} {
			text := tc.u.must("GET", "/api/hands/"+itoa(int(id)), nil, 200)["phh"].(string)
			if text == "" || strings.Contains(text, seed) || strings.Contains(text, "_seed =") || strings.Contains(text, "_burns") {
				t.Fatalf("%s gets the seed or burns (or nothing):\n%s", viewer, text)
			}
			p, err := history.Parse([]byte(text))
			if err != nil || p.SeedSHA256 == "" {
				t.Fatalf("%s does not get a PHH with the commitment (%v):\n%s", viewer, err, text)
			}
			// The cards, in the actions only (hex digits elsewhere can look like cards).
			acts := strings.Join(p.Actions, " ")
			for _, c := range shown {
				if !strings.Contains(acts, c) {
					t.Fatalf("%s does not see %s shown at showdown:\n%s", viewer, c, text)
				}
			}
			for seat := range mucked {
				for _, c := range hole(seat) {
					if strings.Contains(acts, c) != (seat == tc.own) {
						t.Fatalf("%s (seat %d): card %s of seat %d (folded or mucked) seen: %v\n%s", viewer, tc.own, c, seat, strings.Contains(acts, c), text)
					}
				}
			}
		}
		// A day later the full record is public: every card and the seed.
		old, _, _ := recordHand(t, th, ids["alice"], ids["bob"], "table:T#2", time.Now().Add(-25*time.Hour))
		text := anonymous.must("GET", "/api/hands/"+itoa(int(old)), nil, 200)["phh"].(string)
		p, err := history.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if p.Seed == "" {
			t.Fatalf("a hand of yesterday is not public:\n%s", text)
		}
	})
}

func cardsOf(cs []cards.Card) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// The hands of a private table are its players' alone: a stranger, logged in
// or not, finds neither the hand nor its listing on the player's page, even
// once hands are public (red team finding: a private heads-up could be read a
// hand behind through GET /api/players/{name}/hands and /api/hands/{id}).
func TestPrivateTableHandsStayPrivate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st store.Store) {
		th := newHouse(t, st)
		alice, bob, dave, anonymous, ids := threePlayers(t, th)
		long := time.Now().Add(-30 * 24 * time.Hour) // long public, were it not private
		id, _, _ := recordHand(t, th, ids["alice"], ids["bob"], "table:hu-x#1", long, func(h *store.Hand) { h.Private = true })
		for _, u := range []*user{alice, bob} {
			u.must("GET", "/api/hands/"+itoa(int(id)), nil, 200)
			if hs := u.must("GET", "/api/players/alice/hands", nil, 200)["hands"].([]any); len(hs) != 1 {
				t.Fatalf("a player of the hand lists %d hands", len(hs))
			}
		}
		for _, u := range []*user{dave, anonymous} {
			if code, out := u.do("GET", "/api/hands/"+itoa(int(id)), nil); code != 404 {
				t.Fatalf("a stranger reads a private hand: %d %v", code, out)
			}
			if hs := u.must("GET", "/api/players/alice/hands", nil, 200)["hands"].([]any); len(hs) != 0 {
				t.Fatalf("a stranger lists a private hand: %v", hs)
			}
		}
	})
}
