package house

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"
)

// deriveKey is argon2.IDKey; tests count the hashes in progress through it.
var deriveKey = argon2.IDKey

// Argon2Params are the argon2id cost parameters of new password hashes. Hashes
// carry their own parameters, so changing these does not invalidate old ones.
type Argon2Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// DefaultArgon2 is OWASP's argon2id recommendation (19 MiB, 2 passes, 1 thread):
// about 40 ms a hash on this project's machines.
func DefaultArgon2() Argon2Params {
	return Argon2Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
}

// errBadHash reports a stored hash that is not an argon2id PHC string.
var errBadHash = errors.New("not an argon2id PHC string")

// HashPassword hashes password with argon2id and returns the PHC string
// $argon2id$v=19$m=MEMORY,t=TIME,p=THREADS$SALT$HASH (unpadded standard base64).
func HashPassword(password string, p Argon2Params) (string, error) {
	if p.Memory == 0 || p.Time == 0 || p.Threads == 0 || p.SaltLen == 0 || p.KeyLen == 0 {
		return "", fmt.Errorf("hash password: incomplete argon2 parameters %+v", p)
	}
	salt := make([]byte, p.SaltLen)
	rand.Read(salt) // never fails (crypto/rand)
	key := deriveKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// VerifyPassword reports whether password matches the PHC string hash, comparing
// in constant time. It returns an error only for a malformed hash.
func VerifyPassword(password, hash string) (bool, error) {
	parts := strings.Split(hash, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, fmt.Errorf("%w: version %q", errBadHash, parts[2])
	}
	var (
		memory, time uint32
		threads      uint8
	)
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil || memory == 0 || time == 0 || threads == 0 {
		return false, fmt.Errorf("%w: parameters %q", errBadHash, parts[3])
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, fmt.Errorf("%w: salt: %v", errBadHash, err)
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) == 0 {
		return false, fmt.Errorf("%w: key", errBadHash)
	}
	got := deriveKey([]byte(password), salt, time, memory, threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// hashSlots bound the password hashes computed at once: each takes
// Argon2Params.Memory, so a flood of logins queues (or is refused as busy)
// instead of allocating it for every request.
type hashSlots struct {
	slots      chan struct{}
	waiting    atomic.Int64
	maxWaiting int64
	wait       time.Duration
}

func newHashSlots(l Limits) *hashSlots {
	n := l.hashes()
	return &hashSlots{slots: make(chan struct{}, n), maxWaiting: int64(n) * hashQueuePerSlot, wait: l.HashWait}
}

// do runs f in a slot, waiting for one at most the hash wait, as long as ctx
// lasts, and only when fewer than the most allowed are waiting already.
func (s *hashSlots) do(ctx context.Context, f func()) error {
	select {
	case s.slots <- struct{}{}:
	default:
		if err := s.queue(ctx); err != nil {
			return err
		}
	}
	defer func() { <-s.slots }()
	f()
	return nil
}

// queue waits for a slot and takes it.
func (s *hashSlots) queue(ctx context.Context) error {
	busy := &PlayerError{Message: "the house is busy: try again in a moment", RetryAfter: time.Second, Err: ErrBusy}
	if s.waiting.Add(1) > s.maxWaiting {
		s.waiting.Add(-1)
		return busy
	}
	defer s.waiting.Add(-1)
	timer := time.NewTimer(s.wait)
	defer timer.Stop()
	select {
	case s.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return busy
	}
}

// hash is HashPassword in a hash slot.
func (h *House) hash(ctx context.Context, password string) (hash string, err error) {
	if serr := h.hashes.do(ctx, func() { hash, err = HashPassword(password, h.cfg.Argon2) }); serr != nil {
		return "", serr
	}
	return hash, err
}

// verify is VerifyPassword in a hash slot.
func (h *House) verify(ctx context.Context, password, hash string) (ok bool, err error) {
	if serr := h.hashes.do(ctx, func() { ok, err = VerifyPassword(password, hash) }); serr != nil {
		return false, serr
	}
	return ok, err
}
