package house_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// clock is a settable clock for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// cheapArgon2 keeps tests fast; TestProductionArgon2 checks the real parameters.
func cheapArgon2() house.Argon2Params {
	return house.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
}

func newHouse(t testing.TB, s store.Store, c *clock, edits ...func(*house.Config)) *house.House {
	t.Helper()
	cfg := house.DefaultConfig()
	cfg.Argon2 = cheapArgon2()
	cfg.Now = c.Now
	for _, edit := range edits {
		edit(&cfg)
	}
	h, err := house.New(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func register(t testing.TB, h *house.House, name string) store.User {
	t.Helper()
	u, err := h.Register(context.Background(), house.Registration{Username: name, Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatalf("register %s: %v", name, err)
	}
	return u
}

func TestProductionArgon2(t *testing.T) {
	p := house.DefaultArgon2()
	hash, err := house.HashPassword("hunter22", p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash = %q", hash)
	}
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || len(parts[4]) != 22 || len(parts[5]) != 43 {
		t.Errorf("salt/key encoding: %q", hash)
	}
	if ok, err := house.VerifyPassword("hunter22", hash); !ok || err != nil {
		t.Errorf("verify right password = %v, %v", ok, err)
	}
	if ok, err := house.VerifyPassword("hunter23", hash); ok || err != nil {
		t.Errorf("verify wrong password = %v, %v", ok, err)
	}
	if again, _ := house.HashPassword("hunter22", p); again == hash {
		t.Error("two hashes of one password are equal: salt not random")
	}
}

func TestVerifyPasswordMalformed(t *testing.T) {
	for _, h := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=18$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=0,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=19$m=64,t=1,p=1$!!$a2V5", "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$"} {
		if ok, err := house.VerifyPassword("x", h); ok || err == nil {
			t.Errorf("VerifyPassword(%q) = %v, %v; want an error", h, ok, err)
		}
	}
}

func TestRegisterValidation(t *testing.T) {
	h := newHouse(t, storetest.SQLite(t), newClock())
	ok := house.Registration{Username: "Alice_99", Password: "12345678", ConfirmedAdult: true}
	for _, tc := range []struct {
		name  string
		edit  func(*house.Registration)
		field string
	}{
		{"short name", func(r *house.Registration) { r.Username = "ab" }, "username"},
		{"long name", func(r *house.Registration) { r.Username = "abcdefghijklmnop" }, "username"},
		{"space", func(r *house.Registration) { r.Username = "al ice" }, "username"},
		{"accent", func(r *house.Registration) { r.Username = "zoé" }, "username"},
		{"lobby", func(r *house.Registration) { r.Username = "Lobby" }, "username"},
		{"guest prefix", func(r *house.Registration) { r.Username = "Guest-1" }, "username"},
		{"short password", func(r *house.Registration) { r.Password = "1234567" }, "password"},
		{"short runes", func(r *house.Registration) { r.Password = "ééééééé" }, "password"},
		{"not adult", func(r *house.Registration) { r.ConfirmedAdult = false }, "adult"},
		{"bad email", func(r *house.Registration) { r.Email = "alice" }, "email"},
		{"email name", func(r *house.Registration) { r.Email = "Alice <a@b.org>" }, "email"},
		{"email no dot", func(r *house.Registration) { r.Email = "a@localhost" }, "email"},
		{"long location", func(r *house.Registration) { r.Location = strings.Repeat("x", 65) }, "location"},
		{"control location", func(r *house.Registration) { r.Location = "a\x00b" }, "location"},
		{"bidi location", func(r *house.Registration) { r.Location = "a\u202Eb" }, "location"},
	} {
		r := ok
		tc.edit(&r)
		_, err := h.Register(context.Background(), r)
		var fe *house.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, house.ErrInvalid) {
			t.Errorf("%s: err = %v, want a FieldError on %s", tc.name, err, tc.field)
		}
	}
	r := ok
	r.Email, r.Location = " alice@example.org ", "Zürich"
	u, err := h.Register(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "alice@example.org" || u.Location != "Zürich" || u.AdultConfirmedAt.IsZero() || !strings.HasPrefix(u.PasswordHash, "$argon2id$") {
		t.Errorf("user = %+v", u)
	}
	r = ok
	r.Username = "ALICE_99"
	_, err = h.Register(context.Background(), r)
	var fe *house.FieldError
	if !errors.As(err, &fe) || fe.Field != "username" || !errors.Is(err, house.ErrUsernameTaken) {
		t.Errorf("taken name: err = %v", err)
	}
}

func TestAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		c := newClock()
		h := newHouse(t, s, c)
		u := register(t, h, "Bob")
		if credits, err := h.Credits(ctx, u.ID); err != nil || credits != 10_000 {
			t.Errorf("credits after sign-up = %d, %v", credits, err)
		}
		for _, bad := range [][2]string{{"Bob", "wrong horse"}, {"nobody", "correct horse"}, {"Bob", ""}} {
			if _, err := h.Login(ctx, bad[0], bad[1], "192.0.2.1"); !errors.Is(err, house.ErrBadCredentials) {
				t.Errorf("Login(%q, %q) = %v, want ErrBadCredentials", bad[0], bad[1], err)
			}
		}
		sess, err := h.Login(ctx, "bob", "correct horse", "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if sess.User.ID != u.ID || len(sess.Token) < 26 || !sess.ExpiresAt.Equal(c.Now().Add(30*24*time.Hour)) {
			t.Errorf("session = %+v", sess)
		}
		if got, err := h.Authenticate(ctx, sess.Token); err != nil || got.ID != u.ID {
			t.Errorf("Authenticate = %+v, %v", got, err)
		}
		if _, err := h.Authenticate(ctx, sess.Token+"x"); !errors.Is(err, house.ErrNoSession) {
			t.Errorf("Authenticate(wrong token) = %v", err)
		}
		if err := h.Logout(ctx, sess.Token); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Authenticate(ctx, sess.Token); !errors.Is(err, house.ErrNoSession) {
			t.Errorf("Authenticate after logout = %v", err)
		}
		// Expiry: a session used every 23 hours lasts its 30 days, no more.
		sess, err = h.Login(ctx, "BOB", "correct horse", "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		end := c.Now().Add(30 * 24 * time.Hour)
		for c.Now().Add(23 * time.Hour).Before(end) {
			c.Advance(23 * time.Hour)
			if _, err := h.Authenticate(ctx, sess.Token); err != nil {
				t.Fatalf("Authenticate after 23 h unused, %v from the start: %v", c.Now().Sub(end.Add(-30*24*time.Hour)), err)
			}
		}
		c.Advance(end.Sub(c.Now()) - time.Second)
		if _, err := h.Authenticate(ctx, sess.Token); err != nil {
			t.Errorf("Authenticate just before expiry = %v", err)
		}
		c.Advance(time.Second)
		if _, err := h.Authenticate(ctx, sess.Token); !errors.Is(err, house.ErrNoSession) {
			t.Errorf("Authenticate at expiry = %v", err)
		}
		// An idle session is logged off: a day unused ends it.
		sess, err = h.Login(ctx, "BOB", "correct horse", "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		c.Advance(2 * time.Hour)
		if _, err := h.Authenticate(ctx, sess.Token); err != nil {
			t.Fatal(err)
		}
		c.Advance(24 * time.Hour)
		if _, err := h.Authenticate(ctx, sess.Token); !errors.Is(err, house.ErrNoSession) {
			t.Errorf("Authenticate after a day unused = %v", err)
		}
		// Guests: flagged, no password, credits granted, cannot log in by name.
		g, err := h.Guest(ctx, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if !g.User.Guest || g.User.PasswordHash != "" || !strings.HasPrefix(g.User.Username, house.GuestPrefix) || len(g.User.Username) > house.MaxUsername {
			t.Errorf("guest = %+v", g.User)
		}
		if got, err := h.Authenticate(ctx, g.Token); err != nil || got.ID != g.User.ID {
			t.Errorf("guest Authenticate = %+v, %v", got, err)
		}
		if credits, _ := h.Credits(ctx, g.User.ID); credits != 10_000 {
			t.Errorf("guest credits = %d", credits)
		}
		if _, err := h.Login(ctx, g.User.Username, "", "192.0.2.1"); !errors.Is(err, house.ErrBadCredentials) {
			t.Errorf("guest login = %v", err)
		}
	})
}

func TestLedger(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		c := newClock()
		h := newHouse(t, s, c)
		u := register(t, h, "carol")
		if left, err := h.BuyIn(ctx, u.ID, "t1", 4_000); err != nil || left != 6_000 {
			t.Fatalf("BuyIn = %d, %v", left, err)
		}
		if _, err := h.BuyIn(ctx, u.ID, "t2", 6_001); !errors.Is(err, house.ErrInsufficientCredits) {
			t.Errorf("BuyIn over credits = %v", err)
		}
		for _, amount := range []int64{0, -5} {
			if _, err := h.BuyIn(ctx, u.ID, "t2", amount); !errors.Is(err, house.ErrInvalid) {
				t.Errorf("BuyIn(%d) = %v", amount, err)
			}
		}
		if _, err := h.BuyIn(ctx, 1<<40, "t2", 1); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("BuyIn(unknown user) = %v", err)
		}
		es, _ := s.Entries(ctx, u.ID, 10)
		if len(es) != 2 {
			t.Errorf("refused buy-ins left rows: %+v", es)
		}
		// Refill is for the nearly broke only, chips at tables included.
		if _, err := h.Refill(ctx, u.ID); !errors.Is(err, house.ErrRefillNotNeeded) {
			t.Errorf("Refill with 6000 = %v", err)
		}
		if _, err := h.BuyIn(ctx, u.ID, "t2", 5_500); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Refill(ctx, u.ID); !errors.Is(err, house.ErrRefillNotNeeded) {
			t.Errorf("Refill with 500 credits and 9500 parked at tables = %v", err)
		}
		// Cash-outs end games, even with nothing left.
		for _, ref := range []string{"t2", "t1"} {
			if credits, err := h.CashOut(ctx, u.ID, ref, 0); err != nil || credits != 500 {
				t.Errorf("CashOut(%s, 0) = %d, %v", ref, credits, err)
			}
		}
		got, err := h.Refill(ctx, u.ID)
		if err != nil || got != 9_500 {
			t.Errorf("Refill = %d, %v; want 9500", got, err)
		}
		if _, err := h.BuyIn(ctx, u.ID, "t3", 9_800); err != nil {
			t.Fatal(err)
		}
		if _, err := h.CashOut(ctx, u.ID, "t3", 0); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Refill(ctx, u.ID); !errors.Is(err, house.ErrRefillTooSoon) {
			t.Errorf("second Refill within a day = %v", err)
		}
		c.Advance(24 * time.Hour)
		if got, err := h.Refill(ctx, u.ID); err != nil || got != 9_800 {
			t.Errorf("Refill a day later = %d, %v", got, err)
		}
		if _, err := h.CashOut(ctx, u.ID, "t2", -1); !errors.Is(err, house.ErrInvalid) {
			t.Errorf("CashOut(-1) = %v", err)
		}
		if err := h.Adjust(ctx, u.ID, -1_000, "duplicate refill"); err != nil {
			t.Error(err)
		}
		tot, err := h.Totals(ctx, u.ID)
		if err != nil || tot.Credits != 9_000 || tot.GamesPlayed != 3 {
			t.Errorf("Totals = %+v, %v", tot, err)
		}
	})
}

