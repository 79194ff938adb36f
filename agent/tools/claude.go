package tools

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Guard hooks are written for Claude Code's tools: its tool names and
// argument names. These functions translate a call both ways, so a hook
// matching "Bash" sees run_command and one reading tool_input.file_path
// finds the path (absolute, as Claude Code gives it).

// claudeTools maps AgentDesk's tool names to Claude Code's.
var claudeTools = map[string]string{
	"run_command": "Bash",
	"write_file":  "Write",
	"edit_file":   "Edit",
	"read_file":   "Read",
	"glob":        "Glob",
	"grep":        "Grep",
	"list_dir":    "LS",
	"task":        "Task", // the agent loop's delegation tool; newer Claude Code calls it Agent
	"lsp":         "LSP",
}

// ClaudeName is Claude Code's name for one of AgentDesk's tools, or ""
// when it has none.
func ClaudeName(tool string) string { return claudeTools[tool] }

// argRename is one argument whose name (and unit) differ between the two.
type argRename struct {
	ours, claude string
	scale        float64 // claude value = ours × scale (seconds → ms); 0: same value
}

// claudeArgs lists, per tool, the arguments Claude Code names otherwise.
// Arguments not listed keep their name.
var claudeArgs = map[string][]argRename{
	"run_command": {{"timeout_seconds", "timeout", 1000}},
	"write_file":  {{"path", "file_path", 0}},
	"edit_file":   {{"path", "file_path", 0}},
	"read_file":   {{"path", "file_path", 0}},
	"grep":        {{"case_insensitive", "-i", 0}},
}

// pathArgs are the arguments (by Claude Code's name) holding a path, which
// Claude Code gives hooks as absolute paths.
var pathArgs = []string{"file_path", "path"}

// ToClaudeInput rewrites a call's arguments with Claude Code's field names
// and absolute paths (relative ones are taken from projectDir). Arguments
// that are not a JSON object come back as an empty object.
func ToClaudeInput(tool string, args json.RawMessage, projectDir string) json.RawMessage {
	obj := decodeObject(args)
	for _, r := range claudeArgs[tool] {
		renameArg(obj, r.ours, r.claude, r.scale)
	}
	for _, name := range pathArgs {
		if p, ok := stringArg(obj, name); ok && p != "" && !filepath.IsAbs(p) {
			obj[name] = mustJSON(filepath.Join(projectDir, filepath.FromSlash(p)))
		}
	}
	return mustJSON(obj)
}

// FromClaudeInput turns a hook's rewrite of tool_input (Claude Code's
// names) back into AgentDesk's arguments. A path inside projectDir becomes
// relative again, as the model would write it. The tool's own validation
// still decides whether the result is a valid call.
func FromClaudeInput(tool string, input json.RawMessage, projectDir string) json.RawMessage {
	obj := decodeObject(input)
	for _, name := range pathArgs {
		if p, ok := stringArg(obj, name); ok && filepath.IsAbs(p) {
			if rel, err := filepath.Rel(projectDir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				obj[name] = mustJSON(filepath.ToSlash(rel))
			}
		}
	}
	for _, r := range claudeArgs[tool] {
		inverse := 0.0
		if r.scale != 0 {
			inverse = 1 / r.scale
		}
		renameArg(obj, r.claude, r.ours, inverse)
	}
	return mustJSON(obj)
}

// ClaudeResponse is tool_response for PostToolUse: the result's text
// under the names Claude Code's tools use for it (stdout for Bash,
// content for the others), with success and is_error.
func ClaudeResponse(tool string, input json.RawMessage, res Result) json.RawMessage {
	out := map[string]any{"success": !res.IsError, "is_error": res.IsError}
	switch tool {
	case "run_command":
		out["stdout"], out["stderr"], out["interrupted"] = res.Text, "", false
	default:
		out["content"] = res.Text
	}
	if p, ok := stringArg(decodeObject(input), "file_path"); ok {
		out["filePath"] = p
	}
	return mustJSON(out)
}

func decodeObject(raw json.RawMessage) map[string]json.RawMessage {
	obj := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return map[string]json.RawMessage{}
	}
	return obj
}

func renameArg(obj map[string]json.RawMessage, from, to string, scale float64) {
	v, ok := obj[from]
	if !ok {
		return
	}
	delete(obj, from)
	if scale != 0 {
		var n float64
		if json.Unmarshal(v, &n) == nil {
			v = mustJSON(n * scale)
		}
	}
	obj[to] = v
}

func stringArg(obj map[string]json.RawMessage, name string) (string, bool) {
	var s string
	v, ok := obj[name]
	if !ok || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// mustJSON marshals values that cannot fail to marshal (strings, numbers,
// maps of raw JSON that was itself decoded).
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
