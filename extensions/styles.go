package extensions

import (
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// OutputStyle is one output style the extension contributes (ext show
// --json, the card, the trust dialog): chosen in Preferences → Providers
// or with /output-style as "EXT:NAME" (a project's by its name).
type OutputStyle struct {
	Name        string `json:"name"`
	Path        string `json:"path"`
	Description string `json:"description,omitempty"`
	// KeepCodingInstructions: the style is added to the coding
	// instructions instead of replacing them.
	KeepCodingInstructions bool `json:"keep_coding_instructions"`
}

// StyleName is the name an output style is chosen by: "EXT:NAME" for a
// plugin's, as Claude Code names plugins' styles, so two plugins' styles
// never collide; the bare name for the project's own (Claude Code's
// project styles have no prefix).
func StyleName(extension, style string) string {
	if extension == manifest.ProjectID {
		return style
	}
	return extension + ":" + style
}

// stylesOf lists a package's output styles for display.
func stylesOf(pkg *manifest.Package) []OutputStyle {
	out := []OutputStyle{}
	for _, s := range pkg.OutputStyles {
		out = append(out, OutputStyle{Name: s.Name, Path: s.Path, Description: s.Description, KeepCodingInstructions: s.KeepCodingInstructions})
	}
	return out
}

func safeStyles(styles []OutputStyle) []OutputStyle {
	out := make([]OutputStyle, len(styles))
	for k, s := range styles {
		s.Name, s.Description, s.Path = safetext.Strip(s.Name), safetext.Strip(s.Description), safetext.Visible(s.Path)
		out[k] = s
	}
	return out
}
