package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// A signal to `agentdesk run` while a hook runs stops the hook's whole
// process group, grandchildren included, and ends what an earlier hook
// left running, before the process exits with 128+signal.
func TestRunStopsEveryChildOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) { runUntilSignal(t, sig) })
	}
}

func runUntilSignal(t *testing.T, sig syscall.Signal) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"procs"}`},
		"hooks/hooks.json": {Body: `{"hooks":{
			"SessionStart":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/daemon.sh"}]}],
			"UserPromptSubmit":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/busy.sh","timeout":60}]}]}}`},
		// A daemon that outlives its successful hook, and a hook that is
		// still running, with a grandchild, when the signal comes.
		"hooks/daemon.sh": {Body: "#!/bin/sh\nsleep 1000 >/dev/null 2>&1 &\necho $! > daemon.tmp && mv daemon.tmp daemon\n", Mode: 0o755},
		"hooks/busy.sh":   {Body: "#!/bin/sh\nsleep 1000 &\necho $$ > busy.tmp && mv busy.tmp busy\nwait\n", Mode: 0o755},
	}
	c, url := cliWithRepo(t, "procs", files)
	c.ok("ext", "install", url)
	c.ok("ext", "enable", "procs", "--yes")
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "never reached"})
	project := t.TempDir()
	cmd := exec.Command(c.bin, "run", "--project", project, "hi")
	cmd.Env = append(c.env, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	group := pidFromFile(t, filepath.Join(project, "busy"))
	daemon := pidFromFile(t, filepath.Join(project, "daemon"))
	t.Cleanup(func() {
		_ = syscall.Kill(-group, syscall.SIGKILL)
		_ = syscall.Kill(daemon, syscall.SIGKILL)
	})

	signalled := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) {
			t.Errorf("agentdesk run ended with %v, want exit status %d", err, 128+int(sig))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("agentdesk run did not exit after the signal")
	}
	time.Sleep(time.Until(signalled.Add(2 * time.Second)))
	if alive := groupMembers(t, group); len(alive) > 0 {
		t.Errorf("2 s after %v, processes %v of the hook's group %d still run", sig, alive, group)
	}
	if running(daemon) {
		t.Errorf("2 s after %v, the daemon %d a hook left still runs", sig, daemon)
	}
}

// pidFromFile waits for a hook to write its pid file.
func pidFromFile(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if body, err := os.ReadFile(path); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(body)))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupMembers lists the live (not zombie) processes of a process group.
func groupMembers(t *testing.T, pgid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, group, ok := procStat(pid); ok && group == pgid && state != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != "Z"
}

// procStat reads a process's state and process group from /proc.
func procStat(pid int) (state string, pgid int, ok bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	// Fields after the parenthesised name: state, ppid, pgrp, ...
	_, rest, found := strings.Cut(string(stat), ") ")
	fields := strings.Fields(rest)
	if !found || len(fields) < 3 {
		return "", 0, false
	}
	pgid, err = strconv.Atoi(fields[2])
	return fields[0], pgid, err == nil
}

// TestRunStopsMCPServersOnSignal: a stdio MCP server still starting when
// SIGTERM comes (it never answers the handshake) ends with agentdesk run.
func TestRunStopsMCPServersOnSignal(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"mcpprocs"}`},
		".mcp.json":                  {Body: `{"mcpServers":{"mute":{"command":"${CLAUDE_PLUGIN_ROOT}/mute.sh"}}}`},
		// An MCP server may write only its data folder (the sandbox).
		"mute.sh": {Body: "#!/bin/sh\necho $$ > \"$CLAUDE_PLUGIN_DATA/mcp.tmp\" && mv \"$CLAUDE_PLUGIN_DATA/mcp.tmp\" \"$CLAUDE_PLUGIN_DATA/mcp\"\nexec sleep 1000\n",
			Mode: 0o755},
	}
	c, url := cliWithRepo(t, "mcpprocs", files)
	c.ok("ext", "install", url)
	c.ok("ext", "enable", "mcpprocs", "--yes")
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "never reached"})
	project := t.TempDir()
	cmd := exec.Command(c.bin, "run", "--project", project, "hi")
	cmd.Env = append(c.env, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pid := pidFromFile(t, filepath.Join(c.home, "extensions", "data", "mcpprocs", "mcp"))
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	signalled := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("agentdesk run did not exit after SIGTERM")
	}
	if took := time.Since(signalled); took > 10*time.Second {
		t.Errorf("quitting waited %v for a server that never started", took)
	}
	time.Sleep(time.Until(signalled.Add(2 * time.Second)))
	if running(pid) {
		t.Errorf("2 s after SIGTERM, the MCP server %d still runs", pid)
	}
}
