package childproc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// ExecCommand is the hidden first argument that makes any binary linking
// this package (AgentDesk, and every test binary whose tests start
// children) enforce the Landlock ruleset it is handed and exec the real
// child, as HelperName does. The check runs in this package's init, so
// before Fyne or a test's TestMain does anything.
const ExecCommand = "__sandbox-exec"

// statusFD is where the re-exec reports why the child did not start; a
// successful exec closes it. rulesetFD holds the Landlock ruleset the
// parent built: the policy is decided and turned into rules here, in the
// app, and only enforced in the re-exec.
const (
	statusFD  = 3
	rulesetFD = 4
)

// helperPath is HelperName beside this executable, or "" without one.
var helperPath = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), HelperName)
	if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return p
})

func init() {
	if len(os.Args) > 1 && os.Args[1] == ExecCommand {
		os.Exit(sandboxExec(os.Args[2:]))
	}
}

// landlockABI is the kernel's Landlock version, or why there is none.
var landlockABI = sync.OnceValues(func() (int, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0, fmt.Errorf("this kernel has no Landlock (%w)", err)
	}
	if abi < 1 {
		return 0, errors.New("this kernel has no Landlock")
	}
	return abi, nil
})

// SandboxStatus says whether children are confined, in a sentence for
// `agentdesk version` and Preferences → Advanced.
func SandboxStatus() (confined bool, text string) {
	abi, err := landlockABI()
	if err != nil {
		return false, "commands, hooks and servers run unconfined: " + err.Error()
	}
	network := "a project may turn their network off"
	if abi < 4 {
		network = "their network cannot be turned off (Landlock ABI 4 needed)"
	}
	return true, fmt.Sprintf("commands, hooks and servers are confined by Landlock (ABI %d); %s", abi, network)
}

// confinement is what one confined start holds: the child's private
// temporary folder, the pipe on which the re-exec reports a failure, and
// the program the child runs.
type confinement struct {
	tmp    string
	status *os.File
	target string
}

// confine rewrites cmd to start through the re-exec with s applied, or
// leaves it alone (nil) when s is unconfined or Landlock is missing.
func confine(cmd *exec.Cmd, s Sandbox) (*confinement, error) {
	if s.Unconfined {
		return nil, nil
	}
	if _, err := landlockABI(); err != nil {
		return nil, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	// Landlock grants only what exists, so a home without ~/.cache would
	// leave go build, pip and the like nowhere to put theirs: it is made
	// here, as any of them would make it (XDG's cache folder).
	_ = os.MkdirAll(filepath.Join(home, ".cache"), 0o700)
	tmp, err := os.MkdirTemp("", "agentdesk-child-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: private temporary folder: %w", err)
	}
	c := &confinement{tmp: tmp, target: cmd.Path}
	s, secrets := withUser(s, userFolders(), home)
	p := newPolicy(s, home, tmp, append(agentdeskPaths(), secrets...), cmd.Env)
	fd, flags, err := p.ruleset()
	if err != nil {
		c.cleanup()
		return nil, fmt.Errorf("sandbox: build the Landlock ruleset: %w", err)
	}
	ruleset := os.NewFile(uintptr(fd), "landlock-ruleset")
	r, w, err := os.Pipe()
	if err != nil {
		ruleset.Close()
		c.cleanup()
		return nil, err
	}
	c.status = r
	cmd.ExtraFiles = []*os.File{w, ruleset} // statusFD, rulesetFD
	cmd.Env = append(withoutVariable(cmd.Env, "TMPDIR"), "TMPDIR="+tmp)
	how := strconv.FormatUint(uint64(flags), 10)
	if helper := helperPath(); helper != "" {
		cmd.Args = append([]string{HelperName, how, cmd.Path}, cmd.Args...)
		cmd.Path = helper
	} else {
		cmd.Args = append([]string{"agentdesk", ExecCommand, how, cmd.Path}, cmd.Args...)
		cmd.Path = "/proc/self/exe"
	}
	return c, nil
}

