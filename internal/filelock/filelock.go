// Package filelock takes exclusive advisory locks on open files: flock on
// Unix, LockFileEx on Windows (on one byte far past any data, so that a locked
// file can still be read). The lock belongs to the open file: two opens of one
// path exclude each other, in one process or in several, and the lock goes
// when the file is closed or the process ends. It binds only those who take it.
package filelock

import "os"

// Lock takes the lock on f, waiting while another open file holds it.
func Lock(f *os.File) error {
	_, err := lock(f, true)
	return err
}

// TryLock takes the lock on f without waiting, and reports false when another
// open file holds it.
func TryLock(f *os.File) (bool, error) { return lock(f, false) }

// Unlock releases the lock on f (closing f releases it too).
func Unlock(f *os.File) error { return unlock(f) }
