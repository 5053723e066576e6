package table

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/cards"
	"github.com/felt-poker/felt/internal/house"
)

// A tournament's table (Config.Tourney) plays tournament chips that belong to
// the tournament, not to anyone's credits: nothing at it touches the ledger. Its
// director seats the players (Tourney.Seats when it opens, SeatTourney after),
// sets the blinds of every hand (Tourney.Blinds) and hears of every finished
// hand (Tourney.HandEnd), which says who busted and which players leave for
// another table. Nobody leaves it by choice: a player who sits out, leaves or
// disconnects for longer than the grace stays dealt in and is blinded out (a
// seat sitting out checks or folds at once), until they sit in again or bust.
// It deals to bots alone as readily as to people, and never closes by itself.

// ErrTourneySeat refuses a buy-in at a tournament's table: its director seats
// the players.
var ErrTourneySeat = fmt.Errorf("%w: the tournament seats its players: register for it in the lobby", house.ErrForbidden)

// Tourney makes a table one of a tournament's.
type Tourney struct {
	// ID is the tournament's, shown in the table's listing.
	ID int64
	// Seats are seated when the table opens.
	Seats []TourneySeat
	// Blinds returns the level and the blinds of a hand dealt at now.
	Blinds func(now time.Time) (level int, small, big, ante int64)
	// HandEnd reports every finished hand and returns the players who leave the
	// table now (to another table, or the winner): their stacks are the ones
	// the report gave. It is called on the table's goroutine: it must not block
	// or call into the table.
	HandEnd func(TourneyHand) []Player
}

// TourneySeat is a player at a tournament's table and their chips; Bot names
// the bot that plays the seat ("" for a person; in what the table reports, any
// bot is "bot").
type TourneySeat struct {
	Player Player `json:"player"`
	Bot    string `json:"bot,omitempty"`
	Stack  int64  `json:"stack"`
}

// TourneyHand is a finished hand at a tournament's table.
type TourneyHand struct {
	Table string
	Hand  int64
	// Seats are the players still seated, with their stacks after the hand, in
	// the order they pay the big blind from the next hand on.
	Seats []TourneySeat
	// Busted are the players who lost their last chip, each with the stack they
	// started the hand with.
	Busted []TourneySeat
}

// tourney reports whether the table is a tournament's.
func (t *Table) tourney() bool { return t.cfg.Tourney != nil }

// newBot makes the bot called name for seat i, seeded from the table's seed.
func (t *Table) newBot(name string, models bot.ModelStore, rng *rand.Rand) (*botSeat, error) {
	return t.newBotSeat(name, bot.Options{Rand: rand.New(rand.NewChaCha8(randomSeed(rng))), Models: models, Game: t.cfg.botGame()})
}

// seatTourney puts s in seat i (on the table's goroutine, or before it runs).
func (t *Table) seatTourney(i int, s TourneySeat) error {
	st := seat{occupied: true, p: s.Player, stack: s.Stack, bank: t.cfg.TimeBank}
	if s.Bot != "" {
		var models bot.ModelStore
		if t.models != nil {
			models = t.models
		}
		seed := cards.RandomSeed()
		b, err := t.newBot(s.Bot, models, rand.New(rand.NewChaCha8(seed)))
		if err != nil {
			return err
		}
		st.bot, st.p.ID = b, 0
	} else {
		t.hadHuman = true
	}
	t.seats[i] = st
	t.chipsIn += s.Stack
	t.version++
	return nil
}

// seatAll seats a new tournament table's players (cfg.Tourney.Seats), or,
// for a table taken up from its log (cfg.Resume), its hand in play and its
// players (resumeTourney).
func (t *Table) seatAll(cfg Config) error {
	if len(cfg.Tourney.Seats)+len(cfg.Bots) > cfg.Seats {
		return invalid("seats", "%d players at %d seats", len(cfg.Tourney.Seats)+len(cfg.Bots), cfg.Seats)
	}
	if cfg.Resume != nil {
		return t.resumeTourney(cfg.Resume, cfg.Tourney.Seats, time.Now())
	}
	for i, s := range cfg.Tourney.Seats {
		if err := t.seatTourney(len(cfg.Bots)+i, s); err != nil {
			return err
		}
	}
	return nil
}

// resumeTourney takes a tournament's table up from its log on the node that
// directs the tournament now (docs/scaling.md, "Tournament tables"): the table
// keeps its reference, hand number and button; the hand in play, if any, goes
// on with the players it dealt in, at their seats, with the stacks they were
// dealt in with. seats are the players the tournament's store places at the
// table, with their stacks after their last hand: those not in the hand in play
// sit where the log had them, if that seat is free, or in the first free seat,
// from the next hand on. The store placed the players of a hand in play at this
// table with the stacks it dealt them (the director stores each step before the
// next hand is dealt), so nobody is seated twice.
func (t *Table) resumeTourney(r *Resume, seats []TourneySeat, now time.Time) error {
	r.Fold()
	st := r.State
	if err := t.resumeCount(&st, now); err != nil {
		return err
	}
	rest := append([]TourneySeat(nil), seats...)
	take := func(name string) (TourneySeat, bool) {
		k := slices.IndexFunc(rest, func(s TourneySeat) bool { return s.Player.Name == name })
		if k < 0 {
			return TourneySeat{}, false
		}
		s := rest[k]
		rest = slices.Delete(rest, k, k+1)
		return s, true
	}
	if r.Hand != nil {
		for i, ls := range st.Seats {
			if !ls.Occupied || i >= len(r.HandCfg.Stacks) || r.HandCfg.Stacks[i] == 0 {
				continue
			}
			s, ok := take(ls.Name)
			if !ok {
				if ls.Bot {
					return invalid("resume", "seat %d: the hand in play deals in a bot the tournament does not place here", i)
				}
				t.log.Error("resumed a player in the hand in play whom the tournament places elsewhere", "seat", i, "player", ls.Name)
				s.Player = Player{ID: ls.ID, Name: ls.Name}
			}
			s.Stack = r.HandCfg.Stacks[i]
			if err := t.seatTourney(i, s); err != nil {
				return err
			}
			t.seats[i].inHand = true
			t.resumeTourneySeat(i, s, ls, r, now)
		}
		t.resumeHand(r, now)
	}
	for i, ls := range st.Seats {
		if ls.Occupied && !t.seats[i].occupied {
			if s, ok := take(ls.Name); ok {
				if err := t.seatTourney(i, s); err != nil {
					return err
				}
				t.resumeTourneySeat(i, s, ls, r, now)
			}
		}
	}
	for _, s := range rest {
		i := slices.IndexFunc(t.seats, func(x seat) bool { return !x.occupied })
		if i < 0 {
			return invalid("resume", "no free seat for %s", s.Player.Name)
		}
		if err := t.seatTourney(i, s); err != nil {
			return err
		}
		if moved := &t.seats[i]; moved.bot == nil { // away too, until they reconnect
			moved.away, moved.awaySince = true, now
		}
	}
	t.resumeLocal(&st)
	return nil
}

