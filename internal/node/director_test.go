package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
	"github.com/felt-poker/felt/internal/tournament/live"
)

// duel is a heads-up sit-and-go: 100 to enter, 1,000 chips, levels of five
// minutes (the blinds do not move during the test).
func duel() live.Config {
	return live.Config{SitAndGos: []tournament.Spec{{Name: "Duel", Kind: tournament.SitAndGo, Seats: 2, BuyIn: 100, Stack: 1000}}}
}

// openSNG returns the id of d's sit-and-go open for registration, or 0.
func openSNG(d *live.Director) int64 {
	for _, in := range d.List(0) {
		if in.Kind == tournament.SitAndGo && in.State == store.TourneyRegistering {
			return in.ID
		}
	}
	return 0
}

// tableOf returns the table tournament id seats p at on d, or "".
func tableOf(ctx context.Context, d *live.Director, id int64, p string) string {
	in, err := d.Info(ctx, id, 0)
	if err != nil {
		return ""
	}
	for _, s := range in.Standings {
		if s.Name == p {
			return s.Table
		}
	}
	return ""
}

// player registers a player on n's house.
func (n *testNode) player(t *testing.T, ctx context.Context, name string) table.Player {
	t.Helper()
	u, err := n.h.Register(ctx, house.Registration{Username: name, Password: "correct horse", ConfirmedAdult: true})
	if err != nil {
		t.Fatal(err)
	}
	return table.Player{ID: u.ID, Name: name}
}

