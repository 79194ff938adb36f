//go:build unix

package extensions

import (
	"errors"
	"os"
	"syscall"
)

func lockFD(f *os.File, nonBlocking, shared bool) error {
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	if nonBlocking {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return errLocked
		}
		return err
	}
}

func unlockFD(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
