package hookrun

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestEffectiveTimeout(t *testing.T) {
	tests := []struct{ in, want time.Duration }{
		{0, DefaultTimeout},
		{-time.Second, DefaultTimeout},
		{3 * time.Second, 3 * time.Second},
		{MaxTimeout, MaxTimeout},
		{600 * time.Second, MaxTimeout},
	}
	for _, tt := range tests {
		if got := effectiveTimeout(tt.in); got != tt.want {
			t.Errorf("effectiveTimeout(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if DefaultTimeout != 5*time.Second || MaxTimeout != 60*time.Second {
		t.Errorf("bounds drifted from the design: default %v, ceiling %v", DefaultTimeout, MaxTimeout)
	}
}

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{12, "12 bytes"}, {MaxStdout, "64 KiB"}, {MaxStdout + 512, "64.5 KiB"}, {50 << 20, "50 MiB"},
	}
	for _, tt := range tests {
		if got := formatBytes(tt.n); got != tt.want {
			t.Errorf("formatBytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestStderrTail(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"joins lines", "Error: boom\n    at main.js:3\n\n", "Error: boom at main.js:3"},
		{"repairs invalid UTF-8", "bad \xff byte", "bad \uFFFD byte"},
		{"keeps the end of long output", strings.Repeat("a", 500) + " last words",
			"…" + strings.Repeat("a", stderrTailMax-len(" last words")) + " last words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stderrTail([]byte(tt.in)); got != tt.want {
				t.Fatalf("stderrTail = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStderrTailCutsOnRuneBoundary(t *testing.T) {
	got := stderrTail([]byte(strings.Repeat("é", 400)))
	if !utf8.ValidString(got) || len(got) > stderrTailMax+len("…") {
		t.Fatalf("tail %q (%d bytes)", got, len(got))
	}
}

func TestFailureError(t *testing.T) {
	f := &Failure{Msg: "`node` exited with status 1"}
	if f.Error() != f.Msg {
		t.Fatalf("Error() = %q without stderr", f.Error())
	}
	f.Stderr = "Cannot find module"
	if want := "`node` exited with status 1 (stderr: Cannot find module)"; f.Error() != want {
		t.Fatalf("Error() = %q, want %q", f.Error(), want)
	}
	if TimedOut.String() != "timed out" || FailureKind(99).String() != "FailureKind(99)" {
		t.Fatalf("kind names: %q, %q", TimedOut, FailureKind(99))
	}
}
