package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// recordHook appends its stdin to $CLAUDE_PLUGIN_DATA/EVENT.jsonl; for
// SubagentStart it also prints context (plain text).
const recordHook = `#!/bin/sh
input=$(cat)
printf '%s\n' "$input" >> "$CLAUDE_PLUGIN_DATA/$1.jsonl"
if [ "$1" = SubagentStart ]; then echo "HOOK-CONTEXT from SubagentStart"; fi
`

// agentsPlugin has two agents and hooks on the child's start, its calls
// and its end.
var agentsPlugin = map[string]gittest.File{
	".claude-plugin/plugin.json": {Body: `{"name": "probe"}`},
	"agents/explorer.md": {Body: "---\nname: explorer\ndescription: Explores the code base\ntools: Read, Grep, WebFetch\nmodel: sonnet\ncolor: cyan\n---\n" +
		"EXPLORER-BODY root=${CLAUDE_PLUGIN_ROOT}\n"},
	"agents/reviewer.md": {Body: "---\nname: reviewer\ndescription: Reviews changes\ntools:\n  - Read\n  - Bash\n---\nREVIEWER-BODY\n"},
	"hooks/record.sh":    {Body: recordHook, Mode: 0o755},
	"hooks/hooks.json": {Body: `{"hooks": {
		"SubagentStart": [{"matcher": "probe:explorer", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/record.sh SubagentStart"}]}],
		"SubagentStop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/record.sh SubagentStop"}]}],
		"PreToolUse": [{"matcher": "Read|Task", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/record.sh PreToolUse"}]}]}}`},
}

// TestRunDelegatesToAPluginAgent: a plugin installed over loopback HTTPS
// offers two agents; the model calls task; the child's request is fresh
// (the agent's body and the SubagentStart context, only its tools, none
// of the parent's words), the parent continues with the child's answer as
// the tool result, and the hooks saw the child's agent_type. The answer
// is on stdout, the child's progress on stderr.
func TestRunDelegatesToAPluginAgent(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	c, url := cliWithRepo(t, "probe", agentsPlugin)
	c.env = append(c.env, "AGENTDESK_BASE_URL="+server.URL, "AGENTDESK_MODEL=m")
	c.ok("ext", "install", url)
	if out := c.ok("ext", "enable", "probe", "--yes"); !strings.Contains(out, "It adds these agents") || !strings.Contains(out, "explorer, reviewer") {
		t.Errorf("ext enable does not name the agents:\n%s", out)
	}
	if show := c.ok("ext", "show", "probe"); !strings.Contains(show, "agent explorer — Explores the code base") || !strings.Contains(show, "tools: Read, Grep, WebFetch (not available in AgentDesk, so not given to it: WebFetch)") {
		t.Errorf("ext show lacks the agents:\n%s", show)
	}
	info := c.show("probe")
	var names []string
	for _, a := range info.Agents {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, []string{"explorer", "reviewer"}) || info.Agents[0].Color != "cyan" ||
		!slices.Equal(info.Agents[1].Tools, []string{"Read", "Bash"}) {
		t.Fatalf("ext show --json agents = %+v", info.Agents)
	}
	for _, d := range info.Diagnostics {
		if strings.Contains(d, "agents") {
			t.Errorf("agents still reported: %q", d)
		}
	}

	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "README.md"), []byte("the readme\n"), 0o644)
	server.Push(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "task", Args: `{"subagent_type":"explorer","description":"read the readme","prompt":"Summarise README.md"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"README.md"}`}}},
		llmtest.Reply{Text: "CHILD-ANSWER: it is a readme"},
		llmtest.Reply{Text: "PARENT-DONE"},
	)
	out, errOut, code := c.run("", "run", "--project", project, "--approve", "all", "PARENT-SECRET summarise the readme")
	if code != 0 || strings.TrimSpace(out) != "PARENT-DONE" {
		t.Fatalf("run: exit %d, stdout %q\n%s", code, out, errOut)
	}
	for _, want := range []string{"▸ agent explorer: read the readme — running", "not available in AgentDesk, so not given to it: WebFetch",
		"  │ ▸ read_file", "▸ agent explorer: read the readme — done: CHILD-ANSWER"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}

	reqs := server.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	child := reqs[1]
	if strings.Contains(string(child.Raw), "PARENT-SECRET") || !strings.Contains(child.System, "EXPLORER-BODY root="+info.Dir) ||
		!strings.Contains(child.System, "HOOK-CONTEXT from SubagentStart") || !slices.Equal(child.Tools, []string{"read_file", "grep"}) {
		t.Errorf("child request: tools %q, system:\n%s", child.Tools, child.System)
	}
	if got := toolResultsOf(reqs[3]); len(got) != 1 || got[0] != "CHILD-ANSWER: it is a readme" {
		t.Errorf("parent continuation got %q", got)
	}

	start := hookInputs(t, info.DataDir, "SubagentStart")
	stop := hookInputs(t, info.DataDir, "SubagentStop")
	if len(start) != 1 || start[0]["agent_type"] != "probe:explorer" || len(stop) != 1 || stop[0]["agent_type"] != "probe:explorer" ||
		stop[0]["last_assistant_message"] != "CHILD-ANSWER: it is a readme" || stop[0]["agent_id"] != start[0]["agent_id"] {
		t.Errorf("SubagentStart %v\nSubagentStop %v", start, stop)
	}
	if path, _ := stop[0]["agent_transcript_path"].(string); !fileContains(path, "it is a readme") {
		t.Errorf("agent_transcript_path %q does not hold the child's transcript", path)
	}
	pre := hookInputs(t, info.DataDir, "PreToolUse")
	if len(pre) != 2 || pre[0]["tool_name"] != "Task" || pre[0]["agent_type"] != nil ||
		pre[1]["tool_name"] != "Read" || pre[1]["agent_type"] != "probe:explorer" {
		t.Errorf("PreToolUse inputs %v", pre)
	}
}

func hookInputs(t *testing.T, dataDir, event string) []map[string]any {
	t.Helper()
	body, _ := os.ReadFile(filepath.Join(dataDir, event+".jsonl"))
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(body)), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s input %q: %v", event, line, err)
		}
		out = append(out, m)
	}
	return out
}

func toolResultsOf(r llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		out = append(out, m.ToolResults...)
	}
	return out
}

func fileContains(path, text string) bool {
	body, err := os.ReadFile(path)
	return err == nil && strings.Contains(string(body), text)
}
