//go:build unix

package mcp

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/mcp/mcptest"
)

// Whether a process is gone is asked with kill(pid, 0), which only Unix
// has; the Windows job object is childproc's own tests' business.

func TestStdioStartTimeoutLeavesNoProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	s := stdioSpec(t, mcptest.DelayEnv+"=30s")
	_, err := Connect(ctx, s)
	var start *StartError
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &start) || start.Pid == 0 {
		t.Fatalf("slow start: %v", err)
	}
	if err := syscall.Kill(start.Pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the slow server %d is still there: %v", start.Pid, err)
	}
}

func TestStdioCloseEndsProcessGroup(t *testing.T) {
	c := connect(t, stdioSpec(t))
	pid := c.Pid()
	c.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("server %d still there after Close: %v", pid, err)
	}
}
