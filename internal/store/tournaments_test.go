package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

func TestTournaments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		a, err := s.CreateUser(ctx, store.User{Username: "alice"})
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.CreateUser(ctx, store.User{Username: "bob"})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := s.CreateTournament(ctx, store.Tournament{Spec: []byte(`{"name":"x"}`), State: store.TourneyRegistering})
		if err != nil || tr.ID == 0 {
			t.Fatalf("create: %+v %v", tr, err)
		}
		for _, e := range []store.TournamentEntry{
			{TournamentID: tr.ID, Name: "alice", UserID: a.ID, BuyIn: 100, Stack: 1500},
			{TournamentID: tr.ID, Name: "bob", UserID: b.ID, BuyIn: 100, Stack: 1500},
			{TournamentID: tr.ID, Name: "bot-call-3", Bot: "call", Stack: 1500},
			{TournamentID: tr.ID, Name: "bot-call-4", Bot: "call", Stack: 1500},
		} {
			if err := s.AddTournamentEntry(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddTournamentEntry(ctx, store.TournamentEntry{TournamentID: tr.ID, Name: "alice2", UserID: a.ID}); !errors.Is(err, store.ErrDuplicate) {
			t.Errorf("the same player twice: %v", err)
		}
		if n, err := s.TournamentsEntered(ctx, a.ID); err != nil || n != 1 {
			t.Errorf("entered: %d %v", n, err)
		}
		if sum, err := s.RegisteredBuyIns(ctx, a.ID); err != nil || sum != 100 {
			t.Errorf("registered buy-ins: %d %v", sum, err)
		}
		if err := s.DeleteTournamentEntry(ctx, tr.ID, b.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteTournamentEntry(ctx, tr.ID, b.ID); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("delete twice: %v", err)
		}
		tr.State, tr.Entrants, tr.Pool, tr.StartedAt, tr.Elapsed = store.TourneyRunning, 3, 100, time.Now(), 90*time.Second
		if err := s.UpdateTournament(ctx, tr); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateTournamentEntry(ctx, store.TournamentEntry{TournamentID: tr.ID, Name: "alice", Place: 1, Prize: 100}); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateTournamentEntry(ctx, store.TournamentEntry{TournamentID: tr.ID, Name: "nobody"}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("update a stranger: %v", err)
		}
		got, err := s.TournamentByID(ctx, tr.ID)
		if err != nil || got.State != store.TourneyRunning || got.Elapsed != 90*time.Second || got.Pool != 100 || string(got.Spec) != `{"name":"x"}` {
			t.Errorf("stored: %+v %v", got, err)
		}
		if _, err := s.TournamentByID(ctx, tr.ID+99); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}
		list, err := s.Tournaments(ctx, 10, store.TourneyRunning, store.TourneyRegistering)
		if err != nil || len(list) != 1 {
			t.Errorf("list: %+v %v", list, err)
		}
		es, err := s.TournamentEntries(ctx, tr.ID)
		if err != nil || len(es) != 3 || es[0].Name != "alice" || es[0].Place != 1 || es[2].Bot != "call" || es[2].UserID != 0 {
			t.Errorf("entries: %+v %v", es, err)
		}
		if n, err := s.TournamentsEntered(ctx, a.ID); err != nil || n != 0 {
			t.Errorf("entered once placed: %d %v", n, err)
		}
		if sum, err := s.RegisteredBuyIns(ctx, a.ID); err != nil || sum != 0 {
			t.Errorf("registered buy-ins once started: %d %v", sum, err)
		}
		res, err := s.TournamentResults(ctx, a.ID)
		if err != nil || res != (store.TournamentResults{Played: 1, Won: 1, Cashed: 1, BuyIns: 100, Prizes: 100}) {
			t.Errorf("results: %+v %v", res, err)
		}
		rk, err := s.TournamentRankings(ctx, 10, 0)
		if err != nil || len(rk) != 1 || rk[0].Name != "alice" || rk[0].Won != 1 {
			t.Errorf("rankings: %+v %v", rk, err)
		}
	})
}
