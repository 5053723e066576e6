package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/felt-poker/felt/internal/filelock"
)

// HouseKey is the key of the lock a house holds on its database for its whole
// life: while one house holds it, no other may start, and above all none may run
// the recovery that returns the stacks kept at tables to their players' credits.
//
// Today it is the only key. Several nodes sharing one database would each lock
// the tables they run under keys of their own ("table-NAME") instead, and
// recover only the seats of tables whose lock they take: Lock is written for
// that (any number of keys, each held by one holder at a time).
const HouseKey = "house"

// ErrLocked reports a lock held by another holder (see LockedError).
var ErrLocked = errors.New("locked")

// LockedError is the error of a Lock that another holder has. It unwraps to
// ErrLocked.
type LockedError struct {
	Key string
	// Holder describes the holder as far as it is known ("pid 4242 on host
	// since 2026-11-23T20:00:00Z"), or is empty.
	Holder string
}

func (e *LockedError) Error() string {
	if e.Holder == "" {
		return fmt.Sprintf("lock %q is held by another process", e.Key)
	}
	return fmt.Sprintf("lock %q is held by %s", e.Key, e.Holder)
}

// Unwrap returns ErrLocked.
func (e *LockedError) Unwrap() error { return ErrLocked }

// Held is a lock taken with Store.Lock. Release gives it up; it is given up too
// when the process ends, however it ends (kill -9 included), since the lock
// lives in the kernel (SQLite's lock file) or in the database session
// (PostgreSQL's advisory lock). Release is idempotent.
type Held interface {
	Release() error
}

// lockKey is what a key may be: it names a file beside a SQLite database.
var lockKey = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

func checkLockKey(key string) error {
	if !lockKey.MatchString(key) {
		return fmt.Errorf("store: lock key %q: want 1 to 64 of a-z, 0-9, _ and -", key)
	}
	return nil
}

// holderInfo describes this process, as a lock's holder.
func holderInfo(now time.Time) string {
	host, _ := os.Hostname()
	s := fmt.Sprintf("pid %d", os.Getpid())
	if host != "" {
		s += " on " + host
	}
	return s + " since " + now.UTC().Format(time.RFC3339)
}

// fileLock is a held lock file.
type fileLock struct {
	once sync.Once
	f    *os.File
	err  error
}

func (l *fileLock) Release() error {
	l.once.Do(func() {
		if l.f != nil {
			l.err = errors.Join(filelock.Unlock(l.f), l.f.Close())
		}
	})
	return l.err
}

// lockFile takes the lock file path without waiting: an exclusive flock (the
// kernel's lock, released when the process ends), then writes who holds it.
// When another process holds it, the error is a *LockedError with what that
// process wrote.
func lockFile(path, key string) (Held, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock file: %w", err)
	}
	locked, err := filelock.TryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	if !locked {
		b := make([]byte, 200)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		return nil, &LockedError{Key: key, Holder: strings.TrimSpace(string(b[:n]))}
	}
	// Who holds it, for the message of the next one to try; a failure to write
	// it does not weaken the lock.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(holderInfo(time.Now())+"\n"), 0)
	}
	return &fileLock{f: f}, nil
}

// pgLock is a session-level advisory lock, held by one connection set aside for
// it until Release.
type pgLock struct {
	once   sync.Once
	conn   *sql.Conn
	id     int64
	unlock string // the query that releases it
	err    error
}

func (l *pgLock) Release() error {
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var ok bool
		// An error means the session is gone, and its locks with it.
		err := l.conn.QueryRowContext(ctx, l.unlock, l.id).Scan(&ok)
		l.err = errors.Join(err, l.conn.Close())
	})
	return l.err
}

// pgAdvisoryID is the 64-bit advisory lock id of a key: a hash of the key and
// the schema, so that houses in different schemas of one database (the tests'
// way) do not exclude each other.
const pgAdvisoryID = `SELECT hashtextextended('felt:' || current_schema() || ':' || $1, 0)`

// lockPostgres takes the advisory lock of key on a connection of its own:
// exclusive, or shared (held by any number of shared holders at once, and
// excluding an exclusive one).
func lockPostgres(ctx context.Context, db *sql.DB, key string, shared bool) (Held, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: lock %q: %w", key, err)
	}
	var id int64
	if err := conn.QueryRowContext(ctx, pgAdvisoryID, key).Scan(&id); err != nil {
		conn.Close()
		return nil, fmt.Errorf("store: lock %q: %w", key, err)
	}
	var ok bool
	try, unlock := "SELECT pg_try_advisory_lock($1)", "SELECT pg_advisory_unlock($1)"
	if shared {
		try, unlock = "SELECT pg_try_advisory_lock_shared($1)", "SELECT pg_advisory_unlock_shared($1)"
	}
	if err := conn.QueryRowContext(ctx, try, id).Scan(&ok); err != nil {
		conn.Close()
		return nil, fmt.Errorf("store: lock %q: %w", key, err)
	}
	if !ok {
		holder := pgHolder(ctx, conn, id)
		conn.Close()
		return nil, &LockedError{Key: key, Holder: holder}
	}
	// Name the session after its holder, for the message of the next one to try.
	_, _ = conn.ExecContext(ctx, "SELECT set_config('application_name', $1, false)", "felt "+holderInfo(time.Now()))
	return &pgLock{conn: conn, id: id, unlock: unlock}, nil
}

// pgHolder describes the session holding advisory lock id, as far as this role
// may see it, or returns "".
func pgHolder(ctx context.Context, conn *sql.Conn, id int64) string {
	var pid int64
	var app sql.NullString
	var since sql.NullTime
	err := conn.QueryRowContext(ctx, `SELECT a.pid, a.application_name, a.backend_start
		FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted
		  AND l.classid = (($1::bigint >> 32) & 4294967295)::oid AND l.objid = ($1::bigint & 4294967295)::oid AND l.objsubid = 1
		LIMIT 1`, id).Scan(&pid, &app, &since)
	switch {
	case err != nil:
		return ""
	case strings.HasPrefix(app.String, "felt "):
		return strings.TrimPrefix(app.String, "felt ")
	case since.Valid:
		return fmt.Sprintf("PostgreSQL session %d since %s", pid, since.Time.UTC().Format(time.RFC3339))
	default:
		return fmt.Sprintf("PostgreSQL session %d", pid)
	}
}
