package house

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/addrkey"
)

// Errors of the limits (docs/security.md, "Accounts and logins"). Each comes
// wrapped in a *PlayerError that says when to try again.
var (
	// ErrTooManyLogins refuses a login while its account or address is locked
	// out after failed logins.
	ErrTooManyLogins = errors.New("too many failed logins")
	// ErrTooManyAccounts refuses a registration or a guest beyond the address's
	// allowance (Limits.Registrations, Limits.Guests).
	ErrTooManyAccounts = errors.New("too many new accounts from one address")
	// ErrTooManyOpens refuses a table a player asks to open beyond their
	// allowance (Limits.TableOpens).
	ErrTooManyOpens = errors.New("too many tables opened")
	// ErrBusy refuses a login or registration that waited Limits.HashWait for a
	// password hash slot, or found too many waiting already.
	ErrBusy = errors.New("too many password hashes at once")
)

// PlayerError is an error whose Message is written for the player who caused it
// (the API shows it as is; Err, the sentinel behind it, says what happened).
// RetryAfter, when not zero, is how long to wait before asking again.
type PlayerError struct {
	Message    string
	RetryAfter time.Duration
	Err        error
}

func (e *PlayerError) Error() string { return e.Message }

// Unwrap returns the sentinel error behind e.
func (e *PlayerError) Unwrap() error { return e.Err }

// retryError is sentinel with "message: try again in D".
func retryError(sentinel error, message string, wait time.Duration) *PlayerError {
	return &PlayerError{Message: message + ": try again in " + waitText(wait), RetryAfter: wait, Err: sentinel}
}

// waitText writes d for a player, rounded up: "40 s", "3 min".
func waitText(d time.Duration) string {
	s := int64(math.Ceil(d.Seconds()))
	if s < 120 {
		return fmt.Sprintf("%d s", max(s, 1))
	}
	return fmt.Sprintf("%d min", (s+59)/60)
}

// Rate is a token bucket: Burst at once, then one more every Every. Every 0
// means no limit.
type Rate struct {
	Burst int
	Every time.Duration
}

// Limits bound what one account or one network address may ask of the house
// (docs/security.md, "Accounts and logins"). An IPv6 address counts by its /64
// network; Registrations and Guests also bound its /48, at addrkey.WideFactor
// times the allowance. Start from DefaultLimits.
type Limits struct {
	// LoginFailures failed logins in a row lock an account out for LockOut;
	// each further failure doubles the lock-out, up to MaxLockOut. A good login
	// resets the account's count. 0: accounts are never locked out.
	LoginFailures int
	// AddressLoginFailures is the same for all logins from one address, whatever
	// the account; a good login does not reset it. 0: never locked out.
	AddressLoginFailures int
	LockOut              time.Duration
	MaxLockOut           time.Duration
	// ForgetFailures: an account or address without a failed login for this long
	// (and not locked) starts again from zero.
	ForgetFailures time.Duration
	// Registrations and Guests bound the accounts one address may create.
	Registrations Rate
	Guests        Rate
	// TableOpens bounds the tables and heads-up games one player may open
	// (each costs the house a table's start, and on several nodes about ten
	// NATS round trips), counted by each node.
	TableOpens Rate
	// MaxHashes is the most password hashes (argon2id, Argon2Params.Memory each)
	// computed at once; 0 means GOMAXPROCS. A login or registration waits at most
	// HashWait for its turn, and is refused as busy beyond that or when
	// hashQueuePerSlot·MaxHashes are waiting already.
	MaxHashes int
	HashWait  time.Duration
	// MaxTracked bounds how many accounts, and how many addresses, each limit
	// remembers at once (their memory); the least useful are forgotten first.
	MaxTracked int
}

// hashQueuePerSlot bounds the logins waiting for a hash: this many per slot.
const hashQueuePerSlot = 64

// DefaultLimits: 5 failed logins lock an account (20 per address) for 20 s,
// doubling to at most 15 min, forgotten after an hour; 10 registrations at once
// per address then one a minute, 20 guests then one every 30 s; 20 tables
// opened at once per player then one every 3 s; GOMAXPROCS
// hashes at once, waited for at most 10 s; 100,000 accounts and addresses
// remembered by each limit.
func DefaultLimits() Limits {
	return Limits{
		LoginFailures:        5,
		AddressLoginFailures: 20,
		LockOut:              20 * time.Second,
		MaxLockOut:           15 * time.Minute,
		ForgetFailures:       time.Hour,
		Registrations:        Rate{Burst: 10, Every: time.Minute},
		Guests:               Rate{Burst: 20, Every: 30 * time.Second},
		TableOpens:           Rate{Burst: 20, Every: 3 * time.Second},
		HashWait:             10 * time.Second,
		MaxTracked:           100_000,
	}
}

// Validate checks the limits; an error is a *FieldError naming the field (as
// the config file of docs/house.md does, under "limits.").
func (l Limits) Validate() error {
	f := func(field, format string, args ...any) error { return fieldError("limits."+field, format, args...) }
	locks := l.LoginFailures > 0 || l.AddressLoginFailures > 0
	switch {
	case l.LoginFailures < 0:
		return f("login_failures", "must not be negative (0: no lock-out)")
	case l.AddressLoginFailures < 0:
		return f("address_login_failures", "must not be negative (0: no lock-out)")
	case locks && l.LockOut <= 0:
		return f("lockout", "must be positive")
	case locks && l.MaxLockOut < l.LockOut:
		return f("max_lockout", "must be at least the lock-out (%s)", l.LockOut)
	case l.ForgetFailures < 0:
		return f("forget_failures", "must not be negative")
	case l.Registrations.Every < 0:
		return f("registration_every", "must not be negative (0: no limit)")
	case l.Registrations.Every > 0 && l.Registrations.Burst < 1:
		return f("registrations", "must be at least 1")
	case l.Guests.Every < 0:
		return f("guest_every", "must not be negative (0: no limit)")
	case l.Guests.Every > 0 && l.Guests.Burst < 1:
		return f("guests", "must be at least 1")
	case l.TableOpens.Every < 0:
		return f("table_open_every", "must not be negative (0: no limit)")
	case l.TableOpens.Every > 0 && l.TableOpens.Burst < 1:
		return f("table_opens", "must be at least 1")
	case l.MaxHashes < 0:
		return f("max_hashes", "must not be negative (0: as many as the CPUs Go uses)")
	case l.HashWait <= 0:
		return f("hash_wait", "must be positive")
	case l.MaxTracked < 1:
		return f("max_tracked", "must be at least 1")
	}
	return nil
}

// hashes returns MaxHashes, or GOMAXPROCS for 0.
func (l Limits) hashes() int {
	if l.MaxHashes > 0 {
		return l.MaxHashes
	}
	return runtime.GOMAXPROCS(0)
}

// AddressKey is what counts as one address: an IPv4 address, an IPv6 /64
// network (one subscriber's), or the text as given (at most 64 bytes) when it is
// not an address (addrkey.Of).
func AddressKey(from string) string { return addrkey.Of(from) }

// accountKey is the account a login names: names are unique ignoring case, and
// a name longer than any account's stands for all such names (keys stay small).
func accountKey(username string) string {
	return strings.ToLower(username[:min(len(username), MaxUsername+1)])
}
