package hookrun

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// stderrTailMax bounds how much stderr a failure message quotes.
const stderrTailMax = 300

// FailureKind says why a hook run failed.
type FailureKind int

// Failure kinds. Every kind is a hook failure: the hook's output is dropped
// for this turn and the turn continues.
const (
	// NotFound: the program does not exist or is not on the hook PATH.
	NotFound FailureKind = iota + 1
	// StartFailed: the hook could not be started (bad spec, oversized
	// input, permission denied) or its standard streams failed.
	StartFailed
	// ExitStatus: the hook exited with a non-zero status.
	ExitStatus
	// Signaled: the hook was killed by a signal it did not get from us.
	Signaled
	// TimedOut: the hook ran past its timeout and was stopped.
	TimedOut
	// Canceled: the caller's context ended the run.
	Canceled
	// OutputTooLarge: stdout exceeded MaxStdout.
	OutputTooLarge
	// OutputNotClosed: the hook exited but a process it started kept its
	// output open past childproc.Grace.
	OutputNotClosed
	// InvalidOutput: stdout was not valid UTF-8 text or hook JSON
	// (reported by ParseOutput).
	InvalidOutput
)

var failureKindNames = map[FailureKind]string{
	NotFound:        "not found",
	StartFailed:     "start failed",
	ExitStatus:      "exit status",
	Signaled:        "signaled",
	TimedOut:        "timed out",
	Canceled:        "canceled",
	OutputTooLarge:  "output too large",
	OutputNotClosed: "output not closed",
	InvalidOutput:   "invalid output",
}

func (k FailureKind) String() string {
	if name, ok := failureKindNames[k]; ok {
		return name
	}
	return fmt.Sprintf("FailureKind(%d)", int(k))
}

// Failure is a failed hook run, worded for the user.
type Failure struct {
	Kind FailureKind
	// Program is Argv[0] as given.
	Program string
	// ExitCode is the status for ExitStatus, -1 otherwise.
	ExitCode int
	// Signal names the signal for Signaled, such as "SIGKILL".
	Signal string
	// Msg is one user-facing line naming the program and what went wrong.
	Msg string
	// Stderr is the end of what the hook wrote to stderr, on one line.
	Stderr string
	// Err is the underlying error, if any (context cause, start error).
	Err error
}

func (f *Failure) Error() string {
	if f.Stderr == "" {
		return f.Msg
	}
	return f.Msg + " (stderr: " + f.Stderr + ")"
}

func (f *Failure) Unwrap() error { return f.Err }

// stderrTail renders the end of stderr as one line of valid UTF-8.
func stderrTail(stderr []byte) string {
	line := strings.Join(strings.Fields(strings.ToValidUTF8(string(stderr), "\uFFFD")), " ")
	if len(line) <= stderrTailMax {
		return line
	}
	cut := len(line) - stderrTailMax
	for !utf8.RuneStart(line[cut]) {
		cut++
	}
	return "…" + line[cut:]
}

// formatBytes renders a size the way the limits are spoken of: 64 KiB.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return trimZeroDecimal(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return trimZeroDecimal(float64(n)/(1<<10)) + " KiB"
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

func trimZeroDecimal(v float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0")
}
