package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// lspToolName is the code intelligence tool, Claude Code's LSP (guard
// matchers see both names).
const lspToolName = "lsp"

type lspArgs struct {
	Operation string `json:"operation" jsonschema:"required,enum=goToDefinition,enum=findReferences,enum=hover,enum=documentSymbol,enum=workspaceSymbol,enum=goToImplementation,enum=prepareCallHierarchy,enum=incomingCalls,enum=outgoingCalls" jsonschema_description:"What to ask the language server."`
	FilePath  string `json:"filePath" jsonschema:"required" jsonschema_description:"The file, relative to the project root. For workspaceSymbol any file of the language."`
	Line      int    `json:"line,omitempty" jsonschema_description:"1-based line, as read_file shows lines (not needed for documentSymbol and workspaceSymbol)."`
	Character int    `json:"character,omitempty" jsonschema_description:"1-based character in that line, on the symbol's name."`
	Query     string `json:"query,omitempty" jsonschema_description:"The symbol name (or part) to look for, for workspaceSymbol."`
}

var lspSchema = tools.SchemaOf(&lspArgs{})

// lspTool asks the enabled language servers about the project's code.
// It only reads, so it runs without asking, like read_file.
type lspTool struct{ s *Session }

func (t *lspTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: lspToolName, Parameters: lspSchema, Description: "Code intelligence from the project's language servers: " +
		"goToDefinition, findReferences, goToImplementation, hover (type and docs), documentSymbol (a file's outline), workspaceSymbol (find a symbol by name), " +
		"prepareCallHierarchy, incomingCalls (callers) and outgoingCalls (callees) of the symbol at a position. " +
		"Prefer it to grep for following code: results are exact and show path:line:col and the line."}
}

func (t *lspTool) Kind() tools.Kind { return tools.ReadOnly }

func (t *lspTool) Preview(args json.RawMessage) (tools.Preview, error) {
	a, err := decodeLSPArgs(args)
	if err != nil {
		return tools.Preview{}, err
	}
	return tools.Preview{Title: "lsp " + a.Operation + " " + a.FilePath}, nil
}

func (t *lspTool) Describe(args json.RawMessage) string {
	a, _ := decodeLSPArgs(args)
	d := "lsp " + a.Operation + " " + a.FilePath
	switch {
	case a.Query != "":
		d += " " + a.Query
	case a.Line > 0:
		d += fmt.Sprintf(":%d:%d", a.Line, max(a.Character, 1))
	}
	return d
}

func decodeLSPArgs(args json.RawMessage) (lspArgs, error) {
	var a lspArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return a, fmt.Errorf("arguments are not a JSON object: %w", err)
	}
	if a.Operation == "" {
		return a, fmt.Errorf("operation is required")
	}
	if a.FilePath == "" {
		return a, fmt.Errorf("filePath is required")
	}
	return a, nil
}

func (t *lspTool) Run(ctx context.Context, args json.RawMessage) tools.Result {
	a, err := decodeLSPArgs(args)
	if err != nil {
		return tools.Result{Text: err.Error(), IsError: true}
	}
	needsPos := a.Operation != "documentSymbol" && a.Operation != "workspaceSymbol"
	if needsPos && a.Line < 1 {
		return tools.Result{Text: a.Operation + " needs line and character (1-based, as read_file shows them)", IsError: true}
	}
	if a.Operation == "workspaceSymbol" && strings.TrimSpace(a.Query) == "" {
		return tools.Result{Text: "workspaceSymbol needs a query", IsError: true}
	}
	abs, text, ok := t.s.tools.ProjectFile(a.FilePath)
	if !ok {
		return tools.Result{Text: fmt.Sprintf("cannot read %s: lsp asks about files inside the project %s", a.FilePath, t.s.project), IsError: true}
	}
	res := t.s.a.cfg.CodeIntel.Query(t.s.reporting(ctx), t.s.project, lifecycle.CodeQuery{Operation: a.Operation, Path: abs, Text: text,
		Line: a.Line, Character: max(a.Character, 1), Query: a.Query})
	return tools.Result{Text: res.Text, IsError: res.IsError}
}

// lspTools is the lsp tool when an enabled language server covers files
// of the project and th may use it.
func (s *Session) lspTools(ctx context.Context, th *thread) []tools.Tool {
	if s.a.cfg.CodeIntel == nil || (th.only != nil && !th.only[lspToolName]) || !s.a.cfg.CodeIntel.Covers(ctx, s.project) {
		return nil
	}
	return []tools.Tool{&lspTool{s: s}}
}

// fileTools are the built-ins whose files language servers hear about.
var fileTools = map[string]bool{"read_file": true, "write_file": true, "edit_file": true}

// touchedFile tells the language servers about a file a successful
// read_file, write_file or edit_file used; a write's result gets the
// diagnostics the covering server then published.
func (s *Session) touchedFile(ctx context.Context, name string, args json.RawMessage, res tools.Result) tools.Result {
	if s.a.cfg.CodeIntel == nil || res.IsError || !fileTools[name] {
		return res
	}
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil {
		return res
	}
	abs, text, ok := s.tools.ProjectFile(a.Path)
	if !ok {
		return res
	}
	if name == "read_file" {
		s.a.cfg.CodeIntel.FileRead(ctx, s.project, abs, text)
		return res
	}
	if diag := s.a.cfg.CodeIntel.FileWritten(s.reporting(ctx), s.project, abs, text); diag != "" {
		res.Text = strings.TrimRight(res.Text, "\n") + "\n\n" + diag
	}
	return res
}
