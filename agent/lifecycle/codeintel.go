package lifecycle

import "context"

// CodeIntel is the enabled extensions' language servers as the loop uses
// them: the lsp tool, the documents the agent reads and writes, and the
// diagnostics an edit's result gets. Like ToolSource it never fails the
// call that uses it; a server that cannot start is said once, in words.
type CodeIntel interface {
	// Covers reports whether an enabled language server covers files
	// present in the project: then the loop offers the lsp tool.
	Covers(ctx context.Context, projectDir string) bool
	// FileRead tells the server covering path (absolute, inside the
	// project) the text the agent read, starting it when it is not
	// running; it does not wait for the server.
	FileRead(ctx context.Context, projectDir, path, text string)
	// FileWritten tells it the new text of a file the agent wrote and returns
	// what to add to the write's result: the errors and warnings the
	// server published for the change ("" for none), waiting a bounded
	// time for them.
	FileWritten(ctx context.Context, projectDir, path, text string) string
	// Query answers one lsp tool call.
	Query(ctx context.Context, projectDir string, q CodeQuery) ToolResult
}

// CodeQuery is one lsp tool call: the operation (Claude Code's LSP tool
// operations), the file (absolute) and its text, the model's 1-based
// line and character, and the workspaceSymbol query.
type CodeQuery struct {
	Operation       string
	Path, Text      string
	Line, Character int
	Query           string
}
