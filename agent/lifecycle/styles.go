package lifecycle

import "context"

// OutputStyle is one output style an enabled extension offers: data only.
// When the user chooses it, its Prompt joins the main thread's system
// prompt (replacing the coding instructions unless
// KeepCodingInstructions), as Claude Code's output styles do.
type OutputStyle struct {
	// Name is what the user chooses and the setting stores: "EXT:NAME"
	// for a plugin's style (Claude Code's plugin names), the bare name for
	// the project's own (.claude/output-styles).
	Name        string
	Short       string // the style's own name, front matter "name" or the file stem
	Extension   string // extension id
	Label       string // extension display name
	Description string
	// KeepCodingInstructions keeps the coding part of the system prompt;
	// false replaces it with Prompt.
	KeepCodingInstructions bool
	Path                   string // package-relative file
	Prompt                 string // the Markdown body
}

// StyleSource gives the enabled extensions' output styles, computed on
// each call (the turn's snapshot when ctx carries one), so a disabled
// extension's styles are gone from the next turn.
type StyleSource interface {
	// OutputStyles lists them for a session in projectDir, in
	// installation order, then file order.
	OutputStyles(ctx context.Context, projectDir string) []OutputStyle
}
