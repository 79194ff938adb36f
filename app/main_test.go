package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/agentdesk/agentdesk/agent/childproc"
)

func TestVersionMatchesFyneAppToml(t *testing.T) {
	toml, err := os.ReadFile(filepath.Join("..", "FyneApp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Version = "([^"]+)"`).FindSubmatch(toml)
	if m == nil || string(m[1]) != version {
		t.Fatalf("FyneApp.toml version %q, app version %q: keep them equal", m, version)
	}
}

func TestHelpAndVersionAndUnknownCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	_, sandbox := childproc.SandboxStatus()
	if code := run([]string{"version"}, nil, &out, &errOut); code != 0 || out.String() != "agentdesk "+version+"\nsandbox: "+sandbox+"\n" {
		t.Fatalf("version: %d %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"help"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "agentdesk ext install URL") {
		t.Fatalf("help: %d %q", code, out.String())
	}
	if code := run([]string{"frobnicate"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown command") {
		t.Fatalf("unknown: %d %q", code, errOut.String())
	}
}

func TestParseArgs(t *testing.T) {
	a, err := parseArgs([]string{"https://x/y.git", "--ref", "v1", "--json", "--x=1"}, []string{"ref", "x"}, []string{"json"})
	if err != nil || a.pos[0] != "https://x/y.git" || a.vals["ref"] != "v1" || a.vals["x"] != "1" || !a.bools["json"] {
		t.Fatalf("%+v %v", a, err)
	}
	if _, err := parseArgs([]string{"--ref"}, []string{"ref"}, nil); err == nil {
		t.Error("a flag without its value must fail")
	}
	if _, err := parseArgs([]string{"--nope"}, nil, nil); err == nil || !strings.Contains(err.Error(), "--nope") {
		t.Errorf("unknown flag: %v", err)
	}
	a, _ = parseArgs([]string{"--", "--not-a-flag"}, nil, nil)
	if a.pos[0] != "--not-a-flag" {
		t.Errorf("-- must end flags: %+v", a)
	}
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// buildEnv is the environment the test binary started with: the build
// must not follow a test's planted HOME (it would find an empty module
// and build cache there).
var buildEnv = os.Environ()

// agentdeskBinary builds the real binary once per test run.
func agentdeskBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentdesk-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "agentdesk")
		build := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", binPath, ".")
		build.Env = buildEnv
		out, err := build.CombinedOutput()
		if err == nil { // the sandbox's re-exec beside it, as `make build` and the package put it
			out, err = exec.Command("cc", "-O2", "-static", "-o", filepath.Join(dir, childproc.HelperName),
				filepath.Join("..", "agent", "childproc", "sandboxexec", "sandbox-exec.c")).CombinedOutput()
		}
		if err != nil {
			buildErr = err
			binPath = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build agentdesk: %v\n%s", buildErr, binPath)
	}
	return binPath
}
