package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/felt-poker/felt/internal/store"
	"github.com/felt-poker/felt/internal/store/storetest"
)

// TestLock takes a lock, fails to take it again while it is held (from another
// connection, as a second house would), and takes it again once released.
func TestLock(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		held, err := s.Lock(ctx, store.HouseKey)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Lock(ctx, store.HouseKey)
		var le *store.LockedError
		if !errors.Is(err, store.ErrLocked) || !errors.As(err, &le) {
			t.Fatalf("second Lock while held: %v, want ErrLocked", err)
		}
		if want := fmt.Sprintf("pid %d", os.Getpid()); !strings.Contains(le.Holder, want) {
			t.Errorf("holder %q does not name %s", le.Holder, want)
		}
		// Another key is another lock.
		other, err := s.Lock(ctx, "table-main")
		if err != nil {
			t.Fatalf("another key: %v", err)
		}
		if err := other.Release(); err != nil {
			t.Fatal(err)
		}
		if err := held.Release(); err != nil {
			t.Fatal(err)
		}
		if err := held.Release(); err != nil {
			t.Fatalf("second Release: %v", err)
		}
		again, err := s.Lock(ctx, store.HouseKey)
		if err != nil {
			t.Fatalf("Lock after Release: %v", err)
		}
		again.Release()
		if _, err := s.Lock(ctx, "../etc/passwd"); err == nil || errors.Is(err, store.ErrLocked) {
			t.Fatalf("a key naming a path: %v", err)
		}
	})
}

// TestLockSQLiteTwoOpens locks one SQLite database through two stores, as two
// felt processes on one data directory would.
func TestLockSQLiteTwoOpens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "felt.db")
	a, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	held, err := a.Lock(ctx, store.HouseKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lock(ctx, store.HouseKey); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second store's Lock while the first holds it: %v", err)
	}
	if _, err := os.Stat(path + ".house.lock"); err != nil {
		t.Errorf("no lock file beside the database: %v", err)
	}
	held.Release()
	h2, err := b.Lock(ctx, store.HouseKey)
	if err != nil {
		t.Fatalf("second store's Lock after release: %v", err)
	}
	h2.Release()
}

func TestPing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		if err := s.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := s.Ping(context.Background()); err == nil {
			t.Fatal("Ping of a closed store succeeded")
		}
	})
}

// lockHelperEnv names the database a re-run of the test binary locks, in
// TestLockReleasedOnKill.
const lockHelperEnv = "FELT_TEST_LOCK_HELPER"

// TestLockReleasedOnKill has another process take a SQLite database's lock, kills
// it with SIGKILL, and takes the lock: the kernel released it with the process.
func TestLockReleasedOnKill(t *testing.T) {
	if path := os.Getenv(lockHelperEnv); path != "" {
		holdLockForever(path)
		return
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "felt.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockReleasedOnKill$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "locked") {
		t.Fatalf("helper: %q %v", line, err)
	}
	s, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Lock(ctx, store.HouseKey)
	var le *store.LockedError
	if !errors.As(err, &le) || !strings.Contains(le.Holder, fmt.Sprintf("pid %d ", cmd.Process.Pid)) {
		t.Fatalf("Lock while the helper (pid %d) holds it: %v", cmd.Process.Pid, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	held, err := s.Lock(ctx, store.HouseKey)
	if err != nil {
		t.Fatalf("Lock after the holder was killed: %v", err)
	}
	held.Release()
}

// holdLockForever is the helper process of TestLockReleasedOnKill.
func holdLockForever(path string) {
	s, err := store.OpenSQLite(context.Background(), path)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if _, err := s.Lock(context.Background(), store.HouseKey); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Hour)
}

// TestLockShared takes a key shared twice (two nodes of one house), refuses it
// exclusive meanwhile (a single-node house that would recover every seat),
// and refuses it shared while held exclusive. SQLite has no shared locks.
func TestLockShared(t *testing.T) {
	if _, err := storetest.SQLite(t).LockShared(context.Background(), store.HouseKey); !errors.Is(err, store.ErrSharedLockUnsupported) {
		t.Errorf("SQLite LockShared: %v, want ErrSharedLockUnsupported", err)
	}
	s := storetest.Postgres(t)
	ctx := context.Background()
	a, err := s.LockShared(ctx, store.HouseKey)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.LockShared(ctx, store.HouseKey)
	if err != nil {
		t.Fatalf("second shared holder: %v", err)
	}
	if _, err := s.Lock(ctx, store.HouseKey); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("exclusive while shared: %v, want ErrLocked", err)
	}
	if err := errors.Join(a.Release(), b.Release()); err != nil {
		t.Fatal(err)
	}
	x, err := s.Lock(ctx, store.HouseKey)
	if err != nil {
		t.Fatalf("exclusive after the shared holders left: %v", err)
	}
	defer x.Release()
	if _, err := s.LockShared(ctx, store.HouseKey); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("shared while exclusive: %v, want ErrLocked", err)
	}
}

// TestFence raises a table's fencing token: the same or a higher token
// passes, a lower one (a stale owner's) is refused and changes nothing.
func TestFence(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		for _, step := range []struct {
			ref   string
			token int64
			ok    bool
		}{
			{"table:Main#1", 5, true}, {"table:Main#1", 5, true}, {"table:Main#1", 3, false},
			{"table:Other#2", 1, true}, {"table:Main#1", 7, true}, {"table:Main#1", 5, false},
		} {
			err := s.InTx(ctx, func(q store.Queries) error { return q.Fence(ctx, step.ref, step.token) })
			if step.ok != (err == nil) || (err != nil && !errors.Is(err, store.ErrFenced)) {
				t.Fatalf("fence %s at %d: %v, want ok %v", step.ref, step.token, err, step.ok)
			}
		}
	})
}
