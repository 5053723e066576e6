package table

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/felt-poker/felt/internal/bot"
	"github.com/felt-poker/felt/internal/engine"
	"github.com/felt-poker/felt/internal/house"
	"github.com/felt-poker/felt/internal/store"

	"github.com/felt-poker/felt/protocol"
)

// Variant names on the wire and in configuration.
const (
	NoLimit    = "nlhe"  // no-limit Texas Hold'em
	PotLimit   = "plhe"  // pot-limit Texas Hold'em
	FixedLimit = "flhe"  // fixed-limit Texas Hold'em
	StudThree  = "stud3" // three card stud, the Casino Day game
)

// Who may watch a table (Config.Watchers), as written on the wire.
const (
	WatchAnyone  = "anyone" // anyone who knows the table's name, logged in or not
	WatchPlayers = "none"   // nobody but the players seated at the table
)

// Limits on a table's configuration.
const (
	MaxBuyIn      = 1_000_000
	MinActionTime = 5 * time.Second
	MaxActionTime = 120 * time.Second
	// maxLevel bounds the blind level so that doubling never overflows.
	maxLevel = 20
)

// Bank moves play money between players' credits and tables, and records hands.
// *house.House is one.
type Bank interface {
	BuyIn(ctx context.Context, userID int64, tableRef string, amount int64) (int64, error)
	CashOut(ctx context.Context, userID int64, tableRef string, amount int64) (int64, error)
	RecordHand(ctx context.Context, h store.Hand) (int64, error)
}

// AsyncRecorder is a Bank that stores hands without the table waiting for it
// (*house.House is one): done is called, from another goroutine, with the hand's
// id once it is stored. A table whose Bank is one never blocks on recording.
type AsyncRecorder interface {
	RecordHandAsync(h store.Hand, done func(id int64, err error))
}

// DepartureKeeper is a Bank that keeps the departures of a table in the
// house's store (*house.House is one), so that neither a restart of a house
// on one node nor a table closed and opened again (on any node of a house on
// several) forgets them (departures.go). A table with a HandLog keeps them in
// its log as well, for the node that takes it over. Its ledger worker calls
// KeepDeparture and ForgetDepartures (never the table's goroutine);
// Departures is read once, as a table opens (afresh, or taken over: its log's
// departures and the store's are then made to agree).
type DepartureKeeper interface {
	KeepDeparture(ctx context.Context, ds ...store.Departure) error
	ForgetDepartures(ctx context.Context, table string, userIDs []int64) error
	Departures(ctx context.Context, table string, now time.Time, limit int) ([]store.Departure, error)
}

// Schedule raises the blinds (and ante): protocol.Schedule, the schedule of a
// table's listing.
type Schedule = protocol.Schedule

// Hooks are called by the table's goroutine; they must not block or call back
// into the table.
type Hooks struct {
	// Info reports the table's lobby listing whenever it changes.
	Info func(Info)
	// Closed reports that the table has closed.
	Closed func(name string)
	// Moved, when set, is called instead of Closed when the table stopped
	// without closing: handed over to another node of the house (HandOver,
	// a refused HandLog write). Its seats wait for their new owner.
	Moved func(name string)
	// HandDone reports a finished hand.
	HandDone func()
}

