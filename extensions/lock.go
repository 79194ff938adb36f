package extensions

import (
	"errors"
	"fmt"
	"os"
)

// errLocked: another process holds the lock (non-blocking attempts only).
var errLocked = errors.New("locked by another process")

// fileLock is an advisory lock on a file, held until unlock or process
// exit (the OS releases it if the process dies, so a crash never leaves a
// stale lock).
type fileLock struct {
	path string
	f    *os.File
}

// lockFile opens (creating) path and locks it; with nonBlocking it fails
// with errLocked instead of waiting.
func lockFile(path string, nonBlocking bool) (*fileLock, error) {
	return lockPath(path, nonBlocking, false)
}

// sharedLockFile is lockFile's shared form: any number of holders, none
// while someone holds it exclusively.
func sharedLockFile(path string, nonBlocking bool) (*fileLock, error) {
	return lockPath(path, nonBlocking, true)
}

func lockPath(path string, nonBlocking, shared bool) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	if err := lockFD(f, nonBlocking, shared); err != nil {
		f.Close()
		return nil, err
	}
	return &fileLock{path: path, f: f}, nil
}

func (l *fileLock) unlock() {
	unlockFD(l.f)
	l.f.Close()
}
