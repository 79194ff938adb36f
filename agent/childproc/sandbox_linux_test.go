package childproc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
)

// spawnVariable makes the test binary a stand-in for AgentDesk that
// starts `sleep` through Start, writes its pid into the named folder and
// waits to be killed.
const spawnVariable = "CHILDPROC_TEST_SPAWN"

func TestMain(m *testing.M) {
	if dir := os.Getenv(spawnVariable); dir != "" {
		os.Exit(spawnAndWait(dir))
	}
	code := m.Run()
	if builtHelper.path != "" {
		os.RemoveAll(filepath.Dir(builtHelper.path))
	}
	os.Exit(code)
}

func spawnAndWait(dir string) int {
	p, err := Start(context.Background(), Spec{Path: "/bin/sleep", Args: []string{"sleep", "1000"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(fmt.Sprint(p.Pid())), 0o600); err != nil {
		return 1
	}
	time.Sleep(time.Hour)
	return 0
}

// eachStarter runs test once with children started through the re-exec
// of this binary and once through HelperName, compiled from its source
// with the system's C compiler (the one cgo uses).
func eachStarter(t *testing.T, test func(t *testing.T)) {
	t.Run("re-exec", func(t *testing.T) {
		useHelper(t, "")
		test(t)
	})
	t.Run("helper", func(t *testing.T) {
		useHelper(t, buildHelper(t))
		test(t)
	})
}

// useHelper makes confined starts go through helper ("": the re-exec).
func useHelper(t *testing.T, helper string) {
	old := helperPath
	helperPath = func() string { return helper }
	t.Cleanup(func() { helperPath = old })
}

var builtHelper = struct {
	once sync.Once
	path string
	err  error
}{}

// buildHelper compiles sandboxexec/sandbox-exec.c once per test run.
func buildHelper(t testing.TB) string {
	t.Helper()
	builtHelper.once.Do(func() {
		dir, err := os.MkdirTemp("", "agentdesk-helper-")
		if err != nil {
			builtHelper.err = err
			return
		}
		builtHelper.path = filepath.Join(dir, HelperName)
		out, err := exec.Command("cc", "-O2", "-static", "-Wall", "-Wextra", "-Werror", "-o", builtHelper.path,
			filepath.Join("sandboxexec", "sandbox-exec.c")).CombinedOutput()
		if err != nil {
			builtHelper.err = fmt.Errorf("cc: %v: %s", err, out)
		}
	})
	if builtHelper.err != nil {
		t.Fatal(builtHelper.err)
	}
	return builtHelper.path
}

func requireLandlock(t *testing.T) {
	t.Helper()
	if confined, why := SandboxStatus(); !confined {
		t.Skip(why)
	}
}

// plantedHome is a fake home folder outside the system's temporary
// folder where it can be (the children's private TMPDIR lies there), with
// a key, AgentDesk's database and a project. HOME and AGENTDESK_HOME
// point at it for the test.
func plantedHome(t *testing.T) (home, project string) {
	t.Helper()
	home = childproctest.PlantHome(t, map[string]string{
		".ssh/id_ed25519": "PRIVATE KEY BYTES", ".local/share/agentdesk/agentdesk.db": "SQLite format 3",
		".bashrc": "# rc", "project/main.go": "package main",
	})
	t.Setenv("AGENTDESK_HOME", filepath.Join(home, ".local/share/agentdesk"))
	return home, filepath.Join(home, "project")
}

// runConfined runs script with bash under s and returns its combined
// output and exit code.
func runConfined(t *testing.T, dir string, s Sandbox, script string, env ...string) (string, int) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	out := NewHead(64 << 10)
	p, err := Start(context.Background(), Spec{Path: bash, Args: []string{"bash", "-c", script}, Dir: dir,
		Env: append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...), Stdout: out, Stderr: out, Sandbox: s})
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Wait()
	p.Stop()
	return string(out.Bytes()), p.State().ExitCode()
}

func TestSandboxWithholdsSecretsAndTheHome(t *testing.T) {
	requireLandlock(t)
	eachStarter(t, testSandboxWithholdsSecretsAndTheHome)
}

