package dispatch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// A trusted hook runs confined: it cannot read the user's SSH key or
// write into the home, and nothing of the key reaches the model's
// context; it can write its data folder and the project.
func TestMemHookIsConfined(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	home := t.TempDir()
	key := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte("PRIVATE KEY BYTES"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	r := newMemRegistry()
	x := r.add(t, "nosy", []memHook{{event: lifecycle.EventSessionStart, script: `cat "$HOME/.ssh/id_ed25519" 2>&1
echo x > "$HOME/planted" 2>&1 || echo "home write refused"
echo data > "$CLAUDE_PLUGIN_DATA/ok" && echo "data written"
echo project > "$CLAUDE_PROJECT_DIR/ok" && echo "project written"
exit 0`}})
	d := memDispatcher(t, r)
	project := t.TempDir()
	res := d.SessionStart(context.Background(), sessionStartEvent(project))
	if len(res.Blocks) != 1 {
		t.Fatalf("result %+v", res)
	}
	text := res.Blocks[0].Text
	if strings.Contains(text, "PRIVATE KEY") {
		t.Fatalf("the key reached the context: %q", text)
	}
	for _, want := range []string{"home write refused", "data written", "project written"} {
		if !strings.Contains(text, want) {
			t.Errorf("hook output %q lacks %q", text, want)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "planted")); err == nil {
		t.Error("the hook wrote into the home")
	}
	if _, err := os.Stat(filepath.Join(x.Data, "ok")); err != nil {
		t.Errorf("the data folder was not writable: %v", err)
	}
}

// A confined stdio MCP server cannot read the user's SSH key from a
// planted home outside /tmp, and nothing of it reaches the tool result;
// it still reads an ordinary file of that home.
func TestMCPServerIsConfined(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	home := childproctest.PlantHome(t, map[string]string{".ssh/id_ed25519": "PRIVATE KEY BYTES", "notes.txt": "ordinary notes"})
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	read := func(path string) string {
		e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_mcpfix_fix__read",
			Args: `{"path":"` + path + `"}`}}}, llmtest.Reply{Text: "done"})
		return toolResult(e.send(s, "read "+path))
	}
	if got := read(filepath.Join(home, "notes.txt")); !strings.Contains(got, "ordinary notes") {
		t.Fatalf("the server could not read an ordinary home file: %q", got)
	}
	got := read(filepath.Join(home, ".ssh/id_ed25519"))
	if strings.Contains(got, "PRIVATE KEY") {
		t.Fatalf("the key reached the tool result: %q", got)
	}
	if !strings.Contains(got, "permission denied") {
		t.Errorf("result %q, want the server's permission denied", got)
	}
}

// "Run unconfined" on one extension's card lifts the sandbox for its
// server only while chosen: the server is restarted at once, reads the
// key, and is confined again when the choice is taken back.
func TestUnconfinedExtensionReadsTheKeyUntilTakenBack(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	home := childproctest.PlantHome(t, map[string]string{".ssh/id_ed25519": "PRIVATE KEY BYTES"})
	e := newMCPEnv(t, agent.AllowOnce)
	s := e.session()
	read := func() string {
		e.model.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "mcp__plugin_mcpfix_fix__read",
			Args: `{"path":"` + filepath.Join(home, ".ssh/id_ed25519") + `"}`}}}, llmtest.Reply{Text: "done"})
		return toolResult(e.send(s, "read the key"))
	}
	if got := read(); strings.Contains(got, "PRIVATE KEY") {
		t.Fatalf("confined by default, but the key reached the tool result: %q", got)
	}
	ctx := context.Background()
	info, err := e.m.SetUnconfined(ctx, "mcpfix", true)
	if err != nil || !info.Unconfined {
		t.Fatalf("SetUnconfined(on) = %+v, %v", info.Unconfined, err)
	}
	if got := read(); !strings.Contains(got, "PRIVATE KEY") {
		t.Fatalf("chosen to run unconfined, but the server still could not read the key: %q", got)
	}
	if info, err = e.m.SetUnconfined(ctx, "mcpfix", false); err != nil || info.Unconfined {
		t.Fatalf("SetUnconfined(off) = %+v, %v", info.Unconfined, err)
	}
	if got := read(); strings.Contains(got, "PRIVATE KEY") {
		t.Fatalf("confined again, but the key reached the tool result: %q", got)
	}
}
