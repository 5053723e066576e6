package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockedByte is the offset of the byte locked, far past the data, which others
// must still be able to read.
const lockedByte = 0x7fffffff

// lock takes an exclusive lock on one byte of f, waiting for it when wait, and
// reports false when it would have to wait and may not.
func lock(f *os.File, wait bool) (bool, error) {
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	ol := &windows.Overlapped{OffsetHigh: lockedByte}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}

// unlock releases the lock on f.
func unlock(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockedByte}
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}
