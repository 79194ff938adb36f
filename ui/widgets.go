package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/extensions"
)

// bubble is a user message: wrapped text on a tinted, rounded card.
func bubble(text string) fyne.CanvasObject {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize() * 2
	label := &widget.Label{Text: text, Wrapping: fyne.TextWrapWord}
	return container.NewStack(bg, container.NewPadded(label))
}

// chip is an extension's status line (its systemMessage).
func chip(text string) fyne.CanvasObject {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameSelection))
	bg.CornerRadius = theme.InputRadiusSize() * 3
	label := &widget.Label{Text: "◆ " + text, TextStyle: fyne.TextStyle{Bold: true}}
	return container.NewHBox(container.NewStack(bg, label))
}

// monoBlock shows text verbatim in a selectable monospace block.
func monoBlock(text string) fyne.CanvasObject {
	rt := widget.NewRichText(&widget.TextSegment{Text: text, Style: widget.RichTextStyleCodeBlock})
	rt.Wrapping = fyne.TextWrapBreak
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	return container.NewStack(bg, rt)
}

// diffBlock shows a unified diff the way code review tools do: added
// lines green, removed lines red, hunk headers in the primary colour,
// file names plain.
func diffBlock(diff string) fyne.CanvasObject {
	var segs []widget.RichTextSegment
	for _, line := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		style := widget.RichTextStyleCodeBlock
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			// file names: plain (there is no bold monospace face)
		case strings.HasPrefix(line, "+"):
			style.ColorName = theme.ColorNameSuccess
		case strings.HasPrefix(line, "-"):
			style.ColorName = theme.ColorNameError
		case strings.HasPrefix(line, "@@"):
			style.ColorName = theme.ColorNamePrimary
		}
		if line == "" {
			line = " " // an empty paragraph would collapse
		}
		segs = append(segs, &widget.TextSegment{Text: line, Style: style})
	}
	rt := widget.NewRichText(segs...)
	rt.Wrapping = fyne.TextWrapBreak
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	return container.NewStack(bg, rt)
}

func layoutSpacer() fyne.CanvasObject { return layout.NewSpacer() }

// widthWatcher stacks its objects and reports width changes, so rows can
// be re-measured when wrapped text reflows.
type widthWatcher struct {
	onWidth func(float32)
}

func (w *widthWatcher) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
	w.onWidth(size.Width)
}

func (w *widthWatcher) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		s = s.Max(o.MinSize())
	}
	return s
}

// primaryArg picks the argument that best names a tool call: a path, a
// pattern or a command.
func primaryArg(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	for _, k := range []string{"command", "path", "pattern", "file_path", "dir", "subagent_type"} {
		if v, ok := m[k].(string); ok {
			return firstLine(v, 80)
		}
	}
	return ""
}

// firstStringArg is the first string argument by name, for calls whose
// arguments AgentDesk does not know (MCP tools).
func firstStringArg(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if v, ok := m[k].(string); ok && strings.TrimSpace(v) != "" {
			return firstLine(v, 80)
		}
	}
	return ""
}

func prettyArgs(args string) string {
	var out bytes.Buffer
	if json.Indent(&out, []byte(args), "", "  ") != nil {
		return args
	}
	return out.String()
}

// hookSummary is the status bar's word on the enabled extensions' hooks.
func hookSummary(infos []extensions.Info) string {
	enabled, failing := 0, ""
	for _, i := range infos {
		if i.Status != extensions.StatusEnabled {
			continue
		}
		enabled++
		if i.LastError != "" && failing == "" {
			failing = i.Name
		}
	}
	switch {
	case enabled == 0:
		return ""
	case failing != "":
		return fmt.Sprintf("hooks: %s failing", failing)
	}
	return "hooks ok"
}
