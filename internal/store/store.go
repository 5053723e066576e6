// Package store is felt's persistence: accounts, sessions, the play-money ledger,
// player totals, hand records, the message board and bot opponent models, behind one
// set of interfaces with a SQLite backend (the default) and a PostgreSQL backend.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinel errors that callers branch on.
var (
	// ErrNotFound reports that the requested row does not exist.
	ErrNotFound = errors.New("not found")
	// ErrFenced refuses a write for a table by an owner whose fencing token is
	// lower than another's (SeatStore.Fence).
	ErrFenced = errors.New("fenced: a newer owner of the table has written to it")
	// ErrUsernameTaken reports that another user has the same name, ignoring case.
	ErrUsernameTaken = errors.New("username taken")
	// ErrDuplicate reports that a row with the same unique key exists (other than a username).
	ErrDuplicate = errors.New("duplicate")
)

// User is an account, registered or guest.
type User struct {
	ID       int64
	Username string
	// PasswordHash is an argon2id PHC string; empty for guests.
	PasswordHash string
	// Guest marks an account made for quick play, without a password.
	Guest bool
	// AdultConfirmedAt is when the player confirmed being 18 or over; zero if never.
	AdultConfirmedAt time.Time
	Email            string // optional
	Location         string // optional
	CreatedAt        time.Time
	// DeletedAt is when the player deleted the account; zero while it is in use.
	DeletedAt time.Time
	// OwnerID is, for a player's own bot (docs/house.md, "Bring your own bot"),
	// the ID of the player who made it; 0 for every other account.
	OwnerID int64
}

// APIToken is a bot account's API token as stored: its public ID and the
// SHA-256 of its secret (the token itself is never stored).
type APIToken struct {
	ID         string
	UserID     int64
	SecretHash []byte
	CreatedAt  time.Time
}

// Session is a logged-in session. Only the SHA-256 of its token is stored.
type Session struct {
	TokenHash []byte
	UserID    int64
	CreatedAt time.Time
	ExpiresAt time.Time
}

// EntryKind is the kind of a ledger entry.
type EntryKind string

// The kinds of ledger entries. A buy-in is negative (chips leave the credits for a
// table); an adjustment may have either sign; every other kind is positive.
const (
	KindSignupGrant EntryKind = "signup_grant"
	KindBuyIn       EntryKind = "buy_in"
	KindCashOut     EntryKind = "cash_out"
	KindRefill      EntryKind = "refill"
	KindAdjustment  EntryKind = "adjustment"
)

// Kinds lists every entry kind.
func Kinds() []EntryKind {
	return []EntryKind{KindSignupGrant, KindBuyIn, KindCashOut, KindRefill, KindAdjustment}
}

// Valid reports whether amount is a valid amount for an entry of kind k.
func (k EntryKind) Valid(amount int64) error {
	switch {
	case amount == 0:
		return fmt.Errorf("ledger %s: amount must not be zero", k)
	case k == KindBuyIn && amount > 0:
		return fmt.Errorf("ledger %s: amount %d must be negative", k, amount)
	case k == KindSignupGrant || k == KindCashOut || k == KindRefill:
		if amount < 0 {
			return fmt.Errorf("ledger %s: amount %d must be positive", k, amount)
		}
	case k == KindBuyIn || k == KindAdjustment:
	default:
		return fmt.Errorf("ledger: unknown entry kind %q", string(k))
	}
	return nil
}

// Entry is one row of the play-money ledger.
type Entry struct {
	ID       int64
	UserID   int64
	Kind     EntryKind
	Amount   int64
	TableRef string // the table the chips went to or came from, if any
	HandID   int64  // the hand concerned, if any (0: none)
	Note     string
	// CreatedAt is set by AddEntry to the current time when zero.
	CreatedAt time.Time
}

