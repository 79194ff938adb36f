package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

type claudeLine struct {
	Type       string  `json:"type"`
	UUID       string  `json:"uuid"`
	ParentUUID *string `json:"parentUuid"`
	SessionID  string  `json:"sessionId"`
	CWD        string  `json:"cwd"`
	Message    struct {
		Role    string           `json:"role"`
		Content []map[string]any `json:"content"`
	} `json:"message"`
}

func readTranscript(t *testing.T, path string) []claudeLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []claudeLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l claudeLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

// Hooks get transcript_path: the conversation in Claude Code's JSONL
// line format, current at each event, rewritten on resume, gone with the
// session.
func TestTranscriptForHooks(t *testing.T) {
	e := newEnv(t)
	e.policy = PolicyNever
	e.file("notes.txt", "hello")
	e.server.Push(
		llmtest.Reply{Text: "Let me read.", ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		llmtest.Reply{Text: "It says hello."})
	s := e.newSession()
	e.send(s, "what is in notes.txt?")
	path := s.transcriptPath()
	if path == "" || !strings.HasPrefix(path, filepath.Dir(e.dbPath)) {
		t.Fatalf("transcript path = %q", path)
	}
	lines := readTranscript(t, path)
	types := []string{}
	for _, l := range lines {
		types = append(types, l.Type+":"+l.Message.Content[len(l.Message.Content)-1]["type"].(string))
	}
	if strings.Join(types, ",") != "user:text,assistant:tool_use,user:tool_result,assistant:text" {
		t.Fatalf("lines = %v", types)
	}
	call := lines[1].Message.Content[1]
	input, _ := call["input"].(map[string]any)
	if call["name"] != "Read" || input["file_path"] != filepath.Join(e.project.Path, "notes.txt") {
		t.Errorf("tool_use = %v; hooks read Claude Code's names", call)
	}
	if lines[0].ParentUUID != nil || *lines[1].ParentUUID != lines[0].UUID || lines[3].SessionID != s.ID() || lines[3].CWD != e.project.Path {
		t.Errorf("line chain and fields: %+v", lines)
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"role":"assistant"`) {
		t.Error(`shell hooks grep for "role":"assistant": the JSON must be compact`)
	}

	// Resume rewrites it from storage: the same lines.
	s.Close()
	os.Remove(path)
	r := e.resume(s.ID())
	if again := readTranscript(t, r.transcriptPath()); len(again) != 4 || again[3].UUID != lines[3].UUID {
		t.Fatalf("after resume: %d lines", len(again))
	}
	if err := e.agent.DeleteSession(context.Background(), s.ID()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the transcript outlived its deleted session")
}
