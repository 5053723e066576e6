//go:build unix

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive flock on f, waiting for it when wait, and reports
// false when it would have to wait and may not.
func lock(f *os.File, wait bool) (bool, error) {
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	for {
		err := unix.Flock(int(f.Fd()), how)
		switch {
		case errors.Is(err, unix.EINTR): // a signal came while waiting
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return false, nil
		}
		return err == nil, err
	}
}

// unlock releases the flock on f.
func unlock(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }
