package store

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockedByte is the offset of the byte locked, far past the holder's
// description, which others must still be able to read.
const lockedByte = 0x7fffffff

// tryLockFile takes an exclusive lock on one byte of f without waiting, and
// reports false when another handle holds it.
func tryLockFile(f *os.File) (bool, error) {
	ol := &windows.Overlapped{OffsetHigh: lockedByte}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}

// unlockFile releases the lock on f and closes it.
func unlockFile(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockedByte}
	return errors.Join(windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol), f.Close())
}
