package node

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/cluster"
	"github.com/felt-poker/felt/internal/cluster/natstest"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
	"github.com/felt-poker/felt/internal/table"
	"github.com/felt-poker/felt/internal/tournament"
	"github.com/felt-poker/felt/protocol"
)

// TestTourneyTableOnAnyNodeTakenOver plays a heads-up sit-and-go whose table
// runs on the director's node a, by two players connected to node c: their
// watch and actions go through the relay. Mid-hand, on the flop, a is cut off
// NATS (as if killed): b gets the director lease and takes the table up from
// its log, and the players, told the table moved, watch it again through c
// and find the same hand at the same action (same hand key, cards, board, pot
// and player to act). The duel is played out on b: one winner paid once, the
// chips conserved (the store's stacks are the buy-ins' chips at every step,
// and the prizes are the buy-ins), and a's table stopped.
func TestTourneyTableOnAnyNodeTakenOver(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	srv := natstest.Start(t)
	relay := natstest.NewRelay(t, srv.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := startNodeWith(t, ctx, dsn, relay.URL(), "a", nodeOptions{tournaments: duel()})
	waitFor(t, "a directs the tournaments", a.dir.Directing)
	b := startNodeWith(t, ctx, dsn, srv.ClientURL(), "b", nodeOptions{tournaments: duel()})
	c := startNode(t, ctx, dsn, srv.ClientURL(), "c")
	players := map[string]*wsSeat{}
	var ps []table.Player
	for _, name := range []string{"alice", "bob"} {
		players[name] = follow(ctx, dial(t, ctx, c.url, name), name)
		u, _, err := c.h.Player(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, table.Player{ID: u.ID, Name: name})
	}
	start := c.credits(t, ctx, ps...)
	old := a.srv.Tournaments()
	id := openSNG(old)
	for _, p := range ps {
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
	if _, err := c.lobby.Table(name); err == nil {
		t.Fatal("the duel's table is open on c")
	}
	waitFor(t, "c's lobby lists the duel's table", func() bool { _, ok := c.lobby.Info(name); return ok })
	watch := fmt.Sprintf(`{"type":"watch","table":%q}`, name)
	for _, p := range players {
		if r := p.do(t, ctx, watch); r != "ok" {
			t.Fatalf("%s watches %s through c: %s", p.name, name, r)
		}
	}

	// Through c: the button limps, the big blind checks, and on the flop the
	// big blind bets: the button is to act, facing the bet.
	var last *protocol.State // the state last acted on
	act := func(what string, kinds ...string) *protocol.State {
		t.Helper()
		var who *wsSeat
		var st *protocol.State
		waitFor(t, what, func() bool {
			for _, p := range players {
				if st = p.toAct(name); st != nil && after(st, last) {
					who = p
					return true
				}
			}
			return false
		})
		last = st
		for _, k := range kinds {
			if st.Hand.Legal.Can(k) {
				msg := actMsg(name, k, st.Hand.Legal.MinTo)
				if r := who.do(t, ctx, msg); r != "ok" {
					t.Fatalf("%s %ss through c: %s", who.name, k, r)
				}
				return st
			}
		}
		t.Fatalf("%s may not %v: %+v", who.name, kinds, st.Hand.Legal)
		return nil
	}
	act("the button to act", "call")
	act("the big blind to act", "check")
	flop := act("the flop", "bet")
	if flop.Hand.Street != "flop" {
		t.Fatalf("the bet was on the %s, want the flop", flop.Hand.Street)
	}
	var before *protocol.State
	var facing *wsSeat
	waitFor(t, "the button to act facing the bet", func() bool {
		for _, p := range players {
			if st := p.toAct(name); st != nil && after(st, last) {
				before, facing = st, p
				return true
			}
		}
		return false
	})

	relay.SetCut(true) // a is lost to the house
	waitFor(t, "b directs the tournaments", b.dir.Directing)
	waitFor(t, "the duel's table on b", func() bool { _, err := b.lobby.Table(name); return err == nil })
	in, err := b.srv.Tournaments().Info(ctx, id, 0)
	if err != nil || in.State != store.TourneyRunning || in.Standings[0].Stack+in.Standings[1].Stack != 2000 {
		t.Fatalf("the duel on b: %+v, %v; want running with 2,000 chips", in, err)
	}
	waitFor(t, facing.name+" told the table moved", func() bool { return facing.noticed("table_moved") })
	var after *protocol.State
	waitFor(t, facing.name+" to act on b, through c", func() bool {
		if r := facing.do(t, ctx, watch); r != "ok" {
			return false // table_moved until b has it
		}
		after = facing.toAct(name)
		return after != nil && after.Hand.HandKey == before.Hand.HandKey
	})
	// a, the stale owner, changes nothing: its table refuses the fold.
	fp := ps[slices.IndexFunc(ps, func(p table.Player) bool { return p.Name == facing.name })]
	if err := ta.Act(ctx, fp, engine.Fold, 0); err == nil {
		t.Fatal("a's table took a fold after b took it over")
	}
	me, was := after.Mine(), before.Mine()
	switch {
	case after.Hand.Street != "flop" || !slices.Equal(after.Hand.Board, before.Hand.Board) || after.Hand.Pot != before.Hand.Pot:
		t.Fatalf("the hand on b: %s %v pot %d; on a it was %s %v pot %d", after.Hand.Street, after.Hand.Board, after.Hand.Pot,
			before.Hand.Street, before.Hand.Board, before.Hand.Pot)
	case after.Hand.ToAct != before.Hand.ToAct || after.Hand.Legal.Call != before.Hand.Legal.Call:
		t.Fatalf("on b seat %d to call %d; on a seat %d to call %d", after.Hand.ToAct, after.Hand.Legal.Call, before.Hand.ToAct, before.Hand.Legal.Call)
	case !slices.Equal(me.Cards, was.Cards) || me.Stack != was.Stack:
		t.Fatalf("%s's seat on b: %v %d; on a: %v %d", facing.name, me.Cards, me.Stack, was.Cards, was.Stack)
	}

	// The duel is played out on b, the players still on c.
	for _, p := range players {
		if p != facing {
			if r := p.do(t, ctx, watch); r != "ok" {
				t.Fatalf("%s watches on b: %s", p.name, r)
			}
		}
	}
	bd := b.srv.Tournaments()
	waitFor(t, "the duel played out on b", func() bool {
		for _, p := range players {
			if st := p.toAct(name); st != nil {
				l := st.Hand.Legal
				k := "call"
				switch {
				case l.Can("raise"):
					k = "raise"
				case l.Can("bet"):
					k = "bet"
				case !l.Can("call"):
					k = "check"
				}
				p.c.send(ctx, actMsg(name, k, l.MaxTo))
			}
		}
		in, err := bd.Info(ctx, id, 0)
		return err == nil && in.State == store.TourneyFinished
	})
	select { // a's table writes nothing (its lease is gone) and stops
	case <-ta.Done():
	case <-time.After(deadline):
		t.Fatal("a's table still runs")
	}
	relay.SetCut(false)
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
	if got := b.credits(t, ctx, ps...); got != start {
		t.Fatalf("alice and bob hold %d credits after the duel, want %d (the buy-ins back as one prize)", got, start)
	}
}

// TestTourneyTablesBalancedAfterTakeover runs a scheduled tournament of four
// players at two tables on the director's node a, cuts a off NATS while a
// hand is in play at one of them, and plays the tournament out on b, which
// takes both tables up from their logs: the hand in play goes on, a table
// down to one player is broken and its player moved to the other, and the
// tournament ends with four places, the prizes the buy-ins, and the store's
// standings holding the entrants' chips at every look.
func TestTourneyTablesBalancedAfterTakeover(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	srv := natstest.Start(t)
	relay := natstest.NewRelay(t, srv.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := startNodeWith(t, ctx, dsn, relay.URL(), "a", nodeOptions{tournaments: duel()})
	waitFor(t, "a directs the tournaments", a.dir.Directing)
	b := startNodeWith(t, ctx, dsn, srv.ClientURL(), "b", nodeOptions{tournaments: duel()})
	old := a.srv.Tournaments()
	id, err := old.Create(ctx, tournament.Spec{Name: "Nightly", Kind: tournament.Scheduled, Seats: 3, BuyIn: 100, Stack: 1000,
		Start: time.Now().Add(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	var ps []table.Player
	for _, name := range []string{"anne", "bert", "cleo", "dora"} {
		p := a.player(t, ctx, name)
		ps = append(ps, p)
		if err := old.Register(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	start := a.credits(t, ctx, ps...)
	var at map[string]string
	waitFor(t, "the tournament seated at two tables on a", func() bool {
		at, _ = tablesOf(t, ctx, old, id)
		return len(at) == 4 && at["anne"] != "" && len(slices.Compact(slices.Sorted(maps.Values(at)))) == 2
	})

	// At anne's table, the first to act calls: the hand is in play.
	ta, err := a.lobby.Table(at["anne"])
	if err != nil {
		t.Fatal(err)
	}
	sinks := map[table.Player]*sink{}
	for _, p := range ps {
		if at[p.Name] == at["anne"] {
			sinks[p] = &sink{}
			if _, err := ta.Watch(ctx, p, sinks[p]); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := callThenNext(t, ctx, ta, sinks)

	relay.SetCut(true)
	waitFor(t, "b directs the tournaments", b.dir.Directing)
	bd := b.srv.Tournaments()
	var tb *table.Table
	waitFor(t, "anne's table on b", func() bool { tb, err = b.lobby.Table(at["anne"]); return err == nil })
	var after *table.State
	for p := range sinks {
		sinks[p] = &sink{}
		if _, err := tb.Watch(ctx, p, sinks[p]); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the hand in play on b", func() bool {
		for _, s := range sinks {
			if after = s.toAct(); after != nil {
				return true
			}
		}
		return false
	})
	if after.Hand.HandKey != before.Hand.HandKey || after.Hand.Pot != before.Hand.Pot || after.Hand.ToAct != before.Hand.ToAct {
		t.Fatalf("on b: hand %s pot %d seat %d to act; on a: hand %s pot %d seat %d", after.Hand.HandKey, after.Hand.Pot, after.Hand.ToAct,
			before.Hand.HandKey, before.Hand.Pot, before.Hand.ToAct)
	}

	// Everyone shoves on b until the tournament ends; a table broken moves
	// its player.
	watching := map[string]string{}
	ws := map[string]*sink{}
	oneTable := false
	waitFor(t, "the tournament played out on b", func() bool {
		at, chips := tablesOf(t, ctx, bd, id)
		if chips != 4000 {
			t.Fatalf("the standings hold %d chips, want 4,000", chips)
		}
		tables := slices.Compact(slices.Sorted(maps.Values(at)))
		oneTable = oneTable || (len(tables) == 1 && len(at) >= 2)
		for _, p := range ps {
			name := at[p.Name]
			if name == "" {
				continue
			}
			tbl, err := b.lobby.Table(name)
			if err != nil {
				continue
			}
			if watching[p.Name] != name {
				ws[p.Name] = &sink{}
				if _, err := tbl.Watch(ctx, p, ws[p.Name]); err != nil {
					continue
				}
				watching[p.Name] = name
			}
			if st := ws[p.Name].toAct(); st != nil {
				if tbl.Act(ctx, p, engine.Raise, st.Hand.Legal.MaxTo) != nil && tbl.Act(ctx, p, engine.Call, 0) != nil {
					_ = tbl.Act(ctx, p, engine.Check, 0)
				}
			}
		}
		in, err := bd.Info(ctx, id, 0)
		return err == nil && in.State == store.TourneyFinished
	})
	if !oneTable {
		t.Error("the tournament never came to one table: no table was broken after the takeover")
	}
	select { // a's table writes nothing (its lease is gone) and stops
	case <-ta.Done():
	case <-time.After(deadline):
		t.Fatal("a's table still runs")
	}
	relay.SetCut(false)
	var es []store.TournamentEntry
	waitFor(t, "the tournament's end stored", func() bool {
		var rec store.Tournament
		rec, es, err = b.h.Tournament(ctx, id)
		return err == nil && rec.State == store.TourneyFinished
	})
	places, prizes := map[int]bool{}, int64(0)
	for _, e := range es {
		places[e.Place] = true
		prizes += e.Prize
	}
	if len(places) != 4 || prizes != 400 {
		t.Fatalf("entries %+v: want four places and prizes of 400", es)
	}
	if got := b.credits(t, ctx, ps...); got != start+400 {
		t.Fatalf("the players hold %d credits after the tournament, want %d (the buy-ins back as prizes)", got, start+400)
	}
	waitFor(t, "the closed tables out of the registry", func() bool {
		for _, name := range at {
			if _, ok, err := b.c.Lookup(ctx, name); err != nil || ok {
				return false
			}
		}
		return true
	})
}

// TestTourneyTableRedirectedOnTheSameNode has the only node lose the director
// lease mid-hand (its renewals failing past the local deadline) and get it
// again: its table stops (table_moved to its watchers) and the node's new
// director takes it up from its log, the hand in play at the same action.
func TestTourneyTableRedirectedOnTheSameNode(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var frozen atomic.Bool
	renew := func(ctx context.Context, l *cluster.Lease) error {
		if frozen.Load() {
			return errors.New("frozen")
		}
		return l.Renew(ctx)
	}
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{tournaments: duel(), renew: renew})
	waitFor(t, "a directs the tournaments", a.dir.Directing)
	d := a.srv.Tournaments()
	id := openSNG(d)
	ps := []table.Player{a.player(t, ctx, "alice"), a.player(t, ctx, "bob")}
	for _, p := range ps {
		if err := d.Register(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	var name string
	waitFor(t, "the duel seated", func() bool { name = tableOf(ctx, d, id, "alice"); return name != "" })
	t1, err := a.lobby.Table(name)
	if err != nil {
		t.Fatal(err)
	}
	sinks := map[table.Player]*sink{}
	for _, p := range ps {
		sinks[p] = &sink{}
		if _, err := t1.Watch(ctx, p, sinks[p]); err != nil {
			t.Fatal(err)
		}
	}
	before := callThenNext(t, ctx, t1, sinks)

	frozen.Store(true)
	waitFor(t, "a stops directing", func() bool { return !a.dir.Directing() })
	<-t1.Done()
	if !sinks[ps[0]].has("table_moved") {
		t.Error("alice was not told table_moved when the table stopped")
	}
	frozen.Store(false)
	waitFor(t, "a directs again", a.dir.Directing)
	var t2 *table.Table
	waitFor(t, "the table open again", func() bool { t2, err = a.lobby.Table(name); return err == nil && t2 != t1 })
	var after *table.State
	for p := range sinks {
		sinks[p] = &sink{}
		if _, err := t2.Watch(ctx, p, sinks[p]); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the hand in play again", func() bool {
		for _, s := range sinks {
			if after = s.toAct(); after != nil {
				return true
			}
		}
		return false
	})
	if after.Hand.HandKey != before.Hand.HandKey || after.Hand.Pot != before.Hand.Pot || after.Hand.ToAct != before.Hand.ToAct {
		t.Fatalf("again: hand %s pot %d seat %d to act; before: hand %s pot %d seat %d", after.Hand.HandKey, after.Hand.Pot, after.Hand.ToAct,
			before.Hand.HandKey, before.Hand.Pot, before.Hand.ToAct)
	}
}

// TestTourneyTablesHandedOverOnSIGTERM stops the director's node a as felt
// serve does on SIGTERM (its context done, its tables handed over, its server
// shut down, then the director lease released) while a player is to act: b
// directs and takes the table up from its log, the hand in play at the same
// action.
func TestTourneyTablesHandedOverOnSIGTERM(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	actx, stopA := context.WithCancel(ctx)
	a := startNodeWith(t, actx, dsn, url, "a", nodeOptions{tournaments: duel()})
	waitFor(t, "a directs the tournaments", a.dir.Directing)
	b := startNodeWith(t, ctx, dsn, url, "b", nodeOptions{tournaments: duel()})
	d := a.srv.Tournaments()
	id := openSNG(d)
	ps := []table.Player{a.player(t, ctx, "alice"), a.player(t, ctx, "bob")}
	for _, p := range ps {
		if err := d.Register(ctx, id, p); err != nil {
			t.Fatal(err)
		}
	}
	var name string
	waitFor(t, "the duel seated", func() bool { name = tableOf(ctx, d, id, "alice"); return name != "" })
	ta, err := a.lobby.Table(name)
	if err != nil {
		t.Fatal(err)
	}
	sinks := map[table.Player]*sink{}
	for _, p := range ps {
		sinks[p] = &sink{}
		if _, err := ta.Watch(ctx, p, sinks[p]); err != nil {
			t.Fatal(err)
		}
	}
	before := callThenNext(t, ctx, ta, sinks)

	stopA()
	sctx, scancel := context.WithTimeout(ctx, deadline)
	defer scancel()
	if err := errors.Join(a.tables.HandOver(sctx), a.srv.Shutdown(sctx), a.dir.Release(sctx)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b directs the tournaments", b.dir.Directing)
	var tb *table.Table
	waitFor(t, "the duel's table on b", func() bool { tb, err = b.lobby.Table(name); return err == nil })
	for p := range sinks {
		sinks[p] = &sink{}
		if _, err := tb.Watch(ctx, p, sinks[p]); err != nil {
			t.Fatal(err)
		}
	}
	var after *table.State
	waitFor(t, "the hand in play on b", func() bool {
		for _, s := range sinks {
			if after = s.toAct(); after != nil {
				return true
			}
		}
		return false
	})
	if after.Hand.HandKey != before.Hand.HandKey || after.Hand.Pot != before.Hand.Pot || after.Hand.ToAct != before.Hand.ToAct {
		t.Fatalf("on b: hand %s pot %d seat %d to act; on a: hand %s pot %d seat %d", after.Hand.HandKey, after.Hand.Pot, after.Hand.ToAct,
			before.Hand.HandKey, before.Hand.Pot, before.Hand.ToAct)
	}
	in, err := b.srv.Tournaments().Info(ctx, id, 0)
	if err != nil || in.State != store.TourneyRunning || in.Standings[0].Stack+in.Standings[1].Stack != 2000 {
		t.Fatalf("the duel on b: %+v, %v; want running with 2,000 chips", in, err)
	}
}

// TestTourneyTableNotOpenYetMoves relays a watch of a tournament's table to
// the director's node before that node has opened it (a new director still
// restoring its tournaments): the player is answered table_moved ("try
// again"), not not_found, and a name no table has stays not_found.
func TestTourneyTableNotOpenYetMoves(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	url := natstest.Start(t).ClientURL()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	a := startNodeWith(t, ctx, dsn, url, "a", nodeOptions{tournaments: duel()})
	waitFor(t, "a directs the tournaments", a.dir.Directing)
	c := startNode(t, ctx, dsn, url, "c")
	if err := a.c.RegisterRoleTable(ctx, "t999-1", DirectorRole, registration{Tourney: 999}); err != nil {
		t.Fatal(err)
	}
	p := follow(ctx, dial(t, ctx, c.url, "alice"), "alice")
	if r := p.do(t, ctx, `{"type":"watch","table":"t999-1"}`); r != "table_moved" {
		t.Fatalf("a watch of a tournament table not open yet: %s, want table_moved", r)
	}
	if r := p.do(t, ctx, `{"type":"watch","table":"t999-2"}`); r != "not_found" {
		t.Fatalf("a watch of no table: %s, want not_found", r)
	}
}
