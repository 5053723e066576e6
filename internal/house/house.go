// Package house is felt's poker house: accounts, sessions and the play-money
// ledger today; lobby, rooms, chat and rankings as they come. It keeps its state in
// a store.Store and holds none of its own beyond configuration.
package house

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// Sentinel errors that callers branch on.
var (
	// ErrInvalid reports a request with an invalid field (see FieldError).
	ErrInvalid = errors.New("invalid")
	// ErrUsernameTaken reports a registration under a name already taken, ignoring case.
	ErrUsernameTaken = errors.New("username taken")
	// ErrBadCredentials reports a failed login: unknown user, guest or wrong password.
	ErrBadCredentials = errors.New("wrong username or password")
	// ErrNoSession reports a session token that is unknown, logged out or expired.
	ErrNoSession = errors.New("no such session")
	// ErrInsufficientCredits reports a buy-in larger than the player's credits.
	ErrInsufficientCredits = errors.New("insufficient credits")
	// ErrRefillNotNeeded reports a refill asked for with credits at or above Config.RefillBelow.
	ErrRefillNotNeeded = errors.New("refill not needed")
	// ErrRefillTooSoon reports a refill asked for within Config.RefillInterval of the last one.
	ErrRefillTooSoon = errors.New("refill too soon")
	// ErrUnbalancedHand reports a hand result whose players' nets do not sum to zero.
	ErrUnbalancedHand = errors.New("hand result does not conserve chips")
)

// FieldError is a request error that names the offending field, for forms and API
// replies. It unwraps to ErrInvalid, or to ErrUsernameTaken for a taken name.
type FieldError struct {
	Field   string // "username", "password", "adult", "email", "location", ...
	Message string
	Err     error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Unwrap returns the sentinel error behind e.
func (e *FieldError) Unwrap() error {
	if e.Err == nil {
		return ErrInvalid
	}
	return e.Err
}

func fieldError(field, format string, args ...any) error {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...), Err: ErrInvalid}
}

// Config is the house's own settings. Start from DefaultConfig.
type Config struct {
	// SignupCredits are granted to a new registered player.
	SignupCredits int64
	// GuestCredits are granted to a new guest.
	GuestCredits int64
	// A player whose credits and chips at tables come to less than RefillBelow may
	// ask for a refill, which tops them up to RefillTo, at most once per
	// RefillInterval (chips parked at a table earn no refill).
	RefillBelow    int64
	RefillTo       int64
	RefillInterval time.Duration
	// RankMinHands is the fewest hands a player needs to be ranked by win rate.
	RankMinHands int64
	// SessionTTL is the longest a login session lasts; SessionIdle how long it
	// lasts unused (0: as long as SessionTTL). Each use (at most once a minute)
	// moves its end to SessionIdle from then, never past SessionTTL from its start.
	SessionTTL  time.Duration
	SessionIdle time.Duration
	// HandsPublicAfter is how long after it was played a hand's full record (every
	// hole card, the seed) is shown to anyone (HandFor); 0 never shows it. Before,
	// each viewer sees only what the table showed them.
	HandsPublicAfter time.Duration
	// Argon2 are the cost parameters of new password hashes.
	Argon2 Argon2Params
	// Limits bound failed logins, new accounts per address and the password
	// hashes computed at once.
	Limits Limits
	// Now is the clock (time.Now when nil); tests inject their own.
	Now func() time.Time
}

// DefaultConfig is the configuration of a new house: 10,000 chips at sign-up (and
// for guests), a refill back to 10,000 when below 1,000 at most once a day, 50
// hands to be ranked by win rate, 30-day sessions that end after a day unused,
// hands' full records public
// after a day, DefaultArgon2 and DefaultLimits.
func DefaultConfig() Config {
	return Config{
		SignupCredits:    10_000,
		GuestCredits:     10_000,
		RefillBelow:      1_000,
		RefillTo:         10_000,
		RefillInterval:   24 * time.Hour,
		RankMinHands:     50,
		SessionTTL:       30 * 24 * time.Hour,
		SessionIdle:      24 * time.Hour,
		Argon2:           DefaultArgon2(),
		Limits:           DefaultLimits(),
		HandsPublicAfter: 24 * time.Hour,
	}
}

