package house

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

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
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
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
	got := argon2.IDKey([]byte(password), salt, time, memory, threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}
