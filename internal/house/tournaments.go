package house

import (
	"context"
	"errors"
	"fmt"

	"github.com/felt-poker/felt/internal/store"
)

// A tournament's play money moves through the ledger like a table's: the buy-in
// leaves the player's credits when they register (a buy_in row whose table is
// the tournament's reference), comes back if they unregister before the start,
// and a prize comes back as a cash_out row. Each is booked in the transaction
// that adds, deletes or places the player's tournament entry, so that the entry
// and the ledger never disagree, even across a restart.

// TournamentsRef is the fencing reference of the tournaments' director
// (docs/scaling.md, "Tournaments"): on a house of several nodes, the node
// that directs the tournaments fences it with its director lease's token
// (Fence), and every tournament write of this house (a tournament created, an
// entry, an unregistration, a step with its places and prizes) checks the
// token in its own transaction. A director frozen past its lease therefore
// pays no prize, and takes no buy-in, once another has fenced it. A house on
// one node never fences it, and its writes check nothing.
const TournamentsRef = "tournaments"

// Errors of tournament entries.
var (
	// ErrEntered reports a player registering twice.
	ErrEntered = errors.New("already registered for this tournament")
	// ErrNotEntered reports a player unregistering from a tournament they are
	// not registered for.
	ErrNotEntered = errors.New("not registered for this tournament")
)