// Stats are a player's running totals (the credits come from the ledger).
type Stats struct {
	GamesPlayed int64
	HandsPlayed int64
	HandsWon    int64
	NetWon      int64
	// VPIPHands and PFRHands count the hands in which the player put chips in
	// voluntarily, and bet or raised, in the first betting round.
	VPIPHands int64
	PFRHands  int64
	// BBWonMilli is the net won in thousandths of each hand's big blind.
	BBWonMilli int64
}

func ratio(n, d int64) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// VPIP is the share of hands in which the player put chips in voluntarily in the
// first betting round (0 with no hands).
func (s Stats) VPIP() float64 { return ratio(s.VPIPHands, s.HandsPlayed) }

// PFR is the share of hands in which the player bet or raised in the first
// betting round (0 with no hands).
func (s Stats) PFR() float64 { return ratio(s.PFRHands, s.HandsPlayed) }

// HandsWonShare is the share of hands the player won a pot in (0 with no hands).
func (s Stats) HandsWonShare() float64 { return ratio(s.HandsWon, s.HandsPlayed) }

// BBPer100 is the win rate: big blinds won per 100 hands (0 with no hands).
func (s Stats) BBPer100() float64 { return ratio(s.BBWonMilli, s.HandsPlayed) / 10 }

// Rank orders players in Rankings.
type Rank string

// The rankings.
const (
	// RankByNet orders players by chips won, most first.
	RankByNet Rank = "net"
	// RankByWinRate orders players by big blinds won per hand, best first.
	RankByWinRate Rank = "win_rate"
)

// Ranked is one player in a ranking.
type Ranked struct {
	UserID int64
	Name   string
	Stats
}

// Seat is what a table holds for a registered player: their buy-in, then their
// stack after each recorded hand.
type Seat struct {
	TableRef  string
	UserID    int64
	Stack     int64
	UpdatedAt time.Time
}

// Hand is a finished hand as recorded for the hand-history viewer and statistics.
type Hand struct {
	ID       int64
	TableRef string
	Variant  string
	// BigBlind is the hand's big blind (three card stud: the ante), the unit of win
	// rates; 0 leaves the hand out of them.
	BigBlind int64
	PHH      string // the hand in Poker Hand History format
	PlayedAt time.Time
	Players  []HandPlayer
	// Private marks a hand of a private table: only its players may see it.
	Private bool
	// Tournament marks a hand played for tournament chips: it counts in the
	// players' hands but not in their net won (a tournament's result does, at
	// its end), and no table seat holds its chips. It is not stored.
	Tournament bool
	// Key, when set, is the hand's unique key (its table's reference and
	// number): a hand whose key is stored already is not stored again. A
	// house on several nodes sets it (a node taking a table over records the
	// hand its lost owner logged as ended, which that owner may have
	// recorded). It is not read back.
	Key string
}

// HandPlayer is one player's part in a recorded hand.
type HandPlayer struct {
	Seat   int
	UserID int64 // 0 for bots and other unregistered players
	Name   string
	Net    int64 // chips won (positive) or lost (negative)
	Won    bool
	// VPIP: the player put chips in voluntarily in the first betting round (a call,
	// bet or raise; blinds and antes do not count). PFR: they bet or raised in it.
	VPIP bool
	PFR  bool
}

// Board is a message board.
type Board struct {
	ID          int64
	Slug        string
	Title       string
	Description string
	Position    int // boards are listed by position, then id
	CreatedAt   time.Time
}

// Topic is a thread on a board; its first post is its opening message.
type Topic struct {
	ID         int64
	BoardID    int64
	UserID     int64
	Author     string
	Title      string
	CreatedAt  time.Time
	LastPostAt time.Time
	Posts      int
}

// Post is one message in a topic.
type Post struct {
	ID        int64
	TopicID   int64
	UserID    int64
	Author    string
	Body      string
	CreatedAt time.Time
}

// BotModel is what a bot has learnt about one opponent, as the bot's own JSON.
type BotModel struct {
	Bot       string
	Opponent  string
	Model     []byte
	UpdatedAt time.Time
}