func (c Config) validate() error {
	switch {
	case c.SignupCredits < 0 || c.GuestCredits < 0:
		return fmt.Errorf("house config: negative sign-up credits")
	case c.RefillBelow < 0 || c.RefillTo < c.RefillBelow:
		return fmt.Errorf("house config: refill to %d must be at least refill below %d (>= 0)", c.RefillTo, c.RefillBelow)
	case c.RefillInterval < 0:
		return fmt.Errorf("house config: negative refill interval")
	case c.RankMinHands < 0:
		return fmt.Errorf("house config: negative minimum of hands to be ranked")
	case c.SessionTTL <= 0:
		return fmt.Errorf("house config: session TTL must be positive")
	case c.SessionIdle < 0:
		return fmt.Errorf("house config: negative session idle time")
	case c.HandsPublicAfter < 0:
		return fmt.Errorf("house config: negative delay before hands are public")
	}
	if err := c.Limits.Validate(); err != nil {
		return fmt.Errorf("house config: %w", err)
	}
	return nil
}

// House is the poker house's accounts and ledger. It is safe for concurrent use:
// every operation is one store transaction.
type House struct {
	st  store.Store
	cfg Config
	// dummyHash is verified against when a login names no user, so that a wrong
	// name takes as long as a wrong password.
	dummyHash string
	// rec writes finished hands in batches (recorder.go).
	rec recorder
	// sessions caches login sessions (sessions.go).
	sessions sessionCache

	claimMu sync.Mutex
	claim   store.Held // the lock of Claim, or nil; guarded by claimMu
	node    bool       // the claim is ClaimNode's (shared); guarded by claimMu

	// fences holds the fencing token of each table this node runs as one of
	// several (Fence), by table reference.
	fences sync.Map
	// logins throttles failed logins; registrations and guests bound the new
	// accounts per address; hashes bounds the password hashes at once (Limits).
	logins                *loginThrottle
	registrations, guests addressBuckets
	tableOpens            *buckets // by player ID
	hashes                *hashSlots
}

// BotModels is where bots at the house's tables keep what they learn of each
// opponent: the house's own store.
func (h *House) BotModels() store.BotModelStore { return h.st }

// PlayerTables returns where the house keeps the tables players open, so that
// they open again after a restart.
func (h *House) PlayerTables() store.PlayerTableStore { return h.st }

// Ping checks that the house's database answers, for health checks.
func (h *House) Ping(ctx context.Context) error { return h.st.Ping(ctx) }

// New returns a house keeping its state in st.
func New(st store.Store, cfg Config) (*House, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	dummy, err := HashPassword("not a password", cfg.Argon2)
	if err != nil {
		return nil, fmt.Errorf("house config: %w", err)
	}
	l := cfg.Limits
	return &House{st: st, cfg: cfg, dummyHash: dummy, logins: newLoginThrottle(l),
		registrations: newAddressBuckets(l.Registrations, l.MaxTracked), guests: newAddressBuckets(l.Guests, l.MaxTracked),
		tableOpens: newBuckets(l.TableOpens, l.MaxTracked),
		hashes:     newHashSlots(l)}, nil
}

// Config returns the house's configuration.
func (h *House) Config() Config { return h.cfg }

func (h *House) now() time.Time { return h.cfg.Now().UTC() }

// AllowTableOpen spends one of the tables player id may open
// (Limits.TableOpens), or refuses with ErrTooManyOpens, saying when to try again.
func (h *House) AllowTableOpen(id int64) error {
	if wait := h.tableOpens.take(strconv.FormatInt(id, 10), h.now()); wait > 0 {
		return retryError(ErrTooManyOpens, "you have opened many tables in a short time", wait)
	}
	return nil
}