func (n *testNode) credits(t *testing.T, ctx context.Context, ps ...table.Player) int64 {
	t.Helper()
	var sum int64
	for _, p := range ps {
		c, err := n.h.Credits(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		sum += c
	}
	return sum
}

// shove has the seated watchers of tbl play all-in (or call, or check) until
// done says so.
func shove(t *testing.T, ctx context.Context, tbl *table.Table, seats map[table.Player]*sink, what string, done func() bool) {
	t.Helper()
	waitFor(t, what, func() bool {
		for p, s := range seats {
			st := s.toAct()
			if st == nil {
				continue
			}
			l := *st.Hand.Legal
			acted := false
			for _, a := range l.Actions {
				if (a == "raise" || a == "bet") && !acted {
					kind := engine.Raise
					if a == "bet" {
						kind = engine.Bet
					}
					acted = tbl.Act(ctx, p, kind, l.MaxTo) == nil
				}
			}
			if !acted && tbl.Act(ctx, p, engine.Call, 0) != nil {
				_ = tbl.Act(ctx, p, engine.Check, 0)
			}
		}
		return done()
	})
}

// TestDirectorTakenOver runs a heads-up sit-and-go on the director's node a,
// then freezes a's director (its lease renewal blocked, as in a long pause)
// and cuts a off NATS mid-tournament: b gets the director lease, fences the
// store and resumes the tournament from the last hand a's table completed.
// The frozen director's registration is refused (a player registers once, on
// b); the tournament is played out on b; the winner is paid once, and the
// chips are conserved (the stacks b resumes with are the entrants' chips; the
// prizes paid are the buy-ins). Woken, a abandons its table and writes
// nothing.
func TestDirectorTakenOver(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	srv := natstest.Start(t)
	relay := natstest.NewRelay(t, srv.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frozen := make(chan struct{})
	var freeze atomic.Bool
	renew := func(ctx context.Context, l *cluster.Lease) error {
		if freeze.Load() {
			select {
			case <-frozen:
			case <-ctx.Done():
			}
		}
		return l.Renew(ctx)
	}
	a := startNodeWith(t, ctx, dsn, relay.URL(), "a", nodeOptions{tournaments: duel(), renew: renew})
	waitFor(t, "a directs the tournaments", a.dir.Directing)
	b := startNodeWith(t, ctx, dsn, srv.ClientURL(), "b", nodeOptions{tournaments: duel()})
	old := a.srv.Tournaments()
	alice, bob, carol := a.player(t, ctx, "alice"), a.player(t, ctx, "bob"), a.player(t, ctx, "carol")
	start := a.credits(t, ctx, alice, bob)
	id := openSNG(old)
	if id == 0 || openSNG(b.srv.Tournaments()) != 0 {
		t.Fatalf("sit-and-go open on a: %d, on b: %d; want one on a only", id, openSNG(b.srv.Tournaments()))
	}
	for _, p := range []table.Player{alice, bob} {
		if err := old.Register(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	var name string
	waitFor(t, "the duel seated on a", func() bool { name = tableOf(ctx, old, id, "alice"); return name != "" })
	ta, err := a.lobby.Table(name)
	if err != nil {
		t.Fatal(err)
	}
	seats := map[table.Player]*sink{alice: {}, bob: {}}
	for p, s := range seats {
		if _, err := ta.Watch(ctx, p, s); err != nil {
			t.Fatal(err)
		}
	}
	// One hand completes on a (the first to act folds) and is stored.
	waitFor(t, "a player to act on a", func() bool {
		for p, s := range seats {
			if s.toAct() != nil && ta.Act(ctx, p, engine.Fold, 0) == nil {
				return true
			}
		}
		return false
	})
	waitFor(t, "the first hand stored", func() bool {
		_, es, err := b.h.Tournament(ctx, id)
		return err == nil && len(es) == 2 && es[0].Stack != 1000
	})

	freeze.Store(true)
	relay.SetCut(true)
	waitFor(t, "b directs the tournaments", b.dir.Directing)
	bd := b.srv.Tournaments()
	in, err := bd.Info(ctx, id, 0)
	if err != nil || in.State != store.TourneyRunning {
		t.Fatalf("the duel on b: %+v, %v; want running", in, err)
	}
	if sum := in.Standings[0].Stack + in.Standings[1].Stack; sum != 2000 {
		t.Fatalf("b resumes with %d chips, want 2000: %+v", sum, in.Standings)
	}

	// The frozen director's late registration is refused; on b, carol
	// registers once.
	next := openSNG(bd)
	if next == 0 {
		t.Fatal("b has no sit-and-go open")
	}
	carolStart := b.credits(t, ctx, carol)
	if err := old.Register(ctx, next, carol); !errors.Is(err, live.ErrMoved) {
		t.Fatalf("the frozen director registered carol: %v, want ErrMoved", err)
	}
	if c := b.credits(t, ctx, carol); c != carolStart {
		t.Fatalf("carol's credits %d after a refused registration, want %d", c, carolStart)
	}
	if err := bd.Register(ctx, next, carol); err != nil {
		t.Fatal(err)
	}
	if err := bd.Register(ctx, next, carol); !errors.Is(err, house.ErrEntered) {
		t.Fatalf("carol registered twice: %v", err)
	}

	// The duel is played out on b.
	var tb *table.Table
	waitFor(t, "the duel's table on b", func() bool {
		n := tableOf(ctx, bd, id, "alice")
		tb, err = b.lobby.Table(n)
		return n != "" && err == nil
	})
	for p := range seats {
		seats[p] = &sink{}
		if _, err := tb.Watch(ctx, p, seats[p]); err != nil {
			t.Fatal(err)
		}
	}
	shove(t, ctx, tb, seats, "the duel finished on b", func() bool {
		in, err := bd.Info(ctx, id, 0)
		return err == nil && in.State == store.TourneyFinished
	})

	// Woken, a stops its table and pays nobody.
	close(frozen)
	relay.SetCut(false)
	select {
	case <-ta.Done():
	case <-time.After(deadline):
		t.Fatal("a's table runs on after a lost the director lease")
	}
	waitFor(t, "a no longer directs", func() bool { return !a.dir.Directing() })
	var es []store.TournamentEntry
	waitFor(t, "the duel's end stored", func() bool {
		var rec store.Tournament
		rec, es, err = b.h.Tournament(ctx, id)
		return err == nil && rec.State == store.TourneyFinished
	})
	places, prizes := map[int]bool{}, int64(0)
	for _, e := range es {
		places[e.Place] = true
		prizes += e.Prize
	}
	if !places[1] || !places[2] || prizes != 200 {
		t.Fatalf("entries %+v: want places 1 and 2 and prizes of 200", es)
	}
	if got := b.credits(t, ctx, alice, bob); got != start {
		t.Fatalf("alice and bob hold %d credits after the duel, want %d (the buy-ins back as one prize)", got, start)
	}
	if c := b.credits(t, ctx, carol); c != carolStart-100 {
		t.Fatalf("carol's credits %d, want %d (registered once)", c, carolStart-100)
	}
}

// get fetches path from the node at base as the player of c, and returns the
// status and the decoded answer.
func get(t *testing.T, c *http.Client, base, path string) (int, map[string]any) {
	t.Helper()
	resp, err := c.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestTournamentsOnEveryNode: the tournaments' API answers on every node.
// While the director lease is held by a node that directs nothing (a ghost),
// every node answers 503 no_director, changing nothing; once a node directs
// them, the other node lists the tournaments and registers, unregisters and
// registers again a player through the director's node, each once, and a
// refusal comes back with its code.
func TestTournamentsOnEveryNode(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ghost, err := cluster.Connect(ctx, cluster.Config{URL: url, Node: "ghost", LeaseTTL: time.Second, Timeout: time.Second, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer ghost.Close()
	gl, err := ghost.AcquireRole(ctx, DirectorRole)
	if err != nil {
		t.Fatal(err)
	}
	stop, renewed := make(chan struct{}), make(chan struct{})
	go func() { // the ghost renews its lease like a live node, and directs nothing
		defer close(renewed)
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
				_ = gl.Renew(ctx)
			}
		}
	}()
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{tournaments: duel()})
	b := startNodeWith(t, ctx, dsn, url, "b", nodeOptions{tournaments: duel()})
	alice := register(t, a.url, "alice")
	credits0, _ := credits(t, ctx, a, "alice")
	for _, n := range []*testNode{a, b} {
		if st, out := get(t, alice, n.url, "/api/tournaments"); st != http.StatusServiceUnavailable || errorCode(out) != "no_director" {
			t.Fatalf("the list with no director: %d %v, want 503 no_director", st, out)
		}
		if st, out := post(t, alice, n.url, "/api/tournaments/1/register", nil); st != http.StatusServiceUnavailable || errorCode(out) != "no_director" {
			t.Fatalf("a registration with no director: %d %v, want 503 no_director", st, out)
		}
	}
	close(stop)
	<-renewed
	if err := gl.Release(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a node directs the tournaments", func() bool { return a.dir.Directing() || b.dir.Directing() })
	other := a
	if a.dir.Directing() {
		other = b
	}
	st, out := get(t, alice, other.url, "/api/tournaments")
	ts, _ := out["tournaments"].([]any)
	if st != http.StatusOK || len(ts) != 1 {
		t.Fatalf("the list on the other node: %d %v, want the sit-and-go", st, out)
	}
	id := int64(ts[0].(map[string]any)["id"].(float64))
	path := fmt.Sprintf("/api/tournaments/%d/", id)
	steps := []struct {
		what, path string
		status     int
		code       string
		credits    int64
	}{
		{"register", "register", http.StatusOK, "", credits0 - 100},
		{"register twice", "register", http.StatusConflict, "registered", credits0 - 100},
		{"unregister", "unregister", http.StatusOK, "", credits0},
		{"unregister twice", "unregister", http.StatusConflict, "not_registered", credits0},
		{"register again", "register", http.StatusOK, "", credits0 - 100},
		{"bots", "bots", http.StatusForbidden, "forbidden", credits0 - 100},
	}
	for _, s := range steps {
		st, out := post(t, alice, other.url, path+s.path, nil)
		if st != s.status || errorCode(out) != s.code {
			t.Fatalf("%s through the other node: %d %v, want %d %q", s.what, st, out, s.status, s.code)
		}
		if c, _ := credits(t, ctx, other, "alice"); c != s.credits {
			t.Fatalf("after %s: %d credits, want %d", s.what, c, s.credits)
		}
	}
	if _, es, err := other.h.Tournament(ctx, id); err != nil || len(es) != 1 || es[0].Name != "alice" {
		t.Fatalf("entries %+v, %v: want alice once", es, err)
	}
	if st, out := get(t, alice, other.url, path[:len(path)-1]); st != http.StatusOK || out["entrants"] != 1.0 {
		t.Fatalf("the sit-and-go on the other node: %d %v, want alice entered", st, out)
	}
}