func TestRecordHand(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		h := newHouse(t, s, newClock())
		a, b := register(t, h, "dave"), register(t, h, "erin")
		hand := store.Hand{TableRef: "t1", Variant: "NT", PHH: "variant = 'NT'\n", Players: []store.HandPlayer{
			{Seat: 1, UserID: a.ID, Name: "dave", Net: 300, Won: true},
			{Seat: 2, UserID: b.ID, Name: "erin", Net: -200},
			{Seat: 3, Name: "callbot", Net: -100},
		}}
		id, err := h.RecordHand(ctx, hand)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Hand(ctx, id)
		if err != nil || len(got.Players) != 3 || got.PHH != hand.PHH {
			t.Errorf("stored hand = %+v, %v", got, err)
		}
		hand.Players[0].Net, hand.Players[0].Won, hand.Players[1].Net, hand.Players[1].Won = -50, false, 150, true
		if _, err := h.RecordHand(ctx, hand); err != nil {
			t.Fatal(err)
		}
		ta, _ := h.Totals(ctx, a.ID)
		tb, _ := h.Totals(ctx, b.ID)
		if ta.Stats != (store.Stats{HandsPlayed: 2, HandsWon: 1, NetWon: 250}) || tb.Stats != (store.Stats{HandsPlayed: 2, HandsWon: 1, NetWon: -50}) {
			t.Errorf("totals: dave %+v, erin %+v", ta, tb)
		}
		bad := hand
		bad.Players = []store.HandPlayer{{Seat: 1, UserID: a.ID, Net: 10}, {Seat: 2, UserID: b.ID, Net: -9}}
		if _, err := h.RecordHand(ctx, bad); !errors.Is(err, house.ErrUnbalancedHand) {
			t.Errorf("unbalanced hand = %v", err)
		}
		bad.Players = []store.HandPlayer{{Seat: 1, UserID: a.ID, Net: 10}, {Seat: 1, UserID: b.ID, Net: -10}}
		if _, err := h.RecordHand(ctx, bad); !errors.Is(err, house.ErrInvalid) {
			t.Errorf("same seat twice = %v", err)
		}
		bad.Players = []store.HandPlayer{{Seat: 1, UserID: a.ID, Net: 10}, {Seat: 2, UserID: 1 << 40, Net: -10}}
		if _, err := h.RecordHand(ctx, bad); err == nil {
			t.Error("hand with an unknown user recorded")
		}
		if hs, _ := s.HandsByTable(ctx, "t1", 10); len(hs) != 2 {
			t.Errorf("%d hands stored, want 2 (refused hands must store nothing)", len(hs))
		}
		if ta2, _ := h.Totals(ctx, a.ID); ta2 != ta {
			t.Errorf("refused hands changed totals: %+v, was %+v", ta2, ta)
		}
	})
}

