package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// cli runs the real binary in a temp AGENTDESK_HOME.
type cli struct {
	t    *testing.T
	bin  string
	home string
	env  []string
}

func newCLI(t *testing.T, extraEnv ...string) *cli {
	home := t.TempDir()
	fakeHome := filepath.Join(home, "fakehome")
	os.MkdirAll(fakeHome, 0o700)
	env := []string{"AGENTDESK_HOME=" + home, "HOME=" + fakeHome, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	return &cli{t: t, bin: agentdeskBinary(t), home: home, env: append(env, extraEnv...)}
}

func (c *cli) run(stdin string, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.Command(c.bin, args...)
	cmd.Env = c.env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

func (c *cli) ok(args ...string) string {
	c.t.Helper()
	out, errOut, code := c.run("", args...)
	if code != 0 {
		c.t.Fatalf("agentdesk %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

func (c *cli) show(id string) extensions.Info {
	c.t.Helper()
	var info extensions.Info
	if err := json.Unmarshal([]byte(c.ok("ext", "show", id, "--json")), &info); err != nil {
		c.t.Fatal(err)
	}
	return info
}

func fixture(t *testing.T) map[string]gittest.File {
	files := map[string]gittest.File{}
	root := filepath.Join("..", "extensions", "testdata", "fixture")
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		body, _ := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		mode := os.FileMode(0o644)
		if info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		files[filepath.ToSlash(rel)] = gittest.File{Body: string(body), Mode: mode}
		return nil
	})
	return files
}

func TestExtCommandLineLifecycle(t *testing.T) {
	r := gittest.NewRepo(t)
	first := r.Commit(t, "main", "v1", fixture(t))
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"fixture": r})
	c := newCLI(t, "SSL_CERT_FILE="+srv.CAFile)
	url := srv.URL + "/fixture.git"

	out := c.ok("ext", "install", url)
	if !strings.Contains(out, "installed fixture 1.0.0 at "+first+" (disabled)") || !strings.Contains(out, "mcp server never: true — not started") {
		t.Fatalf("install output:\n%s", out)
	}
	if _, errOut, code := c.run("", "ext", "install", url); code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "already installed") {
		t.Fatalf("duplicate install: exit %d, %q (want a one-line reason)", code, errOut)
	}
	if out := c.ok("ext", "list"); !strings.Contains(out, "fixture") || !strings.Contains(out, "disabled") {
		t.Fatalf("list:\n%s", out)
	}

	// Enabling asks; "n" refuses, "y" trusts the printed argv.
	out, _, code := c.run("n\n", "ext", "enable", "fixture")
	if code == 0 || !strings.Contains(out, "${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh SessionStart") || !strings.Contains(out, extensions.TrustWarning) ||
		!strings.Contains(out, "will start these MCP servers") || !strings.Contains(out, "  never: true\n") {
		t.Fatalf("enable refused: exit %d\n%s", code, out)
	}
	if c.show("fixture").Status != extensions.StatusDisabled {
		t.Fatal("refusing the prompt enabled it")
	}
	out, _, code = c.run("y\n", "ext", "enable", "fixture")
	if code != 0 || !strings.Contains(out, "enabled fixture (6 hooks, 1 MCP server, 1 skill)") {
		t.Fatalf("enable: %d %s", code, out)
	}

	// JSON fields are the documented, stable ones.
	var raw map[string]any
	json.Unmarshal([]byte(c.ok("ext", "show", "fixture", "--json")), &raw)
	for _, k := range []string{"id", "name", "version", "description", "source_url", "requested_ref", "commit", "previous_commit", "enabled", "status", "hooks", "skills", "diagnostics", "last_error", "mcp_servers", "lsp_servers"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("--json lacks %q", k)
		}
	}
	if sv := raw["mcp_servers"].([]any)[0].(map[string]any); sv["name"] != "never" || sv["state"] != extensions.MCPNotStarted {
		t.Errorf("mcp_servers JSON: %v", sv)
	}
	hook := raw["hooks"].([]any)[0].(map[string]any)
	for _, k := range []string{"event", "matcher", "argv", "timeout_s"} {
		if _, ok := hook[k]; !ok {
			t.Errorf("hook JSON lacks %q", k)
		}
	}

	files := fixture(t)
	files["hooks/hooks.json"] = gittest.File{Body: strings.Replace(files["hooks/hooks.json"].Body, `"timeout": 5`, `"timeout": 7`, 1)}
	second := r.Commit(t, "main", "v2", files)
	if out := c.ok("ext", "check"); !strings.Contains(out, "update available (agentdesk ext update fixture)") ||
		!strings.Contains(out, extensions.ShortCommit(first)) || !strings.Contains(out, extensions.ShortCommit(second)) {
		t.Fatalf("check after a push:\n%s", out)
	}
	if info := c.show("fixture"); info.Commit != first {
		t.Fatal("check installed something")
	}
	if _, errOut, code := c.run("", "ext", "check", "fixture", "nope"); code == 0 || !strings.Contains(errOut, "1 of 2 checks failed") {
		t.Fatalf("check of a missing extension: exit %d, %q", code, errOut)
	}
	out = c.ok("ext", "update", "fixture")
	if !strings.Contains(out, "updated fixture") || !strings.Contains(out, "~ SessionStart") || !strings.Contains(out, "paused until you review") {
		t.Fatalf("update:\n%s", out)
	}
	if info := c.show("fixture"); info.Status != extensions.StatusNeedsReview || info.Commit != second {
		t.Fatalf("after update: %s %s", info.Status, info.Commit)
	}
	if out := c.ok("ext", "update", "fixture"); !strings.Contains(out, "already up to date") {
		t.Fatalf("second update:\n%s", out)
	}
	var checks []map[string]any
	json.Unmarshal([]byte(c.ok("ext", "check", "--json")), &checks)
	if len(checks) != 1 || checks[0]["available"] != false || checks[0]["latest"] != second {
		t.Fatalf("check --json after updating: %v", checks)
	}
	if out := c.ok("ext", "rollback", "fixture"); !strings.Contains(out, "rolled back fixture") || !strings.Contains(out, "enabled") {
		t.Fatalf("rollback:\n%s", out)
	}
	if _, errOut, code := c.run("n\n", "ext", "uninstall", "fixture"); code == 0 || !strings.Contains(errOut, "not uninstalled") {
		t.Fatalf("refused uninstall: %d %s", code, errOut)
	}
	c.ok("ext", "uninstall", "fixture", "--yes")
	if _, errOut, code := c.run("", "ext", "show", "fixture"); code == 0 || !strings.Contains(errOut, "is not installed") {
		t.Fatalf("show after uninstall: %d %s", code, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(c.home, "extensions", "store")); len(entries) != 0 {
		t.Fatalf("store not empty: %v", entries)
	}
}