// started waits until the re-exec has become the child, and returns why
// it did not.
func (c *confinement) started(cmd *exec.Cmd) error {
	if c == nil {
		return nil
	}
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	report, err := io.ReadAll(c.status)
	c.status.Close()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if len(report) == 0 {
		return nil
	}
	target := c.target
	if n, err := strconv.Atoi(strings.TrimPrefix(string(report), "errno ")); err == nil {
		return &fs.PathError{Op: "fork/exec", Path: target, Err: syscall.Errno(n)}
	}
	return fmt.Errorf("sandbox %s: %s", target, report)
}

// abort undoes confine for a child that never started.
func (c *confinement) abort(cmd *exec.Cmd) {
	if c == nil {
		return
	}
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	c.status.Close()
	c.cleanup()
}

func (c *confinement) cleanup() {
	if c != nil {
		_ = os.RemoveAll(c.tmp)
	}
}

// sandboxExec is the re-exec: args are the ruleset's flags, the program
// and its argv. It returns only if the child could not start, after
// saying why on statusFD.
func sandboxExec(args []string) int {
	status := os.NewFile(statusFD, "sandbox-status")
	unix.CloseOnExec(statusFD)
	err := restrictAndExec(args)
	var errno syscall.Errno
	if errors.As(err, &errno) {
		fmt.Fprintf(status, "errno %d", int(errno))
	} else {
		fmt.Fprint(status, err)
	}
	return 127
}

func restrictAndExec(args []string) error {
	if len(args) < 2 {
		return errors.New("no program to run")
	}
	flags, err := strconv.ParseUint(args[0], 10, 32)
	if err != nil {
		return fmt.Errorf("bad ruleset flags %s", args[0])
	}
	argv := args[2:]
	if len(argv) == 0 {
		argv = args[1:2]
	}
	// Landlock confines the calling thread; the exec must come from it.
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(rulesetFD, uint32(flags)); err != nil {
		return fmt.Errorf("apply the Landlock ruleset: %w", err)
	}
	unix.Close(rulesetFD)
	err = syscall.Exec(args[1], argv, os.Environ())
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		err = pathErr.Err
	}
	return err
}

// ruleset builds p's Landlock ruleset in this process, for a child to
// enforce (as far as the kernel's Landlock goes: an older kernel loses
// only the newer rules). Building it restricts nothing here.
func (p policy) ruleset() (fd int, flags uint32, err error) {
	abi, _ := landlockABI()
	cfg := landlock.Config{HandledAccessFS: landlock.V7.HandledAccessFS, Scoped: ll.ScopeSignal}
	if p.NoNetwork {
		cfg.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	fd, flags, err = cfg.BestEffort().NewRulesetFD(rules(p.grants(), abi)...)
	if err == nil && fd < 0 {
		err = errors.New("this kernel enforces none of the rules")
	}
	return fd, flags, err
}

// rules are g as Landlock rules: folders and files need different rights.
func rules(g grants, abi int) []landlock.Rule {
	readDirs, readFiles := splitDirs(g.Read)
	writeDirs, writeFiles := splitDirs(g.Write)
	devDirs, devFiles := splitDirs(g.Devices)
	write := landlock.RWDirs(writeDirs...)
	if abi >= 2 {
		// Moving files between folders (go build, git, npm) needs "refer";
		// asking for it on ABI 1 would drop the whole ruleset.
		write = write.WithRefer()
	}
	return []landlock.Rule{
		landlock.PathAccess(ll.AccessFSReadDir, g.List...).IgnoreIfMissing(),
		landlock.RODirs(readDirs...).IgnoreIfMissing(),
		landlock.ROFiles(readFiles...).IgnoreIfMissing(),
		write.IgnoreIfMissing(),
		landlock.RWFiles(writeFiles...).IgnoreIfMissing(),
		landlock.RWDirs(devDirs...).WithIoctlDev().IgnoreIfMissing(),
		landlock.RWFiles(devFiles...).WithIoctlDev().IgnoreIfMissing(),
	}
}

// splitDirs sorts paths into folders and everything else; a path that
// vanished since the walk is dropped.
func splitDirs(paths []string) (dirs, files []string) {
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil:
		case info.IsDir():
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
	}
	return dirs, files
}

func withoutVariable(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
