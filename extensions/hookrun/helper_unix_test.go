//go:build unix

package hookrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

// The test binary doubles as the hook program: started with helperArg as
// its first argument it runs one helper mode instead of the tests.
const helperArg = "hookrun-test-helper"

// testGuard bounds waits that only end early if something is broken.
const testGuard = 30 * time.Second

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == helperArg {
		os.Exit(runHelper(os.Args[2], os.Args[3:]))
	}
	os.Exit(m.Run())
}

var helperModes = map[string]func(args []string) int{
	"print":        func(args []string) int { fmt.Print(args[0]); return 0 },
	"stdout-flood": helperStdoutFlood,
	"stderr-flood": helperStderrFlood,
	"exit":         helperExit,
	"kill-self":    func([]string) int { _ = unix.Kill(os.Getpid(), unix.SIGKILL); time.Sleep(time.Hour); return 0 },
	"sleep":        func([]string) int { time.Sleep(time.Hour); return 0 },
	"ready":        helperReady,
	"env":          func([]string) int { fmt.Print(strings.Join(os.Environ(), "\n")); return 0 },
	"pwd":          helperPwd,
	"cat":          func([]string) int { _, _ = io.Copy(os.Stdout, os.Stdin); return 0 },
	"ignore-stdin": func([]string) int { _ = os.Stdin.Close(); return 0 },
	"spawn":        helperSpawn,
}

func runHelper(mode string, args []string) int {
	run, ok := helperModes[mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown helper mode %q\n", mode)
		return 100
	}
	return run(args)
}

func helperStdoutFlood(args []string) int {
	n, _ := strconv.Atoi(args[0])
	writeBytes(os.Stdout, n)
	return 0
}

func helperStderrFlood(args []string) int {
	n, _ := strconv.Atoi(args[0])
	writeBytes(os.Stderr, n)
	fmt.Print(args[1])
	return 0
}

func writeBytes(w io.Writer, n int) {
	chunk := []byte(strings.Repeat("x", 64<<10))
	for ; n > 0; n -= len(chunk) {
		if _, err := w.Write(chunk[:min(n, len(chunk))]); err != nil {
			return
		}
	}
}

func helperExit(args []string) int {
	code, _ := strconv.Atoi(args[0])
	fmt.Fprint(os.Stderr, args[1])
	return code
}

// helperReady tells the test through a FIFO that it is running (after
// ignoring SIGTERM if asked), then sleeps.
func helperReady(args []string) int {
	if len(args) > 1 && args[1] == "ignore-term" {
		signal.Ignore(syscall.SIGTERM)
	}
	fifo, err := os.OpenFile(args[0], os.O_WRONLY, 0)
	if err != nil {
		return 101
	}
	_, _ = fifo.WriteString("ready")
	_ = fifo.Close()
	time.Sleep(time.Hour)
	return 0
}

func helperPwd([]string) int {
	dir, err := os.Getwd()
	if err != nil {
		return 1
	}
	fmt.Print(dir)
	return 0
}

// helperSpawn starts a sleeping grandchild that holds the hook's stdout
// ("holding") or not ("detached") and prints its pid. Then it exits, or,
// given a FIFO, reports ready there and sleeps.
func helperSpawn(args []string) int {
	child := exec.Command(os.Args[0], helperArg, "sleep")
	if args[0] == "holding" {
		child.Stdout = os.Stdout
	}
	if err := child.Start(); err != nil {
		return 102
	}
	fmt.Println(child.Process.Pid)
	if len(args) > 1 {
		return helperReady(args[1:])
	}
	return 0
}

// helperSpec runs the test binary in mode with a minimal environment.
func helperSpec(t *testing.T, mode string, args ...string) Spec {
	t.Helper()
	dir := t.TempDir() // the project: writable, as for a real hook
	return Spec{
		Argv:    append([]string{testBinary(t), helperArg, mode}, args...),
		Dir:     dir,
		Env:     helperEnv("PATH=/usr/bin:/bin"),
		Timeout: testGuard,
		Sandbox: childproc.Sandbox{Write: []string{dir}},
	}
}

// helperEnv adds to env what only the test binary needs: under -race it
// would otherwise sleep a second before every exit.
func helperEnv(env ...string) []string {
	return append(env, "GORACE=atexit_sleep_ms=0")
}

func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("os.Executable: %v", err)
	}
	return exe
}

// startWhenReady runs s in the background and returns once the helper
// has reported through fifo that it is running.
func startWhenReady(t *testing.T, ctx context.Context, s Spec, fifo string) <-chan Result {
	t.Helper()
	// Opened read-write so neither side blocks in open and a read waits
	// for data rather than seeing EOF.
	reader, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open fifo: %v", err)
	}
	defer reader.Close()
	s.Sandbox.Write = append(s.Sandbox.Write, fifo) // the confined hook reports through it
	done := make(chan Result, 1)
	go func() { done <- Run(ctx, s) }()
	if err := reader.SetReadDeadline(time.Now().Add(testGuard)); err != nil {
		t.Fatalf("fifo deadline: %v", err)
	}
	buf := make([]byte, len("ready"))
	if _, err := io.ReadFull(reader, buf); err != nil {
		t.Fatalf("hook never reported ready: %v", err)
	}
	return done
}

func makeFIFO(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ready.fifo")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	return path
}

func pidFromStdout(t *testing.T, res Result) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		t.Fatalf("hook printed no pid: %q", res.Stdout)
	}
	return pid
}