func TestExtErrorsAreOneLine(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{
		{"ext", "install", "http://example.com/x.git"},
		{"ext", "install", "https://127.0.0.1:1/nothing.git"},
		{"ext", "enable", "ghost"},
		{"ext", "frob"},
		{"ext", "install"},
	} {
		_, errOut, code := c.run("", args...)
		if code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") > 0 || !strings.HasPrefix(errOut, "agentdesk") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestRunStreamsAndResumes(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "Hello from the fake model."}, llmtest.Reply{Text: "Second answer."})
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=llmtest-model", "AGENTDESK_API_KEY=k")
	project := t.TempDir()
	out, errOut, code := c.run("", "run", "--project", project, "say hello")
	if code != 0 || out != "Hello from the fake model.\n" {
		t.Fatalf("run: exit %d\nstdout %q\nstderr %s", code, out, errOut)
	}
	id := strings.Fields(strings.TrimPrefix(errOut[strings.LastIndex(errOut, "session "):], "session "))[0]
	out, _, code = c.run("", "run", "--session", id, "and again")
	if code != 0 || out != "Second answer.\n" {
		t.Fatalf("resume: %d %q", code, out)
	}
	if got := server.Requests()[1].Roles(); strings.Join(got, ",") != "user,assistant,user" {
		t.Fatalf("resumed request roles = %v", got)
	}
	var list struct {
		Sessions []struct{ ID, Title string }
	}
	json.Unmarshal([]byte(c.ok("sessions", "--project", project, "--json")), &list)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != id || list.Sessions[0].Title != "say hello" {
		t.Fatalf("sessions = %+v", list)
	}
}

func TestRunAsksBeforeCommandsAndHonoursApprove(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	cmd := llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"touch made.txt"}`}}}
	server.Push(cmd, llmtest.Reply{Text: "done"}, cmd, llmtest.Reply{Text: "done"})
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m")
	project := t.TempDir()
	_, errOut, _ := c.run("n\n", "run", "--project", project, "make it")
	if !strings.Contains(errOut, "touch made.txt") || !strings.Contains(errOut, "Allow?") {
		t.Fatalf("no approval prompt:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(project, "made.txt")); err == nil {
		t.Fatal("the command ran although denied")
	}
	c.run("", "run", "--project", project, "--approve", "all", "make it")
	if _, err := os.Stat(filepath.Join(project, "made.txt")); err != nil {
		t.Fatal("--approve all did not run the command")
	}
}

func TestHostCommandFromCommandLine(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m")
	project := t.TempDir()
	_, errOut, _ := c.run("", "run", "--project", project, "hi")
	id := strings.Fields(errOut[strings.LastIndex(errOut, "session ")+8:])[0]
	server.Push(llmtest.Reply{Text: "SUMMARY of hi"})
	_, errOut, code := c.run("", "run", "--session", id, "/compact")
	if code != 0 || !strings.Contains(errOut, "Compacted") {
		t.Fatalf("/compact: %d\n%s", code, errOut)
	}
}

func TestPreferencesSectionMustExist(t *testing.T) {
	c := newCLI(t)
	_, stderr, code := c.run("", "--preferences", "colours")
	if code != 2 || !strings.Contains(stderr, `no Preferences section "colours"`) || !strings.Contains(stderr, "Providers, Approvals, Agent Extensions, Skills, Agents, Advanced") {
		t.Fatalf("exit %d, stderr %q: want a usage error naming the sections", code, stderr)
	}
}

// A prefill longer than the first-byte deadline succeeds while the server
// sends ds4-server's ": prefill" keepalives (the clock shortened through
// the environment: 600 ms stand for the default minutes).
func TestRunSurvivesALongPrefillWithKeepalives(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "Prefilled.", Keepalives: 15, KeepaliveEvery: 100 * time.Millisecond})
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m",
		"AGENTDESK_FIRST_BYTE_TIMEOUT=600ms", "AGENTDESK_IDLE_TIMEOUT=600ms")
	out, errOut, code := c.run("", "run", "--project", t.TempDir(), "a long prompt")
	if code != 0 || out != "Prefilled.\n" {
		t.Fatalf("run: exit %d\nstdout %q\nstderr %s", code, out, errOut)
	}
}

func TestRunReportsTruncatedAndFailedAnswers(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "half a", Finish: "length"}, llmtest.Reply{Text: "half b", Finish: "error"})
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m")
	out, errOut, code := c.run("", "run", "--project", t.TempDir(), "long")
	if code != 0 || !strings.Contains(out, "half a") || !strings.Contains(errOut, "truncated") {
		t.Fatalf("truncated: exit %d\nstdout %q\nstderr %s", code, out, errOut)
	}
	_, errOut, code = c.run("", "run", "--project", t.TempDir(), "again")
	if code == 0 || !strings.Contains(errOut, "failed while writing the answer") {
		t.Fatalf("finish_reason error: exit %d\nstderr %s", code, errOut)
	}
}

func TestExtInstallFromAMarketplace(t *testing.T) {
	market := gittest.NewRepo(t)
	files := map[string]gittest.File{
		".claude-plugin/marketplace.json": {Body: `{"name":"tools","plugins":[
			{"name":"fixture","description":"The fixture plugin","version":"1.0.0","source":"./plugins/fixture"},
			{"name":"other","description":"Another one","source":"./plugins/other"},
			{"name":"third","source":"./plugins/third"}]}`},
	}
	for name, f := range fixture(t) {
		files["plugins/fixture/"+name] = f
	}
	files["plugins/other/.claude-plugin/plugin.json"] = gittest.File{Body: `{"name":"other","version":"0.1.0"}`}
	files["plugins/third/.claude-plugin/plugin.json"] = gittest.File{Body: `{"name":"third","version":"3.0.0"}`}
	market.Commit(t, "main", "m", files)
	market.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"market": market})
	c := newCLI(t, "SSL_CERT_FILE="+srv.CAFile)
	url := srv.URL + "/market.git"

	out, errOut, code := c.run("", "ext", "install", url)
	if code != 2 || !strings.Contains(out, "fixture") || !strings.Contains(out, "The fixture plugin") || !strings.Contains(out, "other") ||
		strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "--plugin NAME") {
		t.Fatalf("install of a marketplace without --plugin: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	out = c.ok("ext", "install", url, "--plugin", "fixture", "--plugin", "other")
	if !strings.Contains(out, "installed fixture 1.0.0") || !strings.Contains(out, "installed other 0.1.0") {
		t.Fatalf("install --plugin ×2:\n%s", out)
	}
	// One that cannot be installed is named, the others go on, exit 1.
	out, errOut, code = c.run("", "ext", "install", url, "--plugin", "nope", "--plugin", "third", "--plugin", "other")
	if code != 1 || !strings.Contains(out, `failed nope: the marketplace lists no plugin "nope"`) || !strings.Contains(out, "installed third 3.0.0") ||
		!strings.Contains(out, "failed other:") || !strings.Contains(out, "1 installed, 2 failed: nope, other") ||
		!strings.Contains(errOut, "1 installed, 2 failed") {
		t.Fatalf("install with failures: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if info := c.show("fixture"); info.Plugin != "fixture" || info.SourceURL != url || info.PluginSource != "./plugins/fixture" {
		t.Fatalf("ext show: %+v", info)
	}
}

func TestExtEnableAsksForSettingsAndKeepsSecretsOut(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"opts","userConfig":{
			"api_token":{"title":"API token","sensitive":true,"required":true},
			"region":{"title":"Region","default":"eu"}}}`},
		"hooks/hooks.json": {Body: `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/s.sh ${user_config.region}"}]}]}}`},
		"hooks/s.sh":       {Body: "#!/bin/sh\necho hi\n", Mode: 0o755},
	}
	c, url := cliWithRepo(t, "opts", files)
	c.ok("ext", "install", url)

	// --yes never waits: the required token is missing, so it stays inactive.
	out := c.ok("ext", "enable", "opts", "--yes")
	if !strings.Contains(out, "but inactive: needs a value for api_token") {
		t.Fatalf("enable --yes without the token:\n%s", out)
	}
	// Asked on the terminal: the token, then Enter keeps the region default.
	out, errOut, code := c.run("y\ns3cr3t-token\n", "ext", "enable", "opts")
	if code != 0 || strings.Contains(out, "inactive") || !strings.Contains(errOut, "API token") {
		t.Fatalf("enable, asked: exit %d\n%s\n%s", code, out, errOut)
	}
	show := c.ok("ext", "show", "opts")
	if !strings.Contains(show, "setting api_token (API token) = (sensitive, set)") || !strings.Contains(show, "setting region (Region) = eu") ||
		strings.Contains(show, "s3cr3t-token") {
		t.Fatalf("ext show:\n%s", show)
	}
	c.ok("ext", "enable", "opts", "--yes", "--config", "region=us")
	if show := c.ok("ext", "show", "opts", "--json"); !strings.Contains(show, `"value": "us"`) || strings.Contains(show, "s3cr3t") {
		t.Fatalf("ext show --json:\n%s", show)
	}
}