// PlayerTable is a table a player opened, kept so that it opens again after the
// house restarts.
type PlayerTable struct {
	Name      string // unique ignoring case; PlayerTables returns it in lower case
	OwnerID   int64
	Config    []byte // the table's settings, as JSON
	CreatedAt time.Time
}

// Departure is a player's last departure from a seat of a cash table, kept so
// that neither a restart nor the table closed and opened again (on any node
// of the house) forgets it (table_departures; internal/table/departures.go
// reads it, bounded, as it reads its log's).
type Departure struct {
	Table  string // the table's name, unique ignoring case; Departures returns it in lower case
	UserID int64
	Seat   int
	Hand   int64 // the table's hand number when they left
	LeftAt time.Time
	// ExpiresAt is when no rule reads it any more: it is swept after.
	ExpiresAt    time.Time
	Owes, Busted bool
	Stack, Won   int64
	Bank         time.Duration
	Timeouts     int
}

// DepartureStore holds the departures of the cash tables of a house.
type DepartureStore interface {
	// PutDeparture inserts or replaces the departure of (d.Table, d.UserID),
	// unless the one kept was made later (d.LeftAt before its): a node that
	// lost the table, its write late, does not overwrite the departure the
	// table's new owner wrote since.
	PutDeparture(ctx context.Context, d Departure) error
	// DeleteDeparture removes the departure of user from table, if any.
	DeleteDeparture(ctx context.Context, table string, userID int64) error
	// Departures returns the departures kept for table that expire after
	// now, at most limit of them: the most won first, then the largest stack,
	// then the latest.
	Departures(ctx context.Context, table string, now time.Time, limit int) ([]Departure, error)
	// DeleteExpiredDepartures removes every departure expired at now, of any
	// table, and says how many.
	DeleteExpiredDepartures(ctx context.Context, now time.Time) (int64, error)
}

// UserStore holds accounts.
type UserStore interface {
	// CreateUser inserts u and returns it with its ID; ErrUsernameTaken if the name is taken.
	CreateUser(ctx context.Context, u User) (User, error)
	// UserByID returns the user with that ID or ErrNotFound.
	UserByID(ctx context.Context, id int64) (User, error)
	// UserByName returns the user with that name, ignoring case, or ErrNotFound.
	UserByName(ctx context.Context, username string) (User, error)
	// UserLike returns a user whose name reads like username (ignoring case,
	// capital I, small L and 1 alike, O and 0 alike, rn like m, vv like w),
	// or ErrNotFound.
	UserLike(ctx context.Context, username string) (User, error)
	// UpdateUser writes u's name, password hash, email, location and deletion
	// time over the account with u's ID: ErrNotFound if there is none,
	// ErrUsernameTaken if another account has the name.
	UpdateUser(ctx context.Context, u User) error
	// LockUser serialises, until the end of the current transaction, the changes made
	// to one user's ledger; call it first in a transaction that checks a balance and
	// then writes. It returns ErrNotFound for an unknown user.
	LockUser(ctx context.Context, id int64) error
}

// SessionStore holds login sessions.
type SessionStore interface {
	// CreateSession inserts s.
	CreateSession(ctx context.Context, s Session) error
	// SessionByTokenHash returns the session or ErrNotFound (whatever its expiry).
	SessionByTokenHash(ctx context.Context, hash []byte) (Session, error)
	// TouchSession sets the session's expiry, if it exists.
	TouchSession(ctx context.Context, hash []byte, expiresAt time.Time) error
	// DeleteSession removes the session, if any.
	DeleteSession(ctx context.Context, hash []byte) error
	// DeleteUserSessions removes every session of a user but the one whose
	// token hash is keep (nil: every one) and says how many.
	DeleteUserSessions(ctx context.Context, userID int64, keep []byte) (int64, error)
	// DeleteExpiredSessions removes the sessions expired at now and says how many.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
}

