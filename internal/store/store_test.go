package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

var at = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func mustUser(t *testing.T, s store.Queries, name string) store.User {
	t.Helper()
	u, err := s.CreateUser(context.Background(), store.User{Username: name, PasswordHash: "$argon2id$x", AdultConfirmedAt: at, CreatedAt: at})
	if err != nil {
		t.Fatalf("create user %s: %v", name, err)
	}
	return u
}

func TestOpenDSN(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, dsn := range []string{filepath.Join(dir, "a.db"), "sqlite:" + filepath.Join(dir, "b.db"), "sqlite://" + filepath.Join(dir, "c.db")} {
		s, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatalf("Open(%q): %v", dsn, err)
		}
		if s.Backend() != "sqlite" {
			t.Errorf("Open(%q).Backend() = %q", dsn, s.Backend())
		}
		mustUser(t, s, "alice")
		s.Close()
		// Reopening runs the migrations again (a no-op) and keeps the data.
		s, err = store.Open(ctx, dsn)
		if err != nil {
			t.Fatalf("reopen %q: %v", dsn, err)
		}
		if _, err := s.UserByName(ctx, "ALICE"); err != nil {
			t.Errorf("reopen %q: %v", dsn, err)
		}
		s.Close()
	}
	if _, err := store.Open(ctx, "postgres://nobody:x@127.0.0.1:1/none?connect_timeout=2"); err == nil {
		t.Error("Open of an unreachable PostgreSQL succeeded")
	}
}

func TestStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		t.Run("users", func(t *testing.T) { testUsers(t, s) })
		t.Run("sessions", func(t *testing.T) { testSessions(t, s) })
		t.Run("ledger", func(t *testing.T) { testLedger(t, s) })
		t.Run("tx", func(t *testing.T) { testTx(t, s) })
		t.Run("stats", func(t *testing.T) { testStats(t, s) })
		t.Run("hands", func(t *testing.T) { testHands(t, s) })
		t.Run("board", func(t *testing.T) { testBoard(t, s) })
		t.Run("botmodels", func(t *testing.T) { testBotModels(t, s) })
		t.Run("playertables", func(t *testing.T) { testPlayerTables(t, s) })
		t.Run("departures", func(t *testing.T) { testDepartures(t, s) })
	})
}

func testUsers(t *testing.T, s store.Store) {
	ctx := context.Background()
	u, err := s.CreateUser(ctx, store.User{Username: "Alice", PasswordHash: "$argon2id$v=19$x", AdultConfirmedAt: at,
		Email: "alice@example.org", Location: "Lyon", CreatedAt: at})
	if err != nil {
		t.Fatal(err)
	}
	if u.ID == 0 {
		t.Fatal("no id")
	}
	got, err := s.UserByName(ctx, "aLiCe")
	if err != nil {
		t.Fatal(err)
	}
	if got != u {
		t.Errorf("UserByName = %+v, want %+v", got, u)
	}
	if got, err := s.UserByID(ctx, u.ID); err != nil || got != u {
		t.Errorf("UserByID = %+v, %v; want %+v", got, err, u)
	}
	if _, err := s.CreateUser(ctx, store.User{Username: "ALICE", CreatedAt: at}); !errors.Is(err, store.ErrUsernameTaken) {
		t.Errorf("duplicate name: err = %v, want ErrUsernameTaken", err)
	}
	g, err := s.CreateUser(ctx, store.User{Username: "guest-1", Guest: true})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := s.UserByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !g2.Guest || g2.PasswordHash != "" || g2.Email != "" || !g2.AdultConfirmedAt.IsZero() || g2.CreatedAt.IsZero() {
		t.Errorf("guest = %+v", g2)
	}
	if _, err := s.UserByName(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown name: err = %v", err)
	}
	for _, like := range []string{"aIice", "A1ice", "alice", "ALice"} { // of "Alice"
		if got, err := s.UserLike(ctx, like); err != nil || got.ID != u.ID {
			t.Errorf("UserLike(%q) = %+v, %v; want Alice", like, got, err)
		}
	}
	for _, unlike := range []string{"alicia", "aiice", "allce", "bob"} {
		if got, err := s.UserLike(ctx, unlike); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UserLike(%q) = %+v, %v; want none", unlike, got, err)
		}
	}
	if _, err := s.UserByID(ctx, 1<<40); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: err = %v", err)
	}
	if err := s.LockUser(ctx, 1<<40); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LockUser unknown: err = %v", err)
	}
}

func testSessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := mustUser(t, s, "sess")
	live := store.Session{TokenHash: []byte{1, 2, 3, 0, 255}, UserID: u.ID, CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
	old := store.Session{TokenHash: []byte{9}, UserID: u.ID, CreatedAt: at, ExpiresAt: at.Add(-time.Second)}
	for _, x := range []store.Session{live, old} {
		if err := s.CreateSession(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.SessionByTokenHash(ctx, live.TokenHash)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.TokenHash) != string(live.TokenHash) || got.UserID != u.ID || !got.ExpiresAt.Equal(live.ExpiresAt) {
		t.Errorf("session = %+v, want %+v", got, live)
	}
	if n, err := s.DeleteExpiredSessions(ctx, at); err != nil || n != 1 {
		t.Errorf("DeleteExpiredSessions = %d, %v; want 1", n, err)
	}
	if _, err := s.SessionByTokenHash(ctx, old.TokenHash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired session: err = %v", err)
	}
	if err := s.DeleteSession(ctx, live.TokenHash); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionByTokenHash(ctx, live.TokenHash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted session: err = %v", err)
	}
}

func testLedger(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := mustUser(t, s, "ledger")
	before, err := s.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	entries := []store.Entry{
		{UserID: u.ID, Kind: store.KindSignupGrant, Amount: 10000},
		{UserID: u.ID, Kind: store.KindBuyIn, Amount: -2000, TableRef: "t1"},
		{UserID: u.ID, Kind: store.KindCashOut, Amount: 3500, TableRef: "t1"},
		{UserID: u.ID, Kind: store.KindAdjustment, Amount: -500, Note: "correction"},
		{UserID: u.ID, Kind: store.KindRefill, Amount: 100, CreatedAt: at},
	}
	for _, e := range entries {
		if _, err := s.AddEntry(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []store.Entry{
		{UserID: u.ID, Kind: store.KindBuyIn, Amount: 5},
		{UserID: u.ID, Kind: store.KindCashOut, Amount: -5},
		{UserID: u.ID, Kind: store.KindAdjustment, Amount: 0},
		{UserID: u.ID, Kind: "gift", Amount: 5},
	} {
		if _, err := s.AddEntry(ctx, bad); err == nil {
			t.Errorf("AddEntry(%+v) succeeded", bad)
		}
	}
	if _, err := s.AddEntry(ctx, store.Entry{UserID: 1 << 40, Kind: store.KindRefill, Amount: 5}); err == nil {
		t.Error("AddEntry for an unknown user succeeded (foreign keys off?)")
	}
	if b, err := s.Balance(ctx, u.ID); err != nil || b != 11100 {
		t.Errorf("Balance = %d, %v; want 11100", b, err)
	}
	if b, err := s.Balance(ctx, 1<<40); err != nil || b != 0 {
		t.Errorf("Balance(nobody) = %d, %v; want 0", b, err)
	}
	es, err := s.Entries(ctx, u.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[0].Kind != store.KindRefill || es[2].Kind != store.KindCashOut || es[2].TableRef != "t1" || es[1].Note != "correction" {
		t.Errorf("Entries = %+v", es)
	}
	if !es[0].CreatedAt.Equal(at) {
		t.Errorf("CreatedAt = %v, want %v", es[0].CreatedAt, at)
	}
	last, err := s.LastEntry(ctx, u.ID, store.KindBuyIn)
	if err != nil || last.Amount != -2000 {
		t.Errorf("LastEntry = %+v, %v", last, err)
	}
	if _, err := s.LastEntry(ctx, u.ID+1000, store.KindRefill); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LastEntry none: err = %v", err)
	}
	after, err := s.LedgerTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[store.EntryKind]int64{store.KindSignupGrant: 10000, store.KindBuyIn: -2000, store.KindCashOut: 3500, store.KindAdjustment: -500, store.KindRefill: 100}
	for k, v := range want {
		if after[k]-before[k] != v {
			t.Errorf("LedgerTotals[%s] grew by %d, want %d", k, after[k]-before[k], v)
		}
	}
}

func testTx(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := mustUser(t, s, "tx")
	boom := errors.New("boom")
	err := s.InTx(ctx, func(q store.Queries) error {
		if err := q.LockUser(ctx, u.ID); err != nil {
			return err
		}
		if _, err := q.AddEntry(ctx, store.Entry{UserID: u.ID, Kind: store.KindSignupGrant, Amount: 7}); err != nil {
			return err
		}
		if b, err := q.Balance(ctx, u.ID); err != nil || b != 7 {
			t.Errorf("Balance inside tx = %d, %v", b, err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx = %v, want boom", err)
	}
	if b, _ := s.Balance(ctx, u.ID); b != 0 {
		t.Errorf("balance after rollback = %d", b)
	}
	if err := s.InTx(ctx, func(q store.Queries) error {
		_, err := q.AddEntry(ctx, store.Entry{UserID: u.ID, Kind: store.KindSignupGrant, Amount: 7})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if b, _ := s.Balance(ctx, u.ID); b != 7 {
		t.Errorf("balance after commit = %d", b)
	}
}

func testStats(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := mustUser(t, s, "stats")
	if st, err := s.Stats(ctx, u.ID); err != nil || st != (store.Stats{}) {
		t.Errorf("Stats(new) = %+v, %v", st, err)
	}
	for _, d := range []store.Stats{{HandsPlayed: 1, HandsWon: 1, NetWon: 50}, {HandsPlayed: 1, NetWon: -20}, {GamesPlayed: 1}} {
		if err := s.AddStats(ctx, u.ID, d); err != nil {
			t.Fatal(err)
		}
	}
	want := store.Stats{GamesPlayed: 1, HandsPlayed: 2, HandsWon: 1, NetWon: 30}
	if st, err := s.Stats(ctx, u.ID); err != nil || st != want {
		t.Errorf("Stats = %+v, %v; want %+v", st, err, want)
	}
}

func testHands(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := mustUser(t, s, "hands")
	h := store.Hand{TableRef: "felt1", Variant: "NT", BigBlind: 20, PHH: "variant = 'NT'\nactions = ['d dh p1 AsKs']\n", PlayedAt: at,
		Players: []store.HandPlayer{{Seat: 1, UserID: u.ID, Name: u.Username, Net: 150, Won: true, VPIP: true, PFR: true}, {Seat: 2, Name: "callbot", Net: -150}}}
	id, err := s.SaveHand(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	h.ID = id
	got, err := s.Hand(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.PHH != h.PHH || got.TableRef != h.TableRef || got.BigBlind != 20 || !got.PlayedAt.Equal(at) || len(got.Players) != 2 || got.Players[0] != h.Players[0] || got.Players[1] != h.Players[1] {
		t.Errorf("Hand = %+v, want %+v", got, h)
	}
	h2 := h
	h2.Players = h.Players[1:]
	id2, err := s.SaveHand(ctx, h2)
	if err != nil {
		t.Fatal(err)
	}
	byTable, err := s.HandsByTable(ctx, "felt1", 10)
	if err != nil || len(byTable) != 2 || byTable[0].ID != id2 {
		t.Errorf("HandsByTable = %+v, %v", byTable, err)
	}
	byUser, err := s.HandsByUser(ctx, u.ID, 10)
	if err != nil || len(byUser) != 1 || byUser[0].ID != id {
		t.Errorf("HandsByUser = %+v, %v", byUser, err)
	}
	if _, err := s.Hand(ctx, 1<<40); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown hand: err = %v", err)
	}
	if _, err := s.AddEntry(ctx, store.Entry{UserID: u.ID, Kind: store.KindAdjustment, Amount: 1, HandID: id}); err != nil {
		t.Errorf("entry referring to a hand: %v", err)
	}
	// A hand with a key is stored once: again, it is refused with the first
	// one's id, and hands without a key are never refused.
	k := h
	k.Key = fmt.Sprintf("felt1#%d/7", id)
	kid, err := s.SaveHand(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := s.SaveHand(ctx, k); !errors.Is(err, store.ErrDuplicate) || again != kid {
		t.Errorf("the same key again: id %d, %v; want %d, ErrDuplicate", again, err, kid)
	}
	if got, _ := s.HandsByTable(ctx, "felt1", 10); len(got) != 3 {
		t.Errorf("after a duplicate: %d hands at felt1, want 3", len(got))
	}
	err = s.InTx(ctx, func(q store.Queries) error { // a duplicate leaves the transaction usable
		if _, err := q.SaveHand(ctx, k); !errors.Is(err, store.ErrDuplicate) {
			return fmt.Errorf("in a transaction: %v", err)
		}
		_, err := q.SaveHand(ctx, h)
		return err
	})
	if err != nil {
		t.Error(err)
	}
}

func testBoard(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := mustUser(t, s, "poster")
	v := mustUser(t, s, "replier")
	general, err := s.CreateBoard(ctx, store.Board{Slug: "general", Title: "General", Position: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateBoard(ctx, store.Board{Slug: "strategy", Title: "Strategy"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateBoard(ctx, store.Board{Slug: "general", Title: "Again"}); !errors.Is(err, store.ErrDuplicate) {
		t.Errorf("duplicate slug: err = %v", err)
	}
	boards, err := s.Boards(ctx)
	if err != nil || len(boards) != 2 || boards[0].Slug != "strategy" {
		t.Errorf("Boards = %+v, %v", boards, err)
	}
	t1, err := s.CreateTopic(ctx, general.ID, u.ID, "Hello", "first!", at)
	if err != nil {
		t.Fatal(err)
	}
	t2, err := s.CreateTopic(ctx, general.ID, v.ID, "Second", "me too", at.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if t1.Author != "poster" || t1.Posts != 1 || !t1.LastPostAt.Equal(at) {
		t.Errorf("topic = %+v", t1)
	}
	p, err := s.AddPost(ctx, store.Post{TopicID: t1.ID, UserID: v.ID, Body: "welcome", CreatedAt: at.Add(time.Hour)})
	if err != nil || p.Author != "replier" {
		t.Fatalf("AddPost = %+v, %v", p, err)
	}
	topics, err := s.Topics(ctx, general.ID, 10, 0)
	if err != nil || len(topics) != 2 || topics[0].ID != t1.ID || topics[0].Posts != 2 || topics[1].ID != t2.ID {
		t.Errorf("Topics = %+v, %v", topics, err)
	}
	posts, err := s.Posts(ctx, t1.ID, 10, 0)
	if err != nil || len(posts) != 2 || posts[0].Body != "first!" || posts[1].Body != "welcome" || posts[1].Author != "replier" {
		t.Errorf("Posts = %+v, %v", posts, err)
	}
	if posts, err := s.Posts(ctx, t1.ID, 10, 1); err != nil || len(posts) != 1 {
		t.Errorf("Posts offset 1 = %+v, %v", posts, err)
	}
	if _, err := s.Topic(ctx, 1<<40); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown topic: err = %v", err)
	}
}

func testBotModels(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.BotModel(ctx, "shark", "alice"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing model: err = %v", err)
	}
	for _, m := range []string{`{"vpip":0.3}`, `{"vpip":0.25,"hands":40}`} {
		if err := s.PutBotModel(ctx, store.BotModel{Bot: "shark", Opponent: "alice", Model: []byte(m), UpdatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	m, err := s.BotModel(ctx, "shark", "alice")
	if err != nil || string(m.Model) != `{"vpip":0.25,"hands":40}` || !m.UpdatedAt.Equal(at) {
		t.Errorf("BotModel = %+v, %v", m, err)
	}
}

func testPlayerTables(t *testing.T, s store.Store) {
	ctx := context.Background()
	u, err := s.CreateUser(ctx, store.User{Username: "tabler", CreatedAt: at})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Friday", "Monday", "FRIDAY"} {
		pt := store.PlayerTable{Name: name, OwnerID: u.ID, Config: []byte(`{"name":"` + name + `"}`), CreatedAt: at.Add(time.Duration(i) * time.Second)}
		if err := s.SavePlayerTable(ctx, pt); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := s.PlayerTables(ctx)
	if err != nil || len(ts) != 2 || ts[0].Name != "monday" || ts[1].Name != "friday" || string(ts[1].Config) != `{"name":"FRIDAY"}` || ts[0].OwnerID != u.ID {
		t.Fatalf("PlayerTables = %+v, %v", ts, err)
	}
	if err := s.DeletePlayerTable(ctx, "Friday", at); err != nil { // replaced since: stays
		t.Fatal(err)
	}
	if err := s.DeletePlayerTable(ctx, "Monday", at.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePlayerTable(ctx, "nothing", at); err != nil {
		t.Fatal(err)
	}
	if ts, err := s.PlayerTables(ctx); err != nil || len(ts) != 1 || ts[0].Name != "friday" {
		t.Fatalf("after delete: %+v, %v", ts, err)
	}
}

func TestRankingsAndSeats(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		// net, hands, big blinds won (thousandths)
		rows := []struct {
			name              string
			net, hands, milli int64
			guest             bool
		}{
			{"ann", 500, 10, 2_500, false},    // 250 mbb a hand
			{"bob", 900, 100, 45_000, false},  // 450
			{"cyd", -300, 50, -15_000, false}, // -300
			{"dee", 100, 2, 5_000, false},     // 2 500: too few hands for the win-rate ranking
			{"guest-x", 5_000, 100, 90_000, true},
		}
		for _, r := range rows {
			u, err := s.CreateUser(ctx, store.User{Username: r.name, Guest: r.guest, CreatedAt: at})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.AddStats(ctx, u.ID, store.Stats{HandsPlayed: r.hands, NetWon: r.net, BBWonMilli: r.milli, VPIPHands: r.hands / 2, PFRHands: 1}); err != nil {
				t.Fatal(err)
			}
		}
		names := func(by store.Rank, minHands int64, limit, offset int) []string {
			rs, err := s.Rankings(ctx, by, minHands, limit, offset)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range rs {
				out = append(out, r.Name)
			}
			return out
		}
		check := func(got []string, want ...string) {
			t.Helper()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("got %v, want %v", got, want)
			}
		}
		check(names(store.RankByNet, 0, 10, 0), "bob", "ann", "dee", "cyd")
		check(names(store.RankByNet, 0, 2, 1), "ann", "dee")
		check(names(store.RankByWinRate, 10, 10, 0), "bob", "ann", "cyd")
		check(names(store.RankByWinRate, 0, 10, 0), "dee", "bob", "ann", "cyd")
		if rs, err := s.Rankings(ctx, store.RankByNet, 0, 1, 0); err != nil || rs[0].VPIPHands != 50 || rs[0].BBWonMilli != 45_000 {
			t.Errorf("top row %+v, %v", rs, err)
		}
		if _, err := s.Rankings(ctx, "luck", 0, 1, 0); err == nil {
			t.Error("an unknown order ranked")
		}

		ann, _ := s.UserByName(ctx, "ann")
		bob, _ := s.UserByName(ctx, "bob")
		for _, d := range []struct {
			ref   string
			user  int64
			delta int64
		}{{"t1", ann.ID, 1000}, {"t1", bob.ID, 500}, {"t1", ann.ID, -250}, {"t2", ann.ID, 40}} {
			if err := s.AddToSeat(ctx, d.ref, d.user, d.delta, true); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.DeleteSeat(ctx, "t1", bob.ID); err != nil {
			t.Fatal(err)
		}
		seats, err := s.Seats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, st := range seats {
			got[fmt.Sprintf("%s/%d", st.TableRef, st.UserID)] = st.Stack
		}
		want := map[string]int64{fmt.Sprintf("t1/%d", ann.ID): 750, fmt.Sprintf("t2/%d", ann.ID): 40}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("seats %v, want %v", got, want)
		}
		if err := s.AddToSeat(ctx, "t2", ann.ID, -41, false); err == nil {
			t.Error("a seat went below zero")
		}
		if err := s.AddToSeat(ctx, "t3", ann.ID, 10, false); err != nil {
			t.Fatal(err)
		}
		if seats, _ := s.Seats(ctx); len(seats) != 2 {
			t.Errorf("a seat was made without create: %+v", seats)
		}
	})
}
