// Package quietinit silences the standard logger while packages
// initialise. Fyne's lang package logs an error from its init when the
// locale is "C" (common in terminals and CI), which would break the
// command line's one-line error contract. main imports this package
// before anything else that logs; its path sorts before Fyne's locale
// dependency (github.com/jeandeaual/go-locale), so Go's init order runs
// it first. main restores the logger with Restore.
package quietinit

import (
	"io"
	"log"
	"os"
)

func init() { log.SetOutput(io.Discard) }

// Restore sends the standard logger to stderr again.
func Restore() { log.SetOutput(os.Stderr) }