// LedgerStore holds the play-money ledger.
type LedgerStore interface {
	// AddEntry appends e (checked with EntryKind.Valid) and returns it with its ID.
	AddEntry(ctx context.Context, e Entry) (Entry, error)
	// Balance is the sum of a user's entries: their credits.
	Balance(ctx context.Context, userID int64) (int64, error)
	// Entries returns a user's newest entries, newest first, at most limit of them.
	Entries(ctx context.Context, userID int64, limit int) ([]Entry, error)
	// LastEntry returns a user's newest entry of a kind, or ErrNotFound.
	LastEntry(ctx context.Context, userID int64, kind EntryKind) (Entry, error)
	// LedgerTotals sums every entry by kind, over all users.
	LedgerTotals(ctx context.Context) (map[EntryKind]int64, error)
}

// StatsStore holds players' running totals.
type StatsStore interface {
	// AddStats adds d to a user's totals.
	AddStats(ctx context.Context, userID int64, d Stats) error
	// Stats returns a user's totals (zero for a user with none yet).
	Stats(ctx context.Context, userID int64) (Stats, error)
	// Rankings lists registered players (not guests, not deleted accounts) with at least minHands hands
	// played, ordered by, at most limit of them from offset.
	Rankings(ctx context.Context, by Rank, minHands int64, limit, offset int) ([]Ranked, error)
}

// SeatStore holds the stacks that tables hold for players, so that a house that
// stopped without cashing out can return them.
type SeatStore interface {
	// AddToSeat adds delta chips (either sign) to a player's stack at a table. When
	// the player holds no seat there, it creates one with delta chips if create
	// (a buy-in), and does nothing otherwise (a hand at a table whose seats are not
	// kept).
	AddToSeat(ctx context.Context, tableRef string, userID, delta int64, create bool) error
	// DeleteSeat removes a player's seat at a table, or returns ErrNotFound when
	// they hold none there.
	DeleteSeat(ctx context.Context, tableRef string, userID int64) error
	// Seats lists every seat held, oldest first.
	Seats(ctx context.Context) ([]Seat, error)
	// ChipsAtTables sums the stacks the tables hold for a player.
	ChipsAtTables(ctx context.Context, userID int64) (int64, error)
	// Fence raises the fencing token of a table to token, or keeps it if it is
	// token already, and holds the row until the transaction ends; a table
	// whose token is higher (a newer owner's) returns ErrFenced.
	Fence(ctx context.Context, tableRef string, token int64) error
}

// HandStore holds finished hands.
type HandStore interface {
	// SaveHand inserts h and its players and returns its ID. A hand whose Key
	// is stored already is not inserted again: SaveHand returns the stored
	// hand's ID with ErrDuplicate.
	SaveHand(ctx context.Context, h Hand) (int64, error)
	// Hand returns a hand with its players, or ErrNotFound.
	Hand(ctx context.Context, id int64) (Hand, error)
	// HandsByTable returns a table's newest hands, newest first, at most limit.
	HandsByTable(ctx context.Context, tableRef string, limit int) ([]Hand, error)
	// HandsByUser returns the newest hands a user played, newest first, at most limit.
	HandsByUser(ctx context.Context, userID int64, limit int) ([]Hand, error)
}

// BoardStore holds the message board.
type BoardStore interface {
	// CreateBoard inserts b and returns it with its ID; ErrDuplicate if the slug is taken.
	CreateBoard(ctx context.Context, b Board) (Board, error)
	// Boards lists the boards by position.
	Boards(ctx context.Context) ([]Board, error)
	// CreateTopic opens a topic on a board with its first post.
	CreateTopic(ctx context.Context, boardID, userID int64, title, body string, at time.Time) (Topic, error)
	// Topics lists a board's topics, most recently active first.
	Topics(ctx context.Context, boardID int64, limit, offset int) ([]Topic, error)
	// Topic returns one topic or ErrNotFound.
	Topic(ctx context.Context, id int64) (Topic, error)
	// AddPost appends a reply to a topic and returns it with its ID.
	AddPost(ctx context.Context, p Post) (Post, error)
	// Posts lists a topic's posts, oldest first.
	Posts(ctx context.Context, topicID int64, limit, offset int) ([]Post, error)
}

