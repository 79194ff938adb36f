package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
)

// After hardenProcess the process is non-dumpable. Tests run as root
// here, and root reads every process's /proc files (even without
// CAP_SYS_PTRACE on this kernel), so a child's failed read is checked only
// when the test runs as an ordinary user; TestAgentdeskEnvironIsClosed
// checks it for the real binary under an unprivileged user either way.
func TestHardenProcessMakesItNonDumpable(t *testing.T) {
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0) })
	if err := hardenProcess(); err != nil {
		t.Fatal(err)
	}
	if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err != nil || d != 0 {
		t.Fatalf("PR_GET_DUMPABLE = %d, %v; want 0", d, err)
	}
	if os.Geteuid() == 0 {
		return
	}
	if out, err := exec.Command("cat", "/proc/"+strconv.Itoa(os.Getpid())+"/environ").Output(); err == nil {
		t.Fatalf("a child read the environment of its non-dumpable parent: %d bytes", len(out))
	}
}

// A process of the same user cannot read the environment (where provider
// keys are) of a running agentdesk. As root, both agentdesk and the
// reader run as nobody: a root reader would see everything.
func TestAgentdeskEnvironIsClosed(t *testing.T) {
	bin, cred := sharedBinary(t), unprivileged()
	cmd := exec.Command(bin, "run", "--prompt-file", "-") // waits for its prompt on stdin
	cmd.Env = []string{"AGENTDESK_HOME=" + t.TempDir(), "AGENTDESK_API_KEY=sk-secret"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	environ := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/environ"
	// Until main has run, the file is open: wait for it to close.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		read := exec.Command("cat", environ)
		read.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if err := read.Run(); err != nil {
			if childproctest.Gone(cmd.Process.Pid) {
				t.Fatal("agentdesk ended before its prompt came: the test shows nothing")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s stays readable by a process of the same user", environ)
		}
	}
}

// unprivileged is the nobody user when the test runs as root, else nil
// (the test's own user).
func unprivileged() *syscall.Credential {
	if os.Geteuid() != 0 {
		return nil
	}
	return &syscall.Credential{Uid: 65534, Gid: 65534, NoSetGroups: true}
}

// sharedBinary is a copy of the agentdesk binary that any user may run.
func sharedBinary(t *testing.T) string {
	dir, err := os.MkdirTemp("", "agentdesk-shared")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(agentdeskBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(dir, "agentdesk")
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
