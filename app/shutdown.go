package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// shutdownSignals end AgentDesk the same way in the CLI and the GUI:
// Ctrl+C, SIGTERM from a supervisor or `timeout`, SIGHUP from a closed
// terminal. Each cancels the turn, which stops every child process group
// it runs; the session is written and what hooks left running is ended
// (core.close) before the process exits.
var shutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalled is the cause of a context ended by a shutdown signal.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return s.sig.String() + " received" }

// notifyShutdown returns a context that the first shutdown signal
// cancels, with that signal as its cause.
func notifyShutdown(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, shutdownSignals...)
	go func() {
		select {
		case sig := <-ch:
			cancel(signalled{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// signalExitCode is the status for a run a signal ended: 128 plus its
// number, as shells report it (130 for Ctrl+C, 143 for SIGTERM, 129 for
// SIGHUP).
func signalExitCode(ctx context.Context) int {
	var s signalled
	if errors.As(context.Cause(ctx), &s) {
		if n, ok := s.sig.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return 130
}