// EnterTournament registers a player (e.UserID) for a tournament and takes
// e.BuyIn from their credits, at ref in the ledger; it returns the credits
// left. A bot's entry (UserID 0) books nothing. Registering twice is
// ErrEntered; a buy-in above the credits ErrInsufficientCredits. Either
// changes nothing.
func (h *House) EnterTournament(ctx context.Context, ref string, e store.TournamentEntry) (int64, error) {
	if e.BuyIn < 0 {
		return 0, fieldError("buy_in", "must not be negative")
	}
	var left int64
	err := h.st.InTx(ctx, func(q store.Queries) error {
		if err := h.fenced(ctx, q, TournamentsRef); err != nil {
			return err
		}
		if e.UserID != 0 {
			if err := q.LockUser(ctx, e.UserID); err != nil {
				return err
			}
			credits, err := q.Balance(ctx, e.UserID)
			if err != nil {
				return err
			}
			if credits < e.BuyIn {
				return &PlayerError{Message: fmt.Sprintf("you have %d credits, less than the buy-in of %d", credits, e.BuyIn), Err: ErrInsufficientCredits}
			}
			left = credits - e.BuyIn
		}
		if err := q.AddTournamentEntry(ctx, e); errors.Is(err, store.ErrDuplicate) {
			return &PlayerError{Message: "you are registered for this tournament already", Err: ErrEntered}
		} else if err != nil {
			return err
		}
		if e.UserID == 0 || e.BuyIn == 0 {
			return nil
		}
		_, err := q.AddEntry(ctx, store.Entry{UserID: e.UserID, Kind: store.KindBuyIn, Amount: -e.BuyIn, TableRef: ref, CreatedAt: h.now()})
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("register user %d for %s: %w", e.UserID, ref, err)
	}
	return left, nil
}

// LeaveTournament unregisters a player from a tournament that has not started
// and returns their buy-in to their credits. A player not registered is
// ErrNotEntered.
func (h *House) LeaveTournament(ctx context.Context, ref string, tournamentID, userID, buyIn int64, note string) error {
	err := h.st.InTx(ctx, func(q store.Queries) error {
		if err := h.fenced(ctx, q, TournamentsRef); err != nil {
			return err
		}
		if err := q.LockUser(ctx, userID); err != nil {
			return err
		}
		if err := q.DeleteTournamentEntry(ctx, tournamentID, userID); isNotFound(err) {
			return &PlayerError{Message: "you are not registered for this tournament", Err: ErrNotEntered}
		} else if err != nil {
			return err
		}
		if buyIn == 0 {
			return nil
		}
		_, err := q.AddEntry(ctx, store.Entry{UserID: userID, Kind: store.KindCashOut, Amount: buyIn, TableRef: ref, Note: note, CreatedAt: h.now()})
		return err
	})
	if err != nil {
		return fmt.Errorf("unregister user %d from %s: %w", userID, ref, err)
	}
	return nil
}

// SaveTournament writes a tournament's record and the entries that changed,
// in one transaction. An entry that gets its place here (it had none stored)
// is a player's result: their prize goes to their credits at ref, and their
// games played, and net won by the prize less the buy-in, grow. An entry
// placed already is not paid again.
func (h *House) SaveTournament(ctx context.Context, ref string, t store.Tournament, entries []store.TournamentEntry) error {
	err := h.st.InTx(ctx, func(q store.Queries) error {
		if err := h.fenced(ctx, q, TournamentsRef); err != nil {
			return err
		}
		if err := q.UpdateTournament(ctx, t); err != nil {
			return err
		}
		var stored map[string]store.TournamentEntry
		for _, e := range entries {
			if e.Place > 0 && e.UserID != 0 {
				if stored == nil {
					all, err := q.TournamentEntries(ctx, t.ID)
					if err != nil {
						return err
					}
					stored = make(map[string]store.TournamentEntry, len(all))
					for _, s := range all {
						stored[s.Name] = s
					}
				}
				if stored[e.Name].Place == 0 {
					if err := h.payEntry(ctx, q, ref, e); err != nil {
						return err
					}
				}
			}
			if err := q.UpdateTournamentEntry(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save tournament %d: %w", t.ID, err)
	}
	return nil
}

// payEntry books a placed player's prize and result.
func (h *House) payEntry(ctx context.Context, q store.Queries, ref string, e store.TournamentEntry) error {
	if err := q.LockUser(ctx, e.UserID); err != nil {
		return err
	}
	if e.Prize > 0 {
		note := fmt.Sprintf("tournament prize: place %d", e.Place)
		if _, err := q.AddEntry(ctx, store.Entry{UserID: e.UserID, Kind: store.KindCashOut, Amount: e.Prize, TableRef: ref, Note: note, CreatedAt: h.now()}); err != nil {
			return err
		}
	}
	return q.AddStats(ctx, e.UserID, store.Stats{GamesPlayed: 1, NetWon: e.Prize - e.BuyIn})
}

// Tournaments returns the tournaments in any of states, newest first, at most limit.
func (h *House) Tournaments(ctx context.Context, limit int, states ...string) ([]store.Tournament, error) {
	return h.st.Tournaments(ctx, limit, states...)
}

// Tournament returns one tournament and its entrants.
func (h *House) Tournament(ctx context.Context, id int64) (store.Tournament, []store.TournamentEntry, error) {
	t, err := h.st.TournamentByID(ctx, id)
	if err != nil {
		return t, nil, err
	}
	e, err := h.st.TournamentEntries(ctx, id)
	return t, e, err
}

// TournamentByID returns one tournament's record.
func (h *House) TournamentByID(ctx context.Context, id int64) (store.Tournament, error) {
	return h.st.TournamentByID(ctx, id)
}

// CreateTournament stores a new tournament (fenced like every tournament write:
// TournamentsRef).
func (h *House) CreateTournament(ctx context.Context, t store.Tournament) (store.Tournament, error) {
	var out store.Tournament
	err := h.st.InTx(ctx, func(q store.Queries) error {
		if err := h.fenced(ctx, q, TournamentsRef); err != nil {
			return err
		}
		var err error
		out, err = q.CreateTournament(ctx, t)
		return err
	})
	return out, err
}

// TournamentRankings returns the players by tournament net (prizes less
// buy-ins), limit (1 to 100) from offset.
func (h *House) TournamentRankings(ctx context.Context, limit, offset int) ([]store.TournamentRanked, error) {
	if limit < 1 || limit > 100 {
		return nil, fieldError("limit", "limit: must be 1 to 100")
	}
	if offset < 0 {
		return nil, fieldError("offset", "offset: must be at least 0")
	}
	return h.st.TournamentRankings(ctx, limit, offset)
}

// TournamentResults returns a player's tournament totals.
func (h *House) TournamentResults(ctx context.Context, userID int64) (store.TournamentResults, error) {
	return h.st.TournamentResults(ctx, userID)
}