// resumeTourneySeat gives seat i, where s was seated again, what ls logged of
// its own if ls is the same player: time bank, timeouts and options; for a
// person, sitting out (blinded out) and the away mark and its grace as at a
// cash table (resumeSeatLocal): every player is away until they reconnect, and
// one away already is sat out when what was left of their grace ends.
func (t *Table) resumeTourneySeat(i int, s TourneySeat, ls LogSeat, r *Resume, now time.Time) {
	st := &t.seats[i]
	if s.Player.ID != ls.ID || s.Player.Name != ls.Name {
		return
	}
	if st.bot != nil {
		resumeSeatOwn(st, ls)
		return
	}
	st.sittingOut = ls.SittingOut
	resumeSeatLocal(st, ls, r.lived(i), now)
}

// SeatTourney seats s at a tournament's table, in its first free seat, from the
// next hand on: a player moved from another table.
func (t *Table) SeatTourney(ctx context.Context, s TourneySeat) error {
	if s.Stack <= 0 {
		return invalid("stack", "must be positive")
	}
	return t.call(ctx, func() error {
		if !t.tourney() {
			return errors.New("not a tournament's table")
		}
		if s.Bot == "" && t.seatOf(s.Player.ID) >= 0 {
			return ErrSeated
		}
		for i := range t.seats {
			if _, held := t.reserved[i]; !t.seats[i].occupied && !held {
				return t.seatTourney(i, s)
			}
		}
		return fmt.Errorf("%w: the table is full", ErrSeatTaken)
	})
}

// tourneyBlinds sets the hand's blinds from the director's clock.
func (t *Table) tourneyBlinds(now time.Time) (small, big, ante int64) {
	level, small, big, ante := t.cfg.Tourney.Blinds(now)
	if level != t.level {
		t.level = level
		t.version++
	}
	t.tSmall, t.tBig, t.tAnte = small, big, ante
	return small, big, ante
}

// finishTourneyHand reports the hand to the director and frees the seats of the
// busted players and of those the director moves.
func (t *Table) finishTourneyHand(started []int64) {
	h := TourneyHand{Table: t.cfg.Name, Hand: t.handNo}
	bb := -1
	if t.hand != nil {
		v := t.hand.SpectatorView()
		bb = v.BigBlind
	}
	n := len(t.seats)
	for k := 1; k <= n; k++ {
		i := (bb + k + n) % n
		st := &t.seats[i]
		st.inHand = false
		if !st.occupied {
			continue
		}
		ts := TourneySeat{Player: st.p, Stack: st.stack}
		if st.bot != nil {
			ts.Bot = "bot"
		}
		if st.stack < t.cfg.minStack() {
			ts.Stack = started[i]
			h.Busted = append(h.Busted, ts)
			t.chipsOut += st.stack
			t.seats[i] = seat{}
			t.version++
			continue
		}
		h.Seats = append(h.Seats, ts)
	}
	for _, p := range t.cfg.Tourney.HandEnd(h) {
		for i := range t.seats {
			st := &t.seats[i]
			if st.occupied && st.p.Name == p.Name && st.p.ID == p.ID {
				t.chipsOut += st.stack
				t.seats[i] = seat{}
				t.version++
			}
		}
	}
}

// clearTourney empties a tournament's closing table: the chips stay the
// tournament's (its director keeps each player's stack after every hand).
func (t *Table) clearTourney() {
	for i := range t.seats {
		t.chipsOut += t.seats[i].stack
		t.seats[i] = seat{}
	}
}

// ErrInHand refuses to move a player dealt in the hand in play.
var ErrInHand = errors.New("the player is in the hand in play")

// UnseatTourney takes p from a tournament's table, unless they are dealt in the
// hand in play, and returns their seat and chips: a player moved from a table
// that deals no hand (one player left at it).
func (t *Table) UnseatTourney(ctx context.Context, p Player) (TourneySeat, error) {
	var out TourneySeat
	err := t.call(ctx, func() error {
		for i := range t.seats {
			st := &t.seats[i]
			if !st.occupied || st.p != p {
				continue
			}
			if t.handLive && st.inHand {
				return ErrInHand
			}
			out = TourneySeat{Player: p, Stack: st.stack}
			if st.bot != nil {
				out.Bot = "bot"
			}
			t.chipsOut += st.stack
			t.seats[i] = seat{}
			t.version++
			return nil
		}
		return ErrNotSeated
	})
	return out, err
}
