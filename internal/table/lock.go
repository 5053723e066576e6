package table

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"unicode/utf8"

	"github.com/felt-poker/felt/internal/house"
)

// Locked tables (docs/house.md, "Private tables"): a table whose Config.Lock is
// set may be watched, sat at or chatted at only by players who gave its key
// (Admit) and by those seated. The key is a password its creator chose (the
// table is listed in the lobby as locked) or an invitation token the house drew
// (the table is not listed; its link carries the token). The table keeps only a
// salted SHA-256 of the key, compared in constant time; a new table drawn under
// an old name has a new salt, so an old link or password opens nothing.

// Kinds of lock.
const (
	LockPassword = "password"
	LockInvite   = "invite"
)

// Bounds of a table password, in characters.
const (
	MinTablePassword = 4
	MaxTablePassword = 64
)

// ErrLocked refuses a player who has not given a locked table's key.
var ErrLocked = fmt.Errorf("%w: this table is locked: its password or invitation link is needed", house.ErrForbidden)

// Lock is what a locked table keeps of its key.
type Lock struct {
	Kind string `json:"kind"`
	Salt []byte `json:"salt"`
	Hash []byte `json:"hash"`
}

func (l *Lock) hash(key string) []byte {
	h := sha256.New()
	h.Write(l.Salt)
	h.Write([]byte(key))
	return h.Sum(nil)
}

// Opens reports whether key is the lock's key.
func (l *Lock) Opens(key string) bool {
	return subtle.ConstantTimeCompare(l.hash(key), l.Hash) == 1
}

func (l *Lock) valid() bool {
	return (l.Kind == LockPassword || l.Kind == LockInvite) && len(l.Salt) >= 16 && len(l.Hash) == sha256.Size
}

// NewPasswordLock locks a table with a password of MinTablePassword to
// MaxTablePassword characters (a *house.FieldError on field "password"
// otherwise).
func NewPasswordLock(password string) (*Lock, error) {
	if n := utf8.RuneCountInString(password); n < MinTablePassword || n > MaxTablePassword || !utf8.ValidString(password) {
		return nil, invalid("password", "must be %d to %d characters", MinTablePassword, MaxTablePassword)
	}
	return newLock(LockPassword, password), nil
}

// NewInviteLock locks a table with a fresh invitation token (130 random bits),
// which it returns to be put in the table's link.
func NewInviteLock() (*Lock, string) {
	token := rand.Text()
	return newLock(LockInvite, token), token
}

func newLock(kind, key string) *Lock {
	l := &Lock{Kind: kind, Salt: make([]byte, 16)}
	_, _ = rand.Read(l.Salt)
	l.Hash = l.hash(key)
	return l
}