func TestExtShowNamesSkillConflicts(t *testing.T) {
	c, url := cliWithRepo(t, "fixture", fixture(t))
	own := filepath.Join(c.home, "fakehome", ".agents", "skills", "fixture-skill")
	os.MkdirAll(own, 0o755)
	os.WriteFile(filepath.Join(own, "SKILL.md"), []byte("---\nname: fixture-skill\ndescription: mine\n---\n"), 0o644)
	c.ok("ext", "install", url)
	c.ok("ext", "enable", "fixture", "--yes")
	if out := c.ok("ext", "show", "fixture"); !strings.Contains(out, `skill "fixture-skill" conflicts with user, which wins`) {
		t.Fatalf("ext show does not name the conflict:\n%s", out)
	}
}

// run_command (and so the model) never sees a credential of the app's
// environment; ordinary variables stay.
func TestRunCommandGetsNoCredentials(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"env"}`}}}, llmtest.Reply{Text: "done"})
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m", "AGENTDESK_API_KEY=k-agentdesk",
		"OPENAI_API_KEY=sk-leak-1", "GITHUB_TOKEN=ghp-leak-2", "AWS_SECRET_ACCESS_KEY=leak-3", "DB_PASSWORD=leak-4", "JAVA_HOME=/opt/jdk-kept")
	if _, errOut, code := c.run("", "run", "--project", t.TempDir(), "--approve", "all", "show env"); code != 0 {
		t.Fatalf("run: %d\n%s", code, errOut)
	}
	results := strings.Join(server.Requests()[1].Messages[len(server.Requests()[1].Messages)-1].ToolResults, "\n")
	if !strings.Contains(results, "JAVA_HOME=/opt/jdk-kept") {
		t.Fatalf("the command's environment lost ordinary variables:\n%s", results)
	}
	for _, leak := range []string{"k-agentdesk", "sk-leak-1", "ghp-leak-2", "leak-3", "leak-4"} {
		if strings.Contains(results, leak) {
			t.Errorf("%s reached run_command", leak)
		}
	}
}

// A package's text cannot drive the terminal: escape sequences in its
// description are removed, and a bidi override in a hook command, which
// the trust prompt must show exactly, is made visible.
func TestExtOutputIsSafeForTheTerminal(t *testing.T) {
	files := map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name":"evil","version":"1.0\u001b[2J","description":"nice\u001b]0;pwned\u0007 plugin\u001b[1A\u001b[2K"}`},
		"hooks/hooks.json":           {Body: `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/s.sh \u202eexe.sj"}]}]}}`},
		"hooks/s.sh":                 {Body: "#!/bin/sh\n", Mode: 0o755},
	}
	c, url := cliWithRepo(t, "evil", files)
	out := c.ok("ext", "install", url)
	out += c.ok("ext", "list") + c.ok("ext", "show", "evil")
	enable, _, _ := c.run("n\n", "ext", "enable", "evil")
	for name, text := range map[string]string{"install, list, show": out, "the trust prompt": enable} {
		if strings.ContainsAny(text, "\x1b\x07\u202e") {
			t.Errorf("%s printed a control or bidi character:\n%q", name, text)
		}
	}
	if !strings.Contains(enable, `u202eexe.sj`) || !strings.Contains(out, "nice plugin") {
		t.Fatalf("the command must read exactly (escapes visible), the description cleaned:\n%s\n%s", enable, out)
	}
}