func testSandboxWithholdsSecretsAndTheHome(t *testing.T) {
	home, project := plantedHome(t)
	s := Sandbox{Write: []string{project}}
	for _, c := range []struct {
		name, script string
		ok           bool
	}{
		{"read the key", "cat ~/.ssh/id_ed25519", false},
		{"read the key through a link", "ln -s ~/.ssh/id_ed25519 k && cat k", false},
		{"list the home and /", "ls ~ / >/dev/null", true},
		{"read AgentDesk's database", "cat $AGENTDESK_DB", false},
		{"write into the home", "echo x > ~/planted", false},
		{"change a home file", "echo x >> ~/.bashrc", false},
		{"read a home file", "cat ~/.bashrc", true},
		{"read the system", "cat /etc/hostname /etc/passwd >/dev/null", true},
		{"write the project", "echo x > new.txt && mkdir d && mv new.txt d/ && rm -r d", true},
		{"write the private TMPDIR", `echo x > "$TMPDIR/t" && cat "$TMPDIR/t"`, true},
		{"write a device", "echo x > /dev/null", true},
		{"write /tmp outside TMPDIR", "echo x > /tmp/agentdesk-sandbox-probe-$$", false},
		{"write a cache in a home that had none", "mkdir -p ~/.cache/tool && echo x > ~/.cache/tool/f", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, code := runConfined(t, project, s, "AGENTDESK_DB="+filepath.Join(home, ".local/share/agentdesk/agentdesk.db")+"; "+c.script)
			if (code == 0) != c.ok {
				t.Errorf("exit %d, want success %v: %s", code, c.ok, out)
			}
			if strings.Contains(out, "PRIVATE KEY") || strings.Contains(out, "SQLite") {
				t.Errorf("a secret reached the output: %s", out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(home, "planted")); err == nil {
		t.Error("the child wrote into the home")
	}
}

func TestUnconfinedReadsTheKey(t *testing.T) {
	_, project := plantedHome(t)
	out, code := runConfined(t, project, Sandbox{Unconfined: true}, "cat ~/.ssh/id_ed25519")
	if code != 0 || !strings.Contains(out, "PRIVATE KEY") {
		t.Errorf("exit %d: %s", code, out)
	}
}

// Toolchains run confined: Go (version and a build), npm and Python
// start, read their installation and write only where they may.
func TestToolchainsRunConfined(t *testing.T) {
	requireLandlock(t)
	// go build writes the build cache its environment names (here the
	// real one: a cold cache would rebuild the standard library).
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	_, project := plantedHome(t)
	for _, c := range []struct{ prog, script string }{
		{"go", "go version"},
		{"go", `printf 'module m\ngo 1.22\n' > go.mod && printf 'package main\nfunc main() { println("built") }\n' > main.go && go build -o m . && ./m`},
		{"npm", "npm --version"},
		{"python3", "python3 -c 'import tempfile; tempfile.mkstemp(); print(1)'"},
	} {
		if _, err := exec.LookPath(c.prog); err != nil {
			t.Logf("%s is not installed", c.prog)
			continue
		}
		out, code := runConfined(t, project, Sandbox{Write: []string{project}}, c.script,
			"GOCACHE="+strings.TrimSpace(string(gocache)), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", c.script, code, out)
		}
	}
}

func TestNoNetworkBlocksALoopbackConnect(t *testing.T) {
	requireLandlock(t)
	if abi, _ := landlockABI(); abi < 4 {
		t.Skip("Landlock ABI 4 is needed for network rules")
	}
	_, project := plantedHome(t)
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	connect := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d", l.Addr().(*net.TCPAddr).Port)
	if out, code := runConfined(t, project, Sandbox{}, connect); code != 0 {
		t.Fatalf("the network is on by default, but the connect failed: %s", out)
	}
	if out, code := runConfined(t, project, Sandbox{NoNetwork: true}, connect); code == 0 {
		t.Fatalf("the connect succeeded with the network off: %s", out)
	}
}

// A program that cannot be executed fails Start as os/exec would say it.
func TestConfinedStartFailureIsAnError(t *testing.T) {
	requireLandlock(t)
	eachStarter(t, func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "missing")
		_, err := Start(context.Background(), Spec{Path: missing})
		var pathErr *fs.PathError
		if !errors.As(err, &pathErr) || !errors.Is(err, syscall.ENOENT) || pathErr.Path != missing {
			t.Fatalf("Start = %v, want a not-found path error for %s", err, missing)
		}
	})
}

// The child sees neither the status pipe nor the ruleset, and its TMPDIR is private and gone
// once it was stopped.
func TestPolicyStaysWithTheReExec(t *testing.T) {
	requireLandlock(t)
	eachStarter(t, testPolicyStaysWithTheReExec)
}

func testPolicyStaysWithTheReExec(t *testing.T) {
	_, project := plantedHome(t)
	out, _ := runConfined(t, project, Sandbox{}, `env | grep -c AGENTDESK_SANDBOX; for f in 3 4; do [ -e /proc/$$/fd/$f ] && echo "fd $f"; done; echo "tmp=$TMPDIR"`)
	tmp := strings.TrimSpace(out[strings.Index(out, "tmp=")+4:])
	if !strings.HasPrefix(out, "0\ntmp=") || tmp == "" {
		t.Fatalf("the child saw a sandbox variable, holds the status pipe or the ruleset, or has no TMPDIR: %s", out)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the private TMPDIR %s is left behind (%v)", tmp, err)
	}
}

// A child dies with the app, even when the app is killed (issue 32).
func TestChildDiesWithTheApp(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stderr := NewHead(4 << 10)
	app, err := Start(context.Background(), Spec{Path: exe, Env: []string{spawnVariable + "=" + dir, "HOME=" + t.TempDir()},
		Stderr: stderr, Sandbox: Sandbox{Write: []string{dir}}})
	if err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, dir, stderr)
	killOnCleanup(t, pid)
	if err := syscall.Kill(app.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = app.Wait()
	app.Stop()
	childproctest.WaitGone(t, pid)
}
