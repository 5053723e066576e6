package house

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// Players' own bots (docs/house.md, "Bring your own bot"). A registered player
// may make up to MaxBotsPerPlayer bot accounts, each named PlayerBotPrefix and a
// name of their choice, with credits of its own (the sign-up grant, counted
// against the address's registrations). A bot account has no password: it cannot
// log in, and so can never change an account. It plays with one API token,
// shown once when it is made and stored as the SHA-256 of its secret; the player
// revokes it or makes a new one (which revokes the old) at any time.
//
// A token is TokenPrefix, a public ID, '_' and a secret. The ID finds the stored
// token; the secret's hash is compared in constant time. Failed token checks count
// as failed logins of the token's ID and of the address (Limits), so guessing is
// throttled as guessing passwords is.

// PlayerBotPrefix starts the name of every player's bot ("bot_crusher"); players
// may not register names starting with it, and the house's own bots are "bot-".
const PlayerBotPrefix = "bot_"

// MaxBotsPerPlayer is how many bot accounts one player may have.
const MaxBotsPerPlayer = 5

// TokenPrefix starts every API token.
const TokenPrefix = "felt_"

// ErrBadToken reports an API token that is malformed, unknown or revoked.
var ErrBadToken = errors.New("bad API token")

// Bot is one of a player's bot accounts as its owner sees it.
type Bot struct {
	User store.User
	// TokenSince is when its token was made; zero when it has none (revoked).
	TokenSince time.Time
}

// checkOwner refuses guests, bots and deleted accounts as bot owners.
func checkOwner(owner store.User) error {
	if owner.Guest || owner.OwnerID != 0 || !owner.DeletedAt.IsZero() {
		return &PlayerError{Message: "only registered players may have bots", Err: ErrForbidden}
	}
	return nil
}

// botName is the account name of a bot its owner calls name.
func botName(name string) (string, error) {
	name = strings.TrimPrefix(strings.TrimSpace(name), PlayerBotPrefix)
	full := PlayerBotPrefix + name
	if name == "" || len(full) > MaxUsername {
		return "", fieldError("name", "must be 1 to %d characters long", MaxUsername-len(PlayerBotPrefix))
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return "", fieldError("name", "may hold only letters, digits, '_' and '-'")
		}
	}
	return full, nil
}

// CreateBot makes a bot account for owner, called PlayerBotPrefix+name, with
// the sign-up credits, and returns it with its API token (shown this once).
// from is the address asking, counted as a registration.
func (h *House) CreateBot(ctx context.Context, owner store.User, name, from string) (store.User, string, error) {
	if err := checkOwner(owner); err != nil {
		return store.User{}, "", err
	}
	full, err := botName(name)
	if err != nil {
		return store.User{}, "", err
	}
	bots, err := h.st.BotsOf(ctx, owner.ID)
	if err != nil {
		return store.User{}, "", fmt.Errorf("create bot: %w", err)
	}
	if len(bots) >= MaxBotsPerPlayer {
		return store.User{}, "", &PlayerError{Message: fmt.Sprintf("you have %d bots, as many as a player may", len(bots)), Err: ErrForbidden}
	}
	if wait := h.registrations.take(AddressKey(from), h.now()); wait > 0 {
		return store.User{}, "", retryError(ErrTooManyAccounts, "too many accounts registered from your address", wait)
	}
	now := h.now()
	u := store.User{Username: full, OwnerID: owner.ID, CreatedAt: now}
	var token string
	err = h.st.InTx(ctx, func(q store.Queries) error {
		var err error
		if u, err = q.CreateUser(ctx, u); err != nil {
			return err
		}
		if g := h.cfg.SignupCredits; g > 0 {
			if _, err := q.AddEntry(ctx, store.Entry{UserID: u.ID, Kind: store.KindSignupGrant, Amount: g, CreatedAt: now}); err != nil {
				return err
			}
		}
		token, err = h.putToken(ctx, q, u.ID)
		return err
	})
	if errors.Is(err, store.ErrUsernameTaken) {
		return store.User{}, "", &FieldError{Field: "name", Message: fmt.Sprintf("%q is taken", full), Err: ErrUsernameTaken}
	}
	if err != nil {
		return store.User{}, "", fmt.Errorf("create bot %q: %w", full, err)
	}
	return u, token, nil
}

// putToken makes a new token for user id (replacing any) and returns it.
func (h *House) putToken(ctx context.Context, q store.Queries, id int64) (string, error) {
	tid, secret := strings.ToLower(rand.Text()[:12]), rand.Text()
	sum := sha256.Sum256([]byte(secret))
	err := q.PutAPIToken(ctx, store.APIToken{ID: tid, UserID: id, SecretHash: sum[:], CreatedAt: h.now()})
	return TokenPrefix + tid + "_" + secret, err
}