// Config describes a table. Zero durations take the defaults of DefaultTimes.
type Config struct {
	Name       string
	Variant    string // NoLimit, PotLimit, FixedLimit or StudThree
	Seats      int    // 2 to 10
	SmallBlind int64
	BigBlind   int64
	Ante       int64
	MinBuyIn   int64
	MaxBuyIn   int64
	Schedule   Schedule

	// ActionTime is each decision's clock; TimeBank the extra time a seat may spend
	// over all its decisions; MaxTimeouts the timeouts in a row that sit a seat out.
	ActionTime  time.Duration
	TimeBank    time.Duration
	MaxTimeouts int
	// TakeoverGrace is the time a player to act is given on top of what was
	// left of their clock when the table's node was lost and another took
	// it over (docs/rules.md, "Clocks across a takeover").
	TakeoverGrace time.Duration
	// Grace is how long a seat whose player disconnected is kept. Until it ends,
	// the seat keeps its clock and time bank at its turn, as if connected.
	Grace time.Duration
	// SitOutLimit is how long a player may sit out (by choice or after
	// MaxTimeouts) before the table stands them up, their stack returned to
	// their credits.
	SitOutLimit time.Duration
	// ReturnWindow is how long after leaving a seat a player sitting down at
	// the table again brings back at least the stack they left with, and
	// finds the time bank and timeouts in a row they left (departures.go;
	// docs/rules.md, "Coming back with the stack you left with").
	ReturnWindow time.Duration
	// BotDelay is how long a bot seems to think; HandPause the pause between hands.
	BotDelay  time.Duration
	HandPause time.Duration
	// IdleClose is how long a table with nobody in it (no human seated or watching)
	// stays open, unless Permanent.
	IdleClose time.Duration
	// OfferTime is how long a seat freed at a full table is held for the first
	// player on its waiting list.
	OfferTime time.Duration

	// Bots are seated when the table opens, each with BotStack chips (0: MaxBuyIn).
	Bots     []string
	BotStack int64
	// BotModels is where learning bots load and save what they learn of each
	// opponent, who is named by the players' names (bot.Seater); the house passes
	// bot.StoreModels over its store. Nil keeps the models in memory.
	BotModels bot.ModelStore
	// BotTimes, when not nil, hears how long each bot decision took (the
	// house's metrics); it is called from the bots' goroutines.
	BotTimes bot.DecisionObserver
	// Thinkers, when not nil, bounds the bots that think for long thinking at
	// once, at this table and every other sharing it (the house's).
	Thinkers *Thinkers
	// NewBot makes the bots (nil: bot.New): tests seat bots of their own. The
	// names in Bots are still checked against bot's registry.
	NewBot func(name string, o bot.Options) (bot.Bot, error)

	// Straddle lets the player under the gun straddle (no-limit and pot-limit
	// Hold'em), when they chose to (SetOptions); RunItTwice lets the players run
	// the board twice when all in before the river and every one still in
	// agreed (Hold'em). Bots never straddle and always agree to run it twice.
	// docs/rules.md, "Straddle" and "Run it twice".
	Straddle   bool
	RunItTwice bool

	// Permanent tables (bot showcases, the house's default tables) never close
	// for lack of humans.
	Permanent bool
	// HeadsUp tables play until one seat is broke or the human leaves, then close.
	HeadsUp bool
	// Private tables are not listed in the lobby.
	Private bool
	// Lock, when set, keeps the table to the players who gave its key (Admit):
	// a password (the table is listed as locked) or an invitation (the table
	// is not listed). See lock.go.
	Lock *Lock
	// Watchers says who may watch the table: WatchAnyone, or WatchPlayers (only
	// the people seated at it). The default is WatchPlayers for a Private table,
	// WatchAnyone otherwise.
	Watchers string

	// Tourney makes the table a tournament's (see Tourney); nil for a cash table.
	Tourney *Tourney

	// RefPrefix starts the ledger reference of the table (default "table:"); the
	// reference is RefPrefix, the name and a random suffix, so that a name used
	// again later is another table in the ledger.
	RefPrefix string

	Bank  Bank
	Hooks Hooks
	Log   *slog.Logger

	// HandLog, when not nil, receives every hand ahead of play (handlog.go):
	// a house on several nodes. Hands are then recorded before the next is
	// dealt, so that the store's seats follow the log.
	HandLog HandLog
	// Resume, when not nil, opens the table as another node left it (handlog.go).
	Resume *Resume
}

// DefaultReturnWindow is Config.ReturnWindow's default: card rooms ask a
// player back at the same table within half an hour to an hour for the
// stack they left with.
const DefaultReturnWindow = 30 * time.Minute

// DefaultTakeoverGrace is Config.TakeoverGrace's default.
const DefaultTakeoverGrace = 10 * time.Second

// DefaultTimes fills the zero durations and counts of c with the defaults: 20 s to
// act, a 30 s time bank, 10 s more to act after a takeover, sat out after 2 timeouts in a row, stood up after 5
// minutes sitting out, the stack left with brought back for 30 minutes, 2 minutes of grace,
// 700 ms for a bot, 3 s between hands, closing after a minute with nobody in; and
// the default Watchers.
func (c *Config) DefaultTimes() {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.ActionTime, 20*time.Second)
	def(&c.TimeBank, 30*time.Second)
	def(&c.Grace, 2*time.Minute)
	def(&c.TakeoverGrace, DefaultTakeoverGrace)
	def(&c.SitOutLimit, 5*time.Minute)
	def(&c.ReturnWindow, DefaultReturnWindow)
	def(&c.BotDelay, 700*time.Millisecond)
	def(&c.HandPause, 3*time.Second)
	def(&c.IdleClose, time.Minute)
	def(&c.OfferTime, 30*time.Second)
	if c.MaxTimeouts == 0 {
		c.MaxTimeouts = 2
	}
	if c.Variant == StudThree && c.Ante == 0 {
		c.Ante = engine.DefaultStudAnte
	}
	if c.Lock != nil && c.Lock.Kind == LockInvite {
		c.Private = true // an invitation's table is not listed
	}
	if c.Watchers == "" {
		c.Watchers = WatchAnyone
		if c.Private && c.Lock == nil { // a lock's key lets watchers in
			c.Watchers = WatchPlayers
		}
	}
}

