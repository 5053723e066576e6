package house

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/felt-poker/felt/internal/chat"
	"github.com/felt-poker/felt/internal/store"
)

// Username and password rules.
const (
	MinUsername = 3
	MaxUsername = 15
	MinPassword = 8    // characters
	MaxPassword = 1024 // bytes, to bound the work of hashing
	MaxEmail    = 254
	MaxLocation = 64 // characters
	// GuestPrefix starts every guest's name; registered names may not start with "guest".
	GuestPrefix = "guest-"
	// BotPrefix starts the name of every bot seated at a house table
	// ("bot-chart-1"); registered names may not start with "bot-" or "bot_", in
	// any case.
	BotPrefix = "bot-"
)

// reserved reports whether a lower-cased name is kept from registration: names the
// house itself uses or that would mislead other players (a guest's, a bot's).
func reserved(lower string) bool {
	switch lower {
	case "lobby", "admin", "administrator", "root", "system", "house", "dealer", "felt",
		"moderator", "support", "staff", "bot", "bots", "guest", "guests", "anonymous",
		"nobody", "everyone", "spectator", "server", "null":
		return true
	}
	return strings.HasPrefix(lower, "guest") || strings.HasPrefix(lower, BotPrefix) || strings.HasPrefix(lower, "bot_") ||
		strings.HasPrefix(lower, DeletedPrefix)
}

// ValidateUsername checks the username rules: 3 to 15 letters, digits, '_' or '-',
// not a reserved name, and not starting with "guest", "bot-", "bot_" or
// "deleted-".
func ValidateUsername(name string) error {
	if n := len(name); n < MinUsername || n > MaxUsername {
		return fieldError("username", "must be %d to %d characters long", MinUsername, MaxUsername)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fieldError("username", "may hold only letters, digits, '_' and '-'")
		}
	}
	if reserved(strings.ToLower(name)) {
		return fieldError("username", "%q is reserved", name)
	}
	return nil
}

// Registration is what a player gives to register.
type Registration struct {
	Username string
	Password string
	// ConfirmedAdult is the player's confirmation of being 18 or over; required.
	ConfirmedAdult bool
	Email          string // optional
	Location       string // optional
	// From is the network address the registration comes from, for the limit on
	// registrations per address (Limits.Registrations).
	From string
}

// validate checks r and returns it normalised (email and location trimmed).
func (r Registration) validate() (Registration, error) {
	if err := ValidateUsername(r.Username); err != nil {
		return r, err
	}
	if err := validatePassword("password", r.Password); err != nil {
		return r, err
	}
	if !r.ConfirmedAdult {
		return r, fieldError("adult", "you must confirm that you are 18 or over")
	}
	d, err := Details{Email: r.Email, Location: r.Location}.validate()
	r.Email, r.Location = d.Email, d.Location
	return r, err
}

// validatePassword checks a new password's length; field names it in the error.
func validatePassword(field, password string) error {
	if utf8.RuneCountInString(password) < MinPassword {
		return fieldError(field, "must be at least %d characters long", MinPassword)
	}
	if len(password) > MaxPassword {
		return fieldError(field, "must be at most %d bytes long", MaxPassword)
	}
	return nil
}

// Details are the optional facts a player gives about themselves.
type Details struct {
	Email    string
	Location string
}

// validate checks d and returns it with its fields trimmed.
func (d Details) validate() (Details, error) {
	d.Email = strings.TrimSpace(d.Email)
	if d.Email != "" && !validEmail(d.Email) {
		return d, fieldError("email", "is not an email address")
	}
	d.Location = strings.TrimSpace(d.Location)
	if utf8.RuneCountInString(d.Location) > MaxLocation {
		return d, fieldError("location", "must be at most %d characters long", MaxLocation)
	}
	if err := chat.CheckText(d.Location, false); err != nil {
		return d, fieldError("location", "%v", err)
	}
	return d, nil
}

