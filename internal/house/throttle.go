package house

import (
	"errors"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/felt-poker/felt/internal/addrkey"
)

// failures are the failed logins of one account or address.
type failures struct {
	count   int       // failed in a row
	pending int       // logins in progress
	last    time.Time // the last failure
	until   time.Time // locked out until then
}

// lockPolicy is when a key is locked out: after limit failures, for base, doubled
// at each further failure up to most. limit 0: never.
type lockPolicy struct {
	limit      int
	base, most time.Duration
}

// lockOut is how long the count-th failure in a row locks its key out.
func (p lockPolicy) lockOut(count int) time.Duration {
	if p.limit == 0 || count < p.limit {
		return 0
	}
	d := p.base
	for i := p.limit; i < count && d < p.most; i++ {
		d *= 2
	}
	return min(d, p.most)
}

// loginThrottle counts failed logins by account and by address (Limits). A
// login begins (refused while either key is locked out, or while as many logins
// are in progress as failures remain before a lock-out, so that parallel
// guesses cannot overshoot the limit) and ends as a failure or a success.
type loginThrottle struct {
	account, address lockPolicy
	forget           time.Duration

	mu sync.Mutex
	// Keys are "u:" + accountKey and "a:" + addressKey, each map at most max.
	accounts, addresses map[string]*failures
	max                 int
}

func newLoginThrottle(l Limits) *loginThrottle {
	return &loginThrottle{
		account:  lockPolicy{l.LoginFailures, l.LockOut, l.MaxLockOut},
		address:  lockPolicy{l.AddressLoginFailures, l.LockOut, l.MaxLockOut},
		forget:   l.ForgetFailures,
		accounts: map[string]*failures{}, addresses: map[string]*failures{}, max: l.MaxTracked,
	}
}

// busyWait is how long a login waits when the logins in progress may be the
// last failures allowed before a lock-out.
const busyWait = time.Second

// wait is how long f refuses a new login at now under p (0: it may begin).
// Lock should be held on entry.
func (t *loginThrottle) wait(f *failures, p lockPolicy, now time.Time) time.Duration {
	if f == nil || p.limit == 0 {
		return 0
	}
	if now.Before(f.until) {
		return f.until.Sub(now)
	}
	if f.count+f.pending >= p.limit && f.pending > 0 {
		return busyWait
	}
	return 0
}

// begin starts a login of account from address at now, or returns how long to
// wait before trying again and whether that is a lock-out (or else logins in
// progress to wait for).
func (t *loginThrottle) begin(account, address string, now time.Time) (wait time.Duration, lockedOut bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	a, ad := t.get(t.accounts, account, now), t.get(t.addresses, address, now)
	if w := max(t.wait(a, t.account, now), t.wait(ad, t.address, now)); w > 0 {
		locked := a != nil && now.Before(a.until) || ad != nil && now.Before(ad.until)
		return w, locked
	}
	t.entry(t.accounts, account, now).pending++
	t.entry(t.addresses, address, now).pending++
	return 0, false
}

// end finishes a login begun at now with its error: ErrBadCredentials counts a
// failure against both keys (and locks them out at their limits), a success
// (nil) resets the account, any other error counts nothing.
func (t *loginThrottle) end(account, address string, err error, now time.Time) {
	failed, ok := errors.Is(err, ErrBadCredentials), err == nil
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range []struct {
		m     map[string]*failures
		key   string
		p     lockPolicy
		reset bool // a success resets the count
	}{{t.accounts, account, t.account, true}, {t.addresses, address, t.address, false}} {
		f := t.entry(k.m, k.key, now)
		f.pending = max(f.pending-1, 0)
		switch {
		case failed:
			f.count++
			f.last = now
			if d := k.p.lockOut(f.count); d > 0 {
				f.until = now.Add(d)
			}
		case ok && k.reset:
			f.count, f.until = 0, time.Time{}
		}
		if f.count == 0 && f.pending == 0 {
			delete(k.m, k.key)
		}
	}
}

// get returns the failures of key, nil when none are remembered at now.
// Lock should be held on entry.
func (t *loginThrottle) get(m map[string]*failures, key string, now time.Time) *failures {
	f := m[key]
	if f != nil && t.forgotten(f, now) {
		delete(m, key)
		return nil
	}
	return f
}

// forgotten reports whether f no longer matters at now: no login in progress,
// not locked out, no failure for the forget period.
func (t *loginThrottle) forgotten(f *failures, now time.Time) bool {
	return f.pending == 0 && !now.Before(f.until) && now.Sub(f.last) >= t.forget
}

