package house

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/felt-poker/felt/internal/store"
)

// A player's profile: their details, their password and the account itself.
// Play money never leaves the ledger: deleting an account zeroes its credits by
// an adjustment entry and keeps the row (renamed DeletedPrefix and its ID, with no
// password, email or location), so that hands, posts and the ledger still name a
// user, while rankings and profiles leave it out and its old name is free again.

// DeletedPrefix starts the name a deleted account is given ("deleted-42");
// registered names may not start with it.
const DeletedPrefix = "deleted-"

var (
	// ErrWrongPassword reports a profile change whose current password is wrong.
	ErrWrongPassword = errors.New("wrong password")
	// ErrHoldsSeat reports an account deletion while the player has chips at a table.
	ErrHoldsSeat = errors.New("seated at a table")
)

// UpdateDetails replaces a registered player's email and location (either may be
// empty) and returns the account as it is now. A guest has no profile: ErrForbidden.
func (h *House) UpdateDetails(ctx context.Context, u store.User, d Details) (store.User, error) {
	if u.Guest {
		return store.User{}, &PlayerError{Message: "a guest has no profile: register to keep one", Err: ErrForbidden}
	}
	d, err := d.validate()
	if err != nil {
		return store.User{}, err
	}
	cur, err := h.st.UserByID(ctx, u.ID)
	if err != nil {
		return store.User{}, fmt.Errorf("details of user %d: %w", u.ID, err)
	}
	cur.Email, cur.Location = d.Email, d.Location
	if err := h.st.UpdateUser(ctx, cur); err != nil {
		return store.User{}, fmt.Errorf("details of user %d: %w", u.ID, err)
	}
	h.sessions.refreshUser(cur)
	return cur, nil
}

// confirmPassword checks that password is u's, counted as a login of u's
// account from the address from (so guessing it is throttled as logging in is).
// A wrong one is a *FieldError on field that wraps ErrWrongPassword.
func (h *House) confirmPassword(ctx context.Context, u store.User, field, password, from string) error {
	if u.Guest {
		return &PlayerError{Message: "a guest has no password: register first", Err: ErrForbidden}
	}
	account, address := accountKey(u.Username), AddressKey(from)
	if wait, locked := h.logins.begin(account, address, h.now()); locked {
		return retryError(ErrTooManyLogins, "too many wrong passwords", wait)
	} else if wait > 0 {
		return retryError(ErrTooManyLogins, "too many password checks at once", wait)
	}
	_, err := h.checkPassword(ctx, u.Username, password)
	h.logins.end(account, address, err, h.now())
	if errors.Is(err, ErrBadCredentials) {
		return &FieldError{Field: field, Message: "that is not your password", Err: ErrWrongPassword}
	}
	return err
}

// ChangePassword sets a registered player's password to next once current is
// confirmed, and ends every other session of theirs: only the session of token
// keep stays logged in.
func (h *House) ChangePassword(ctx context.Context, u store.User, current, next, keep, from string) error {
	if err := validatePassword("new_password", next); err != nil {
		return err
	}
	if err := h.confirmPassword(ctx, u, "current_password", current, from); err != nil {
		return err
	}
	hash, err := h.hash(ctx, next)
	if err != nil {
		return fmt.Errorf("password of user %d: %w", u.ID, err)
	}
	err = h.st.InTx(ctx, func(q store.Queries) error {
		cur, err := q.UserByID(ctx, u.ID)
		if err != nil {
			return err
		}
		cur.PasswordHash = hash
		if err := q.UpdateUser(ctx, cur); err != nil {
			return err
		}
		_, err = q.DeleteUserSessions(ctx, u.ID, tokenHash(keep))
		return err
	})
	if err != nil {
		return fmt.Errorf("password of user %d: %w", u.ID, err)
	}
	h.sessions.dropUser(u.ID, keep)
	return nil
}

// DeleteAccount deletes a registered player's account once their password is
// confirmed. A player with chips at a table (a seat the house holds for them)
// must stand up first, and one entered in a tournament not over must
// unregister or play it out: ErrHoldsSeat, and nothing changes. Otherwise, in one
// transaction, their credits go to zero by an adjustment entry, the account is
// anonymised, every session of theirs ends and their bots' API tokens are
// revoked.
func (h *House) DeleteAccount(ctx context.Context, u store.User, password, from string) error {
	if err := h.confirmPassword(ctx, u, "password", password, from); err != nil {
		return err
	}
	err := h.st.InTx(ctx, func(q store.Queries) error {
		if err := q.LockUser(ctx, u.ID); err != nil {
			return err
		}
		seats, err := q.Seats(ctx)
		if err != nil {
			return err
		}
		if i := slices.IndexFunc(seats, func(s store.Seat) bool { return s.UserID == u.ID }); i >= 0 {
			name, _, _ := strings.Cut(seats[i].TableRef, "#")
			return &PlayerError{Message: "you have chips at the table " + name + ": leave it (your chips go back to your credits) before deleting your account", Err: ErrHoldsSeat}
		}
		if n, err := q.TournamentsEntered(ctx, u.ID); err != nil {
			return err
		} else if n > 0 {
			return &PlayerError{Message: "you are in a tournament: unregister, or play it out, before deleting your account", Err: ErrHoldsSeat}
		}
		credits, err := q.Balance(ctx, u.ID)
		if err != nil {
			return err
		}
		now := h.now()
		if credits != 0 {
			if _, err := q.AddEntry(ctx, store.Entry{UserID: u.ID, Kind: store.KindAdjustment, Amount: -credits, Note: "account deleted", CreatedAt: now}); err != nil {
				return err
			}
		}
		// The player's bots stop playing: their tokens are revoked.
		bots, err := q.BotsOf(ctx, u.ID)
		if err != nil {
			return err
		}
		for _, b := range bots {
			if err := q.DeleteAPIToken(ctx, b.ID); err != nil {
				return err
			}
		}
		gone := store.User{ID: u.ID, Username: DeletedPrefix + strconv.FormatInt(u.ID, 10), DeletedAt: now}
		if err := q.UpdateUser(ctx, gone); err != nil {
			return err
		}
		_, err = q.DeleteUserSessions(ctx, u.ID, nil)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete user %d: %w", u.ID, err)
	}
	h.sessions.dropUser(u.ID, "")
	return nil
}
