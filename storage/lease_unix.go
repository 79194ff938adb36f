//go:build !windows

package storage

import (
	"errors"
	"syscall"
)

// processRuns reports whether a process of that pid exists (one of
// another user answers EPERM: it exists).
func processRuns(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