// entry returns the failures of key, made (within the bound) if need be.
// Lock should be held on entry.
func (t *loginThrottle) entry(m map[string]*failures, key string, now time.Time) *failures {
	if f := t.get(m, key, now); f != nil {
		return f
	}
	if len(m) >= t.max {
		t.shrink(m, now)
	}
	f := &failures{}
	m[key] = f
	return f
}

// shrink makes room in a full map: it forgets what no longer matters, then
// keys not locked out, then any, down to nine tenths of the bound (so that the
// next tenth of new keys cost nothing). Lock should be held on entry.
func (t *loginThrottle) shrink(m map[string]*failures, now time.Time) {
	target := t.max - max(t.max/10, 1)
	for _, drop := range []func(*failures) bool{
		func(f *failures) bool { return t.forgotten(f, now) },
		func(f *failures) bool { return f.pending == 0 && !now.Before(f.until) },
		func(*failures) bool { return true },
	} {
		for k, f := range m {
			if len(m) <= target {
				return
			}
			if drop(f) {
				delete(m, k)
			}
		}
	}
}

// buckets are a token bucket (Rate) per address, at most max of them.
type buckets struct {
	r   Rate
	max int

	mu sync.Mutex
	m  map[string]*rate.Limiter
}

func newBuckets(r Rate, maxKeys int) *buckets {
	return &buckets{r: r, max: maxKeys, m: map[string]*rate.Limiter{}}
}

// take spends one token of key's bucket at now, or returns how long until one
// is there (and spends nothing).
func (b *buckets) take(key string, now time.Time) time.Duration {
	d, _ := b.reserve(key, now)
	return d
}

// reserve is take that also returns how to give the token back (nil when none
// was spent).
func (b *buckets) reserve(key string, now time.Time) (time.Duration, func()) {
	if b.r.Every == 0 {
		return 0, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.m[key]
	if l == nil {
		if len(b.m) >= b.max {
			b.shrink(now)
		}
		l = rate.NewLimiter(rate.Every(b.r.Every), b.r.Burst)
		b.m[key] = l
	}
	res := l.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return d, nil
	}
	return 0, func() { res.CancelAt(now) }
}

// addressBuckets bound what one address asks for (buckets by AddressKey) and,
// for IPv6, what its whole /48 asks for: addrkey.WideFactor times the burst,
// refilled that many times faster (docs/security.md, "IPv6 networks wider than
// a /64").
type addressBuckets struct{ narrow, wide *buckets }

func newAddressBuckets(r Rate, maxKeys int) addressBuckets {
	w := Rate{Burst: r.Burst * addrkey.WideFactor, Every: r.Every / addrkey.WideFactor}
	if r.Every > 0 {
		w.Every = max(w.Every, 1)
	}
	return addressBuckets{narrow: newBuckets(r, maxKeys), wide: newBuckets(w, maxKeys)}
}

// take spends one token of key's bucket (key: AddressKey of an address) and
// one of its /48's, or returns how long until both have one (and spends
// nothing).
func (a addressBuckets) take(key string, now time.Time) time.Duration {
	d, undo := a.narrow.reserve(key, now)
	wide := addrkey.Wide(key)
	if d > 0 || wide == "" {
		return d
	}
	if d, _ := a.wide.reserve(wide, now); d > 0 {
		if undo != nil {
			undo()
		}
		return d
	}
	return 0
}

// shrink forgets the full buckets (as good as new), then any, down to nine
// tenths of the bound. Lock should be held on entry.
func (b *buckets) shrink(now time.Time) {
	target := b.max - max(b.max/10, 1)
	for _, full := range []bool{true, false} {
		for k, l := range b.m {
			if len(b.m) <= target {
				return
			}
			if !full || l.TokensAt(now) >= float64(b.r.Burst) {
				delete(b.m, k)
			}
		}
	}
}

// Guess runs check, a guess at a secret other than a password (a locked
// table's password or invitation, docs/security.md "Private tables"), counted
// as the logins are (Limits): a check that fails with an error wrapping wrong
// is a failed login of what (for this address alone, so that a guesser does not
// lock others out of it) and of the address from. While either is locked out,
// check is not run and the guess is refused with ErrTooManyLogins.
func (h *House) Guess(what, from string, wrong error, check func() error) error {
	address := AddressKey(from)
	account := "guess:" + what + "@" + address
	if wait, locked := h.logins.begin(account, address, h.now()); locked {
		return retryError(ErrTooManyLogins, "too many wrong guesses", wait)
	} else if wait > 0 {
		return retryError(ErrTooManyLogins, "too many guesses at once", wait)
	}
	err := check()
	counted := err
	if errors.Is(err, wrong) {
		counted = ErrBadCredentials
	}
	h.logins.end(account, address, counted, h.now())
	return err
}