func TestStatsAndRankings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		h := newHouse(t, s, newClock(), func(c *house.Config) { c.RankMinHands = 2 })
		ann, bob := register(t, h, "ann"), register(t, h, "bob")
		g, err := h.Guest(ctx, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		// ann wins 40 (2 big blinds) raising, then loses 10 calling; bob the opposite;
		// the guest wins 500 in one hand and is never ranked.
		hands := []store.Hand{
			{TableRef: "t", BigBlind: 20, Players: []store.HandPlayer{{Seat: 0, UserID: ann.ID, Net: 40, Won: true, VPIP: true, PFR: true}, {Seat: 1, UserID: bob.ID, Net: -40, VPIP: true}}},
			{TableRef: "t", BigBlind: 20, Players: []store.HandPlayer{{Seat: 0, UserID: ann.ID, Net: -10, VPIP: true}, {Seat: 1, UserID: bob.ID, Net: 10, Won: true}}},
			{TableRef: "u", BigBlind: 100, Players: []store.HandPlayer{{Seat: 0, UserID: g.User.ID, Net: 500, Won: true}, {Seat: 1, Name: "bot", Net: -500}}},
		}
		for _, hd := range hands {
			if _, err := h.RecordHand(ctx, hd); err != nil {
				t.Fatal(err)
			}
		}
		_, st, err := h.Player(ctx, "ann")
		if err != nil {
			t.Fatal(err)
		}
		if st.HandsPlayed != 2 || st.VPIP() != 1 || st.PFR() != 0.5 || st.BBPer100() != 75 || st.HandsWonShare() != 0.5 {
			t.Errorf("ann: %+v vpip %v pfr %v bb/100 %v", st, st.VPIP(), st.PFR(), st.BBPer100())
		}
		for _, by := range []store.Rank{store.RankByNet, store.RankByWinRate} {
			rs, err := h.Rankings(ctx, by, 10, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) != 2 || rs[0].Name != "ann" || rs[1].Name != "bob" {
				t.Errorf("rankings by %s: %+v", by, rs)
			}
		}
		var fe *house.FieldError
		if _, err := h.Rankings(ctx, "luck", 10, 0); !errors.As(err, &fe) || fe.Field != "by" {
			t.Errorf("rankings by luck: %v", err)
		}
	})
}

// A cash-out tried again after its reply was lost (the first attempt booked)
// finds no seat and books nothing twice.
func TestCashOutTwiceBooksOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		h := newHouse(t, s, newClock())
		u := register(t, h, "dora")
		if _, err := h.BuyIn(ctx, u.ID, "t1", 1_000); err != nil {
			t.Fatal(err)
		}
		if credits, err := h.CashOut(ctx, u.ID, "t1", 1_500); err != nil || credits != 10_500 {
			t.Fatalf("CashOut = %d, %v", credits, err)
		}
		if _, err := h.CashOut(ctx, u.ID, "t1", 1_500); !errors.Is(err, house.ErrNoSeat) {
			t.Fatalf("a second CashOut = %v, want ErrNoSeat", err)
		}
		tot, err := h.Totals(ctx, u.ID)
		if err != nil || tot.Credits != 10_500 || tot.GamesPlayed != 1 {
			t.Fatalf("after the second cash-out: %+v, %v", tot, err)
		}
	})
}