func invalid(field, format string, args ...any) error {
	return &house.FieldError{Field: field, Message: field + ": " + fmt.Sprintf(format, args...), Err: house.ErrInvalid}
}

// Validate checks the game and stakes of c (after DefaultTimes); each error is a
// *house.FieldError naming the field at fault with its wire name.
func (c *Config) Validate() error {
	if c.Name == "" {
		return invalid("name", "is required")
	}
	switch c.Variant {
	case NoLimit, PotLimit, FixedLimit:
		if c.SmallBlind <= 0 {
			return invalid("small_blind", "must be positive")
		}
		if c.BigBlind < c.SmallBlind {
			return invalid("big_blind", "must be at least the small blind")
		}
		if c.Ante < 0 || c.Ante >= c.BigBlind {
			return invalid("ante", "must be at least 0 and less than the big blind")
		}
	case StudThree:
		if c.SmallBlind != 0 {
			return invalid("small_blind", "three card stud has no blinds")
		}
		if c.BigBlind != 0 {
			return invalid("big_blind", "three card stud has no blinds")
		}
		if c.Ante < 1 {
			return invalid("ante", "must be at least 1")
		}
	default:
		return invalid("variant", "must be nlhe, plhe, flhe or stud3")
	}
	if c.Straddle && c.Variant != NoLimit && c.Variant != PotLimit {
		return invalid("straddle", "only in no-limit and pot-limit Hold'em")
	}
	if c.RunItTwice && c.Variant == StudThree {
		return invalid("run_it_twice", "only in Hold'em")
	}
	if c.Seats < engine.MinSeats || c.Seats > engine.MaxSeats {
		return invalid("seats", "must be %d to %d", engine.MinSeats, engine.MaxSeats)
	}
	minBuyIn := c.BigBlind
	if c.Variant == StudThree {
		minBuyIn = 10 * c.Ante
	}
	if c.MinBuyIn < minBuyIn {
		return invalid("min_buy_in", "must be at least %d", minBuyIn)
	}
	if c.MaxBuyIn <= c.MinBuyIn {
		return invalid("max_buy_in", "must be more than the minimum buy-in")
	}
	if c.MaxBuyIn > MaxBuyIn {
		return invalid("max_buy_in", "must be at most %d", MaxBuyIn)
	}
	if c.Schedule.EveryHands < 0 {
		return invalid("schedule", "every_hands must not be negative")
	}
	if c.Schedule.EveryMinutes < 0 {
		return invalid("schedule", "every_minutes must not be negative")
	}
	if c.TakeoverGrace < 0 || c.TakeoverGrace > MaxActionTime {
		return invalid("takeover_grace", "must be 0 to %v", MaxActionTime)
	}
	if c.ActionTime < MinActionTime || c.ActionTime > MaxActionTime {
		return invalid("action_seconds", "must be %d to %d", int(MinActionTime/time.Second), int(MaxActionTime/time.Second))
	}
	max := c.Seats - 1
	if c.Permanent {
		max = c.Seats
	}
	if len(c.Bots) > max {
		return invalid("bots", "at most %d", max)
	}
	for _, b := range c.Bots {
		if err := bot.CheckGame(b, c.botGame()); err != nil {
			return invalid("bots", "%v", err)
		}
	}
	if c.Lock != nil && !c.Lock.valid() {
		return invalid("lock", "is not a lock the house made")
	}
	if c.Watchers != WatchAnyone && c.Watchers != WatchPlayers {
		return invalid("watchers", "must be %q or %q", WatchPlayers, WatchAnyone)
	}
	if c.BotStack < 0 || c.BotStack > MaxBuyIn {
		return invalid("bot_stack", "must be 0 to %d", MaxBuyIn)
	}
	if c.Bank == nil {
		return invalid("bank", "is required")
	}
	return nil
}

// botGame is the game the table's bots are told they play.
func (c *Config) botGame() *bot.Game {
	v, s := c.engineGame()
	return &bot.Game{Variant: v, Structure: s, Seats: c.Seats}
}

// engineGame returns the engine's variant and structure for c.Variant.
func (c *Config) engineGame() (engine.Variant, engine.Structure) {
	switch c.Variant {
	case PotLimit:
		return engine.Holdem, engine.PotLimit
	case FixedLimit:
		return engine.Holdem, engine.FixedLimit
	case StudThree:
		return engine.StudThree, engine.NoLimit
	}
	return engine.Holdem, engine.NoLimit
}

// minStack is the fewest chips a seat needs to be dealt in.
func (c *Config) minStack() int64 {
	if c.Variant == StudThree {
		return c.Ante
	}
	return 1
}