// BotModelStore holds bots' opponent models.
type BotModelStore interface {
	// PutBotModel inserts or replaces the model of (m.Bot, m.Opponent).
	PutBotModel(ctx context.Context, m BotModel) error
	// BotModel returns the model a bot has of an opponent, or ErrNotFound.
	BotModel(ctx context.Context, bot, opponent string) (BotModel, error)
}

// PlayerTableStore holds the tables players opened.
type PlayerTableStore interface {
	// SavePlayerTable inserts or replaces the table called t.Name (ignoring case).
	SavePlayerTable(ctx context.Context, t PlayerTable) error
	// DeletePlayerTable removes the table called name (ignoring case) saved at
	// createdAt, if any: a table of the same name saved since stays.
	DeletePlayerTable(ctx context.Context, name string, createdAt time.Time) error
	// PlayerTables lists every table kept, oldest first.
	PlayerTables(ctx context.Context) ([]PlayerTable, error)
}

// Tournament states.
const (
	TourneyRegistering = "registering"
	TourneyRunning     = "running"
	TourneyFinished    = "finished"
	TourneyCancelled   = "cancelled"
)

// Tournament is a tournament's record.
type Tournament struct {
	ID       int64
	Spec     []byte // internal/tournament.Spec as JSON
	State    string // TourneyRegistering, TourneyRunning, TourneyFinished or TourneyCancelled
	Entrants int
	Pool     int64
	// Elapsed is the play time at the last completed hand (the blind clock).
	Elapsed    time.Duration
	StartedAt  time.Time
	FinishedAt time.Time
	CreatedAt  time.Time
}

// TournamentEntry is one entrant of a tournament: a player (UserID) or a bot.
type TournamentEntry struct {
	TournamentID int64
	Name         string // unique in the tournament
	UserID       int64  // 0 for a bot
	Bot          string // the bot's kind, for a bot
	BuyIn        int64  // taken from the player's credits
	Stack        int64  // chips after the last completed hand
	Table        int    // table number (0: none)
	Place        int    // 0 while in play
	Prize        int64
	RegisteredAt time.Time
}

// TournamentResults are a player's tournament totals.
type TournamentResults struct {
	Played int64 // tournaments finished (a place)
	Won    int64 // first places
	Cashed int64 // places with a prize
	BuyIns int64
	Prizes int64
}

// TournamentRanked is one player in the tournament rankings.
type TournamentRanked struct {
	Name string
	TournamentResults
}

// TournamentStore holds tournaments and their entrants.
type TournamentStore interface {
	// CreateTournament inserts t and returns it with its ID.
	CreateTournament(ctx context.Context, t Tournament) (Tournament, error)
	// UpdateTournament writes t's state, entrants, pool, elapsed, start and finish.
	UpdateTournament(ctx context.Context, t Tournament) error
	// TournamentByID returns one tournament or ErrNotFound.
	TournamentByID(ctx context.Context, id int64) (Tournament, error)
	// Tournaments lists the tournaments in any of states, newest first, at most limit.
	Tournaments(ctx context.Context, limit int, states ...string) ([]Tournament, error)
	// AddTournamentEntry inserts e; ErrDuplicate if its name or player is entered.
	AddTournamentEntry(ctx context.Context, e TournamentEntry) error
	// DeleteTournamentEntry removes a player's entry, or returns ErrNotFound.
	DeleteTournamentEntry(ctx context.Context, tournamentID, userID int64) error
	// UpdateTournamentEntry writes e's stack, table, place and prize.
	UpdateTournamentEntry(ctx context.Context, e TournamentEntry) error
	// TournamentEntries lists a tournament's entrants in the order they entered.
	TournamentEntries(ctx context.Context, tournamentID int64) ([]TournamentEntry, error)
	// RegisteredBuyIns sums a player's buy-ins for tournaments still
	// registering: chips that an unregistration would return to the credits.
	RegisteredBuyIns(ctx context.Context, userID int64) (int64, error)
	// TournamentsEntered counts the tournaments registering or running in which
	// a player is entered and not yet placed.
	TournamentsEntered(ctx context.Context, userID int64) (int, error)
	// TournamentResults sums a player's finished tournaments.
	TournamentResults(ctx context.Context, userID int64) (TournamentResults, error)
	// TournamentRankings lists registered players (not deleted accounts) with a
	// finished tournament by their tournament net (prizes less buy-ins), best
	// first, at most limit from offset.
	TournamentRankings(ctx context.Context, limit, offset int) ([]TournamentRanked, error)
}

