package dispatch

import (
	"context"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
)

var _ lifecycle.StyleSource = (*Dispatcher)(nil)

// OutputStyles implements lifecycle.StyleSource: the enabled, trusted
// extensions' output styles, from the turn's snapshot when ctx carries
// one for projectDir, else from the registry, so a disable removes them
// from the next turn.
func (d *Dispatcher) OutputStyles(ctx context.Context, projectDir string) []lifecycle.OutputStyle {
	return styleList(d.active(extensions.WithProject(ctx, projectDir)))
}

// styleList names each style as extensions.StyleName does.
func styleList(xs []extensions.Active) []lifecycle.OutputStyle {
	var out []lifecycle.OutputStyle
	for _, x := range xs {
		for _, s := range x.Pkg.OutputStyles {
			out = append(out, lifecycle.OutputStyle{Name: extensions.StyleName(x.ID, s.Name), Short: s.Name, Extension: x.ID, Label: safetext.Strip(x.Label),
				Description: safetext.Strip(s.Description), KeepCodingInstructions: s.KeepCodingInstructions, Path: s.Path, Prompt: s.Body})
		}
	}
	return out
}