// ownBot returns owner's bot called name (with or without PlayerBotPrefix),
// or a not-found error for any other account.
func (h *House) ownBot(ctx context.Context, owner store.User, name string) (store.User, error) {
	full, err := botName(name)
	if err != nil {
		return store.User{}, err
	}
	b, err := h.st.UserByName(ctx, full)
	if err == nil && (b.OwnerID != owner.ID || !b.DeletedAt.IsZero()) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.User{}, fmt.Errorf("bot %q: %w", full, err)
	}
	return b, nil
}

// Bots lists owner's bots, oldest first.
func (h *House) Bots(ctx context.Context, owner store.User) ([]Bot, error) {
	us, err := h.st.BotsOf(ctx, owner.ID)
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	out := make([]Bot, 0, len(us))
	for _, u := range us {
		b := Bot{User: u}
		t, err := h.st.APITokenOf(ctx, u.ID)
		switch {
		case err == nil:
			b.TokenSince = t.CreatedAt
		case !isNotFound(err):
			return nil, fmt.Errorf("bots: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}

// NewBotToken gives owner's bot called name a new token, which it returns (shown
// this once); the old one stops working at once.
func (h *House) NewBotToken(ctx context.Context, owner store.User, name string) (store.User, string, error) {
	if err := checkOwner(owner); err != nil {
		return store.User{}, "", err
	}
	b, err := h.ownBot(ctx, owner, name)
	if err != nil {
		return store.User{}, "", err
	}
	var token string
	err = h.st.InTx(ctx, func(q store.Queries) error { // the old token goes with the new one's coming
		var err error
		token, err = h.putToken(ctx, q, b.ID)
		return err
	})
	if err != nil {
		return store.User{}, "", fmt.Errorf("new token of %q: %w", b.Username, err)
	}
	return b, token, nil
}

// RevokeBotToken revokes the token of owner's bot called name and returns the
// bot (whose open connections the caller closes).
func (h *House) RevokeBotToken(ctx context.Context, owner store.User, name string) (store.User, error) {
	b, err := h.ownBot(ctx, owner, name)
	if err != nil {
		return store.User{}, err
	}
	if err := h.st.DeleteAPIToken(ctx, b.ID); err != nil {
		return store.User{}, fmt.Errorf("revoke token of %q: %w", b.Username, err)
	}
	return b, nil
}

// AuthenticateToken returns the bot account whose API token is token, presented
// from the address from. A malformed, unknown or revoked token is ErrBadToken,
// counted as a failed login of its ID and of from; while either is locked out
// every token is refused with ErrTooManyLogins, the right one too.
func (h *House) AuthenticateToken(ctx context.Context, token, from string) (store.User, error) {
	id, secret, ok := strings.Cut(strings.TrimPrefix(token, TokenPrefix), "_")
	if !ok || !strings.HasPrefix(token, TokenPrefix) || len(id) > 32 || len(secret) > 64 {
		id = ""
	}
	account, address := "token:"+id, AddressKey(from)
	if wait, locked := h.logins.begin(account, address, h.now()); locked {
		return store.User{}, retryError(ErrTooManyLogins, "too many bad tokens", wait)
	} else if wait > 0 {
		return store.User{}, retryError(ErrTooManyLogins, "too many token checks at once", wait)
	}
	u, err := h.checkToken(ctx, id, secret)
	h.logins.end(account, address, asLoginFailure(err), h.now())
	return u, err
}

// asLoginFailure maps ErrBadToken to ErrBadCredentials, which the login
// throttle counts as a failure.
func asLoginFailure(err error) error {
	if errors.Is(err, ErrBadToken) {
		return ErrBadCredentials
	}
	return err
}

// checkToken returns the bot whose token has ID id and secret secret, or
// ErrBadToken.
func (h *House) checkToken(ctx context.Context, id, secret string) (store.User, error) {
	bad := &PlayerError{Message: "that API token is not valid: it was revoked or mistyped", Err: ErrBadToken}
	sum := sha256.Sum256([]byte(secret))
	if id == "" {
		return store.User{}, bad
	}
	t, err := h.st.APIToken(ctx, id)
	if isNotFound(err) {
		return store.User{}, bad
	}
	if err != nil {
		return store.User{}, fmt.Errorf("token: %w", err)
	}
	if subtle.ConstantTimeCompare(sum[:], t.SecretHash) != 1 {
		return store.User{}, bad
	}
	u, err := h.st.UserByID(ctx, t.UserID)
	if err != nil {
		return store.User{}, fmt.Errorf("token: %w", err)
	}
	if !u.DeletedAt.IsZero() || u.OwnerID == 0 {
		return store.User{}, bad
	}
	return u, nil
}
