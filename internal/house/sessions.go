package house

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/store"
)

// Sessions are cached in memory so that authenticating a request (every API call
// and WebSocket handshake) does not read the database: an entry is made when a
// session opens or is first looked up, and is trusted for sessionCacheTTL (never
// past the session's own expiry). Logout removes it at once. A session deleted
// from the store by other means (another node's logout, later) stays valid here
// for at most sessionCacheTTL.
const (
	sessionCacheTTL = time.Minute
	sessionCacheMax = 200_000
)

type cachedSession struct {
	user    store.User
	expires time.Time // the session's expiry
	until   time.Time // when this entry stops being trusted
}

type sessionCache struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]cachedSession
}

func sessionKey(token string) [sha256.Size]byte { return sha256.Sum256([]byte(token)) }

// get returns the user of a cached session valid at now.
func (c *sessionCache) get(token string, now time.Time) (store.User, bool) {
	k := sessionKey(token)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok {
		return store.User{}, false
	}
	if !now.Before(e.expires) || !now.Before(e.until) {
		delete(c.m, k)
		return store.User{}, false
	}
	return e.user, true
}

func (c *sessionCache) put(token string, u store.User, expires, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[[sha256.Size]byte]cachedSession)
	}
	if len(c.m) >= sessionCacheMax {
		for k, e := range c.m {
			if !now.Before(e.expires) || !now.Before(e.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= sessionCacheMax {
			clear(c.m)
		}
	}
	c.m[sessionKey(token)] = cachedSession{user: u, expires: expires, until: now.Add(sessionCacheTTL)}
}

func (c *sessionCache) remove(token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, sessionKey(token))
}

// dropUser forgets the cached sessions of user id but the one of token keep
// ("" for none).
func (c *sessionCache) dropUser(id int64, keep string) {
	k := sessionKey(keep)
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, e := range c.m {
		if e.user.ID == id && (keep == "" || key != k) {
			delete(c.m, key)
		}
	}
}

// refreshUser replaces the account held by the cached sessions of u.ID with u.
func (c *sessionCache) refreshUser(u store.User) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, e := range c.m {
		if e.user.ID == u.ID {
			e.user = u
			c.m[key] = e
		}
	}
}
