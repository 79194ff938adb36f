package main

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// hardenProcess marks AgentDesk non-dumpable. Its environment holds the
// provider keys, and /proc/<pid>/environ is readable by every process of
// the same user, hooks and the model's run_command included; a
// non-dumpable process's /proc files belong to root and are closed to
// ptrace-style access by anyone without CAP_SYS_PTRACE. Children are not
// affected: execve makes them dumpable again.
func hardenProcess() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("mark the process non-dumpable: %w", err)
	}
	return nil
}