// TokenStore holds the API tokens of players' bots, one per bot account.
type TokenStore interface {
	// PutAPIToken stores t as its user's token, replacing any they had.
	PutAPIToken(ctx context.Context, t APIToken) error
	// APIToken returns the token whose ID is id, or ErrNotFound.
	APIToken(ctx context.Context, id string) (APIToken, error)
	// APITokenOf returns the token of user userID, or ErrNotFound.
	APITokenOf(ctx context.Context, userID int64) (APIToken, error)
	// DeleteAPIToken removes the token of user userID, if any.
	DeleteAPIToken(ctx context.Context, userID int64) error
	// BotsOf lists the bot accounts owned by user ownerID, oldest first.
	BotsOf(ctx context.Context, ownerID int64) ([]User, error)
}

// Queries is everything the store can read and write, inside a transaction or not.
type Queries interface {
	TournamentStore
	TokenStore
	UserStore
	SessionStore
	LedgerStore
	StatsStore
	SeatStore
	HandStore
	BoardStore
	BotModelStore
	PlayerTableStore
	DepartureStore
}

// Store is an open database.
type Store interface {
	Queries
	// InTx runs fn in one transaction: committed if fn returns nil, rolled back
	// otherwise. fn must use only the Queries it is given.
	InTx(ctx context.Context, fn func(q Queries) error) error
	// Backend names the database: "sqlite" or "postgres".
	Backend() string
	// Lock takes the exclusive lock named key (see HouseKey) without waiting, and
	// holds it until Release or the end of the process. It returns a *LockedError
	// (ErrLocked) while another holder, in this process or another, has it. SQLite
	// locks a file beside the database (PATH.KEY.lock); PostgreSQL takes a
	// session-level advisory lock on a connection set aside for it.
	Lock(ctx context.Context, key string) (Held, error)
	// LockShared takes the lock named key shared, without waiting: any number
	// of shared holders at once (the nodes of a house on several nodes), none
	// while Lock's exclusive holder has it, and Lock refused while a shared
	// holder has it. PostgreSQL only (ErrSharedLockUnsupported otherwise).
	LockShared(ctx context.Context, key string) (Held, error)
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close closes the database.
	Close() error
}

// DefaultDSN is the database Open uses when given an empty DSN: a SQLite file in the
// working directory.
const DefaultDSN = "felt.db"

// Open opens (creating if needed) and migrates the database named by dsn:
// "postgres://..." or "postgresql://..." for PostgreSQL; "sqlite:PATH" or a plain file
// path for SQLite; "" for DefaultDSN.
func Open(ctx context.Context, dsn string) (Store, error) {
	switch {
	case dsn == "":
		return OpenSQLite(ctx, DefaultDSN)
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return OpenPostgres(ctx, dsn)
	case strings.HasPrefix(dsn, "sqlite://"):
		return OpenSQLite(ctx, strings.TrimPrefix(dsn, "sqlite://"))
	case strings.HasPrefix(dsn, "sqlite:"):
		return OpenSQLite(ctx, strings.TrimPrefix(dsn, "sqlite:"))
	default:
		return OpenSQLite(ctx, dsn)
	}
}
