package filelock

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLockExcludesAnotherOpen: two opens of one path, in one process, exclude
// each other until the first unlocks or closes.
func TestLockExcludesAnotherOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(b); ok || err != nil {
		t.Fatalf("a second open took a held lock: %v, %v", ok, err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(b); !ok || err != nil {
		t.Fatalf("the lock was not free after Unlock: %v, %v", ok, err)
	}
	b.Close()
	if err := Lock(a); err != nil { // closing released it: no wait
		t.Fatal(err)
	}
}