// validEmail checks an address loosely: one plain addr-spec with a dotted domain.
func validEmail(s string) bool {
	if len(s) > MaxEmail || strings.ContainsAny(s, " \t\r\n<>") {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	return at > 0 && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// Register creates a player's account and grants the sign-up credits, in one
// transaction. A rule broken gives a *FieldError; a taken name one that wraps
// ErrUsernameTaken; one registration too many from r.From ErrTooManyAccounts.
func (h *House) Register(ctx context.Context, r Registration) (store.User, error) {
	r, err := r.validate()
	if err != nil {
		return store.User{}, err
	}
	if wait := h.registrations.take(AddressKey(r.From), h.now()); wait > 0 {
		return store.User{}, retryError(ErrTooManyAccounts, "too many accounts registered from your address", wait)
	}
	if err := h.checkLookalike(ctx, r.Username); err != nil {
		return store.User{}, err
	}
	hash, err := h.hash(ctx, r.Password)
	if err != nil {
		return store.User{}, fmt.Errorf("register %q: %w", r.Username, err)
	}
	now := h.now()
	u := store.User{Username: r.Username, PasswordHash: hash, AdultConfirmedAt: now,
		Email: r.Email, Location: r.Location, CreatedAt: now}
	u, err = h.createWithGrant(ctx, u, h.cfg.SignupCredits)
	if errors.Is(err, store.ErrUsernameTaken) {
		return store.User{}, &FieldError{Field: "username", Message: fmt.Sprintf("%q is taken", r.Username), Err: ErrUsernameTaken}
	}
	if err != nil {
		return store.User{}, fmt.Errorf("register %q: %w", r.Username, err)
	}
	return u, nil
}

// checkLookalike refuses a new name that reads like a player's (store.UserLike:
// "aIice", capital I, for "alice"), which would let its holder pass for them
// in chat, at tables and in the lobby. Names are public: saying whose it reads
// like tells nothing secret. Two such names registered at the same moment may
// both pass; accounts older than the rule keep their names.
func (h *House) checkLookalike(ctx context.Context, name string) error {
	other, err := h.st.UserLike(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("register %q: %w", name, err)
	case strings.EqualFold(other.Username, name):
		return &FieldError{Field: "username", Message: fmt.Sprintf("%q is taken", name), Err: ErrUsernameTaken}
	}
	return &FieldError{Field: "username", Message: fmt.Sprintf("%q reads too much like %q, another player's name", name, other.Username), Err: ErrUsernameTaken}
}

func (h *House) createWithGrant(ctx context.Context, u store.User, grant int64) (store.User, error) {
	err := h.st.InTx(ctx, func(q store.Queries) error {
		var err error
		if u, err = q.CreateUser(ctx, u); err != nil {
			return err
		}
		if grant > 0 {
			_, err = q.AddEntry(ctx, store.Entry{UserID: u.ID, Kind: store.KindSignupGrant, Amount: grant, CreatedAt: u.CreatedAt})
		}
		return err
	})
	return u, err
}

// Session is a logged-in session as its holder sees it. Token is the secret the
// client presents (the house stores only its SHA-256). ExpiresAt is the latest
// it may last (Config.SessionTTL: the cookie's lifetime); it ends sooner when
// unused for Config.SessionIdle.
type Session struct {
	Token     string
	User      store.User
	ExpiresAt time.Time
}

// idleEnd is when a session started at start and used at now ends if unused
// from now on.
func (h *House) idleEnd(start, now time.Time) time.Time {
	end := start.Add(h.cfg.SessionTTL)
	if h.cfg.SessionIdle > 0 && now.Add(h.cfg.SessionIdle).Before(end) {
		return now.Add(h.cfg.SessionIdle)
	}
	return end
}

func tokenHash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// newSession opens a session for u with a fresh random token.
func (h *House) newSession(ctx context.Context, u store.User) (Session, error) {
	now := h.now()
	s := Session{Token: rand.Text(), User: u, ExpiresAt: now.Add(h.cfg.SessionTTL)}
	ends := h.idleEnd(now, now)
	err := h.st.CreateSession(ctx, store.Session{TokenHash: tokenHash(s.Token), UserID: u.ID, CreatedAt: now, ExpiresAt: ends})
	if err != nil {
		return Session{}, fmt.Errorf("open session: %w", err)
	}
	h.sessions.put(s.Token, u, ends, now)
	return s, nil
}

// SignUp registers r and opens the new player's first session, without a second
// password check: the login limits, which count failed logins, have no say in it.
func (h *House) SignUp(ctx context.Context, r Registration) (Session, error) {
	u, err := h.Register(ctx, r)
	if err != nil {
		return Session{}, err
	}
	return h.newSession(ctx, u)
}

// Login checks a registered player's name (any case) and password and opens a
// session. Any mismatch, including a guest's name, is ErrBadCredentials. While
// the account or the address from has failed too often (Limits), every login is
// refused with ErrTooManyLogins (the right password too), without checking it.
func (h *House) Login(ctx context.Context, username, password, from string) (Session, error) {
	account, address := accountKey(username), AddressKey(from)
	if wait, locked := h.logins.begin(account, address, h.now()); locked {
		return Session{}, retryError(ErrTooManyLogins, "too many failed logins", wait)
	} else if wait > 0 {
		return Session{}, retryError(ErrTooManyLogins, "too many logins at once", wait)
	}
	u, err := h.checkPassword(ctx, username, password)
	h.logins.end(account, address, err, h.now())
	if err != nil {
		return Session{}, err
	}
	// A login is a good time to sweep expired sessions.
	if _, err := h.st.DeleteExpiredSessions(ctx, h.now()); err != nil {
		return Session{}, fmt.Errorf("login %q: %w", username, err)
	}
	return h.newSession(ctx, u)
}

// checkPassword returns the registered player named username (any case) if
// password is theirs, or ErrBadCredentials.
func (h *House) checkPassword(ctx context.Context, username, password string) (store.User, error) {
	if len(password) > MaxPassword {
		return store.User{}, ErrBadCredentials
	}
	u, err := h.st.UserByName(ctx, username)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Spend the same time as for a known name.
		if _, err := h.verify(ctx, password, h.dummyHash); err != nil {
			return store.User{}, err
		}
		return store.User{}, ErrBadCredentials
	case err != nil:
		return store.User{}, fmt.Errorf("login %q: %w", username, err)
	case u.Guest || u.PasswordHash == "":
		return store.User{}, ErrBadCredentials
	}
	ok, err := h.verify(ctx, password, u.PasswordHash)
	switch {
	case errors.Is(err, errBadHash):
		return store.User{}, fmt.Errorf("login %q: stored hash: %w", username, err)
	case err != nil: // busy, or the request ended
		return store.User{}, err
	case !ok:
		return store.User{}, ErrBadCredentials
	}
	return u, nil
}

// Logout ends the session of token; ending an unknown session is not an error.
func (h *House) Logout(ctx context.Context, token string) error {
	h.sessions.remove(token)
	if err := h.st.DeleteSession(ctx, tokenHash(token)); err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	return nil
}

// Authenticate returns the user holding the session token, or ErrNoSession if the
// token is unknown, logged out or expired.
func (h *House) Authenticate(ctx context.Context, token string) (store.User, error) {
	now := h.now()
	if u, ok := h.sessions.get(token, now); ok {
		return u, nil
	}
	s, err := h.st.SessionByTokenHash(ctx, tokenHash(token))
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, ErrNoSession
	}
	if err != nil {
		return store.User{}, fmt.Errorf("authenticate: %w", err)
	}
	if !h.now().Before(s.ExpiresAt) {
		if err := h.st.DeleteSession(ctx, s.TokenHash); err != nil {
			return store.User{}, fmt.Errorf("authenticate: %w", err)
		}
		return store.User{}, ErrNoSession
	}
	u, err := h.st.UserByID(ctx, s.UserID)
	if err != nil {
		return store.User{}, fmt.Errorf("authenticate: %w", err)
	}
	// In use: it ends SessionIdle from now (written at most once a minute, as
	// the cache trusts an entry that long).
	if ends := h.idleEnd(s.CreatedAt, now); ends.After(s.ExpiresAt) {
		if err := h.st.TouchSession(ctx, s.TokenHash, ends); err != nil {
			return store.User{}, fmt.Errorf("authenticate: %w", err)
		}
		s.ExpiresAt = ends
	}
	h.sessions.put(token, u, s.ExpiresAt, now)
	return u, nil
}

// Guest creates a guest account (named GuestPrefix and eight random characters,
// without a password, granted Config.GuestCredits) for the quick game against the
// computer, and opens its session. One guest too many from the address from is
// ErrTooManyAccounts (Limits.Guests).
func (h *House) Guest(ctx context.Context, from string) (Session, error) {
	if wait := h.guests.take(AddressKey(from), h.now()); wait > 0 {
		return Session{}, retryError(ErrTooManyAccounts, "too many guests from your address", wait)
	}
	for attempt := 0; ; attempt++ {
		now := h.now()
		u := store.User{Username: GuestPrefix + strings.ToLower(rand.Text()[:8]), Guest: true, CreatedAt: now}
		u, err := h.createWithGrant(ctx, u, h.cfg.GuestCredits)
		if errors.Is(err, store.ErrUsernameTaken) && attempt < 3 {
			continue // 40 random bits: a collision is rare, two in a row rarer still
		}
		if err != nil {
			return Session{}, fmt.Errorf("guest: %w", err)
		}
		return h.newSession(ctx, u)
	}
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
