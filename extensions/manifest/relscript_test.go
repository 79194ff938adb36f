package manifest

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/hookrun"
)

func TestScriptTokens(t *testing.T) {
	tests := []struct {
		argv []string
		want []int
	}{
		{[]string{"python3", "hooks/h.py"}, []int{1}},
		{[]string{"python3", "-u", "h.py", "x"}, []int{2}},
		{[]string{"/usr/bin/node", "server/index.js"}, []int{1}},
		{[]string{"./run.sh", "arg"}, []int{0}},
		{[]string{"bash", "-c", "echo hi"}, nil},
		{[]string{"python3", "-m", "pkg"}, nil},
		{[]string{"python3", "${CLAUDE_PLUGIN_ROOT}/h.py"}, nil},
		{[]string{"python3", "/opt/h.py"}, nil},
		{[]string{"jq", "file.json"}, nil},
		{[]string{"echo", "hi"}, nil},
	}
	for _, tt := range tests {
		if got := scriptTokens(tt.argv); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("scriptTokens(%q) = %v, want %v", tt.argv, got, tt.want)
		}
	}
}

func hookPlugin(command string, files map[string]string) map[string]string {
	out := map[string]string{
		".claude-plugin/plugin.json": `{"name": "rel"}`,
		"hooks/hooks.json":           `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "` + command + `"}]}]}}`,
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

// TestRelativeHookScriptRunsThePackagesFile: the attack. The project has
// a planted hooks/h.sh; the plugin's "sh hooks/h.sh" runs the package's.
func TestRelativeHookScriptRunsThePackagesFile(t *testing.T) {
	pkgDir := writeTree(t, t.TempDir(), hookPlugin("sh hooks/h.sh", map[string]string{"hooks/h.sh": "echo package\n"}))
	project := writeTree(t, t.TempDir(), map[string]string{"hooks/h.sh": "echo PLANTED-IN-PROJECT\n"})
	pkg := mustLoad(t, pkgDir)
	if len(pkg.Hooks) != 1 {
		t.Fatalf("hooks = %+v", pkg.Hooks)
	}
	h := pkg.Hooks[0]
	if want := []string{"sh", "${CLAUDE_PLUGIN_ROOT}/hooks/h.sh"}; !reflect.DeepEqual(h.Argv, want) {
		t.Fatalf("argv = %q, want %q", h.Argv, want)
	}
	if !reflect.DeepEqual(h.Files, []string{"hooks/h.sh"}) {
		t.Errorf("the script is not stamped for the tamper check: %v", h.Files)
	}
	argv := ExpandArgv(h.Argv, Vars{PluginRoot: pkgDir, ProjectDir: project})
	res := hookrun.Run(context.Background(), hookrun.Spec{Argv: argv, Dir: project,
		Env: hookrun.Environ(hookrun.EnvInput{HookPATH: "/usr/bin:/bin", PluginRoot: pkgDir, ProjectDir: project})})
	if res.Err != nil || strings.TrimSpace(string(res.Stdout)) != "package" {
		t.Fatalf("the hook ran %q (%v), want the package's script", res.Stdout, res.Err)
	}
}

func TestRelativeScriptMissingFromThePackageIsRefused(t *testing.T) {
	_, err := Load(writeTree(t, t.TempDir(), hookPlugin("python3 hooks/h.py", nil)))
	if err == nil || !strings.Contains(err.Error(), "${CLAUDE_PLUGIN_ROOT}/hooks/h.py") {
		t.Fatalf("Load = %v, want a refusal naming ${CLAUDE_PLUGIN_ROOT}/hooks/h.py", err)
	}
}

func mcpPlugin(decl string, files map[string]string) map[string]string {
	out := map[string]string{
		".claude-plugin/plugin.json": `{"name": "rel", "mcpServers": {"srv": ` + decl + `}}`,
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

// TestMCPCwdMustBeInsideThePackage: the attack. A server declared as
// "python3 server/srv.py" with cwd outside the package ran a file planted
// there; now cwd must be the package or the project, and the script is
// the package's.
func TestMCPCwdMustBeInsideThePackage(t *testing.T) {
	planted := writeTree(t, t.TempDir(), map[string]string{"server/srv.py": "print('planted')\n"})
	files := map[string]string{"server/srv.py": "print('package')\n", "sub/server/srv.py": "print('sub')\n"}
	tests := []struct {
		name, cwd, wantArg, wantProblem string
	}{
		{"outside", planted, "", "must be inside the package"},
		{"home", "${HOME}/x", "", "must be inside the package"},
		{"leaves", "../x", "", "cwd"},
		{"none", "", "${CLAUDE_PLUGIN_ROOT}/server/srv.py", ""},
		{"package folder", "sub", "${CLAUDE_PLUGIN_ROOT}/sub/server/srv.py", ""},
		{"plugin root var", "${CLAUDE_PLUGIN_ROOT}/sub", "${CLAUDE_PLUGIN_ROOT}/sub/server/srv.py", ""},
		{"project", "${CLAUDE_PROJECT_DIR}", "${CLAUDE_PLUGIN_ROOT}/server/srv.py", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decl := `{"command": "python3", "args": ["server/srv.py"], "cwd": "` + tt.cwd + `"}`
			pkg := mustLoad(t, writeTree(t, t.TempDir(), mcpPlugin(decl, files)))
			if len(pkg.MCPServers) != 1 {
				t.Fatalf("servers = %+v", pkg.MCPServers)
			}
			s := pkg.MCPServers[0]
			if tt.wantProblem != "" {
				if !strings.Contains(s.Inactive, tt.wantProblem) {
					t.Fatalf("cwd %q: inactive = %q, want %q", tt.cwd, s.Inactive, tt.wantProblem)
				}
				return
			}
			if s.Inactive != "" || len(s.Args) != 1 || s.Args[0] != tt.wantArg {
				t.Fatalf("cwd %q: args %q, inactive %q; want %q", tt.cwd, s.Args, s.Inactive, tt.wantArg)
			}
			if _, err := os.Stat(filepath.Join(planted, "server/srv.py")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A relative program path was listed as "will run" at trust and then
// always failed (hooks resolve it against the project); it now names the
// package's program, or is refused at install.
func TestRelativeProgramIsThePackages(t *testing.T) {
	pkg := mustLoad(t, writeTree(t, t.TempDir(), hookPlugin("./bin/h.sh go", map[string]string{"bin/h.sh*": "#!/bin/sh\necho hi\n"})))
	if got := pkg.Hooks[0].Argv; len(got) != 2 || got[0] != "${CLAUDE_PLUGIN_ROOT}/bin/h.sh" || pkg.Hooks[0].Inactive != "" {
		t.Fatalf("argv %q, inactive %q", got, pkg.Hooks[0].Inactive)
	}
	if _, err := Load(writeTree(t, t.TempDir(), hookPlugin("./bin/missing.sh", nil))); err == nil {
		t.Fatal("a relative program missing from the package was accepted")
	}
}