// A prompt longer than one argument may be comes from --prompt-file; from
// stdin ("-"), approval questions cannot be answered there, and without a
// terminal they are denied.
func TestRunPromptFile(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: "read it"},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"touch made.txt"}`}}}, llmtest.Reply{Text: "done"})
	server.SetContextLength(262144) // read by AgentDesk, as from ds4-server
	c := newCLI(t, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m")
	project := t.TempDir()
	big := strings.Repeat("word ", 60_000) + "end" // 300 KB: more than one argument may hold
	file := filepath.Join(t.TempDir(), "prompt.txt")
	os.WriteFile(file, []byte(big), 0o644)
	if out, errOut, code := c.run("", "run", "--project", project, "--prompt-file", file); code != 0 || out != "read it\n" {
		t.Fatalf("--prompt-file: %d %q %s", code, out, errOut)
	}
	if got := server.Requests()[0].LastMessage().Texts; len(got) != 1 || got[0] != big {
		t.Fatalf("the prompt sent is %d bytes, want the file's %d", len(strings.Join(got, "")), len(big))
	}
	_, errOut, code := c.run("make a file\n", "run", "--project", project, "--prompt-file", "-")
	if code != 0 || !strings.Contains(errOut, "Allow?") {
		t.Fatalf("--prompt-file -: %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(project, "made.txt")); err == nil {
		t.Fatal("a question was answered yes without a terminal")
	}
	if _, errOut, code := c.run("", "run", "--prompt-file", file, "and words"); code == 0 || !strings.Contains(errOut, "not both") {
		t.Fatalf("prompt twice: %d %s", code, errOut)
	}
}

// cliWithRepo is a CLI in a temp home trusting a loopback HTTPS git
// server that serves files as repository name; url is its address.
func cliWithRepo(t *testing.T, name string, files map[string]gittest.File) (*cli, string) {
	t.Helper()
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", files)
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{name: r})
	return newCLI(t, "SSL_CERT_FILE="+srv.CAFile), srv.URL + "/" + name + ".git"
}
