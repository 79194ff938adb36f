package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The lsp tool's operations, by Claude Code's names.
const (
	OpDefinition     = "goToDefinition"
	OpReferences     = "findReferences"
	OpHover          = "hover"
	OpDocumentSymbol = "documentSymbol"
	OpWorkspaceSym   = "workspaceSymbol"
	OpImplementation = "goToImplementation"
	OpPrepareCalls   = "prepareCallHierarchy"
	OpIncomingCalls  = "incomingCalls"
	OpOutgoingCalls  = "outgoingCalls"
)

// Operations lists them in the order the tool's schema gives them.
var Operations = []string{OpDefinition, OpReferences, OpHover, OpDocumentSymbol, OpWorkspaceSym, OpImplementation,
	OpPrepareCalls, OpIncomingCalls, OpOutgoingCalls}

// Request is one lsp tool call: the file asked about (absolute) and its
// text, the model's 1-based line and character, and the workspaceSymbol
// query.
type Request struct {
	Operation       string
	Path, Text      string
	Line, Character int
	Query           string
}

// Files gives the text of a file a result points at, so its line can be
// shown; false for a file that may not be opened (outside the project).
type Files func(path string) (string, bool)

// Answer runs req and words the result for the model, relative to root,
// bounded (see FormatLocations and Bound).
func (c *Client) Answer(ctx context.Context, root string, req Request, files Files) (string, error) {
	pos := ToLSP(req.Text, req.Line, req.Character)
	texts := &fileTexts{files: files, known: map[string]string{req.Path: req.Text}}
	switch req.Operation {
	case OpDefinition, OpReferences, OpImplementation:
		method := map[string]string{OpDefinition: "textDocument/definition", OpReferences: "textDocument/references",
			OpImplementation: "textDocument/implementation"}[req.Operation]
		locs, err := c.Locations(ctx, method, req.Path, pos)
		if err != nil {
			return "", err
		}
		out := make([]Location, len(locs))
		for i, l := range locs {
			out[i] = texts.location(root, PathOf(l.URI), l.Range.Start, "")
		}
		return FormatLocations(out), nil
	case OpHover:
		var raw json.RawMessage
		if err := c.conn.Call(ctx, "textDocument/hover", docPos(req.Path, pos), &raw); err != nil {
			return "", err
		}
		text := hoverText(raw)
		if text == "" {
			return "No hover information here.", nil
		}
		return Bound(text), nil
	case OpDocumentSymbol:
		var raw json.RawMessage
		if err := c.conn.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": URI(req.Path)}}, &raw); err != nil {
			return "", err
		}
		return Bound(outline(raw, req.Text)), nil
	case OpWorkspaceSym:
		var raw json.RawMessage
		if err := c.conn.Call(ctx, "workspace/symbol", map[string]any{"query": req.Query}, &raw); err != nil {
			return "", err
		}
		return FormatLocations(workspaceSymbols(raw, root, texts)), nil
	case OpPrepareCalls, OpIncomingCalls, OpOutgoingCalls:
		var items []callItem
		if err := c.conn.Call(ctx, "textDocument/prepareCallHierarchy", docPos(req.Path, pos), &items); err != nil {
			return "", err
		}
		if len(items) == 0 {
			return "No call hierarchy item here (place the position on a function's name).", nil
		}
		if req.Operation == OpPrepareCalls {
			out := make([]Location, len(items))
			for i, it := range items {
				out[i] = texts.location(root, PathOf(it.URI), it.SelectionRange.Start, symbolKind(it.Kind)+" "+it.Name)
			}
			return FormatLocations(out), nil
		}
		return c.calls(ctx, root, req.Operation, items, texts)
	}
	return "", fmt.Errorf("unknown operation %q: use one of %s", req.Operation, strings.Join(Operations, ", "))
}

func docPos(path string, pos Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": URI(path)}, "position": pos}
}

// callItem is LSP's CallHierarchyItem, kept whole to send back.
type callItem struct {
	Name           string          `json:"name"`
	Kind           int             `json:"kind"`
	Detail         string          `json:"detail,omitempty"`
	URI            string          `json:"uri"`
	Range          Range           `json:"range"`
	SelectionRange Range           `json:"selectionRange"`
	Data           json.RawMessage `json:"data,omitempty"`
}

// calls lists the callers (each call site, with the caller named) or the
// callees (each callee's definition, with where it is called) of items.
func (c *Client) calls(ctx context.Context, root, op string, items []callItem, texts *fileTexts) (string, error) {
	var out []Location
	for _, it := range items {
		if op == OpIncomingCalls {
			var in []struct {
				From       callItem `json:"from"`
				FromRanges []Range  `json:"fromRanges"`
			}
			if err := c.conn.Call(ctx, "callHierarchy/incomingCalls", map[string]any{"item": it}, &in); err != nil {
				return "", err
			}
			for _, call := range in {
				path := PathOf(call.From.URI)
				sites := call.FromRanges
				if len(sites) == 0 {
					sites = []Range{call.From.SelectionRange}
				}
				for _, r := range sites {
					l := texts.location(root, path, r.Start, "")
					l.Text = "in " + symbolKind(call.From.Kind) + " " + call.From.Name + ": " + strings.TrimSpace(l.Text)
					out = append(out, l)
				}
			}
			continue
		}
		var outgoing []struct {
			To         callItem `json:"to"`
			FromRanges []Range  `json:"fromRanges"`
		}
		if err := c.conn.Call(ctx, "callHierarchy/outgoingCalls", map[string]any{"item": it}, &outgoing); err != nil {
			return "", err
		}
		from := PathOf(it.URI)
		for _, call := range outgoing {
			text := symbolKind(call.To.Kind) + " " + call.To.Name
			if len(call.FromRanges) > 0 {
				site := texts.location(root, from, call.FromRanges[0].Start, "")
				text += fmt.Sprintf(" (called at %s:%d:%d)", site.Path, site.Line, site.Col)
			}
			out = append(out, texts.location(root, PathOf(call.To.URI), call.To.SelectionRange.Start, text))
		}
	}
	return FormatLocations(out), nil
}

// fileTexts reads each file a result points at once.
type fileTexts struct {
	files Files
	known map[string]string
}

// location is a result's place as the model sees it: 1-based, relative
// to root, with text (or, when text is "", the line's own text; nothing
// for a file that may not be opened).
func (f *fileTexts) location(root, path string, p Position, text string) Location {
	src, ok := f.known[path]
	if !ok && f.files != nil {
		if src, ok = f.files(path); ok {
			f.known[path] = src
		}
	}
	l := Location{Path: Rel(root, path), Text: text}
	if ok {
		l.Line, l.Col = FromLSP(src, p)
		if text == "" {
			l.Text = lineOf(src, p.Line)
		}
	} else {
		l.Line, l.Col = p.Line+1, p.Character+1
	}
	return l
}

// hoverText is a hover's contents as Markdown: MarkupContent, a
// MarkedString or a list of them.
func hoverText(raw json.RawMessage) string {
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(raw, &h) != nil || len(h.Contents) == 0 {
		return ""
	}
	return strings.TrimSpace(markedText(h.Contents))
}

func markedText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, 0, len(list))
		for _, m := range list {
			if t := strings.TrimSpace(markedText(m)); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n\n")
	}
	var obj struct {
		Kind     string `json:"kind"`
		Language string `json:"language"`
		Value    string `json:"value"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	if obj.Language != "" { // a MarkedString with a language: a code block
		return "```" + obj.Language + "\n" + obj.Value + "\n```"
	}
	return obj.Value
}

// symbolKinds are LSP's SymbolKind names, 1-based.
var symbolKinds = []string{"File", "Module", "Namespace", "Package", "Class", "Method", "Property", "Field", "Constructor",
	"Enum", "Interface", "Function", "Variable", "Constant", "String", "Number", "Boolean", "Array", "Object", "Key", "Null",
	"EnumMember", "Struct", "Event", "Operator", "TypeParameter"}

func symbolKind(k int) string {
	if k >= 1 && k <= len(symbolKinds) {
		return symbolKinds[k-1]
	}
	return "Symbol"
}

// docSymbol is LSP's DocumentSymbol, or a SymbolInformation (Location set).
type docSymbol struct {
	Name           string       `json:"name"`
	Detail         string       `json:"detail"`
	Kind           int          `json:"kind"`
	Range          Range        `json:"range"`
	SelectionRange Range        `json:"selectionRange"`
	Children       []docSymbol  `json:"children"`
	Location       WireLocation `json:"location"`
	ContainerName  string       `json:"containerName"`
}

// outline is a file's symbols, one a line, children indented: "Function
// main 5:6".
func outline(raw json.RawMessage, text string) string {
	var syms []docSymbol
	json.Unmarshal(raw, &syms)
	if len(syms) == 0 {
		return "No symbols in this file."
	}
	var b strings.Builder
	var walk func(list []docSymbol, depth int)
	walk = func(list []docSymbol, depth int) {
		for _, s := range list {
			start := s.SelectionRange.Start
			if s.Location.URI != "" {
				start = s.Location.Range.Start
			}
			line, col := FromLSP(text, start)
			b.WriteString(strings.Repeat("  ", depth) + symbolKind(s.Kind) + " " + s.Name)
			if d := strings.Join(strings.Fields(s.Detail), " "); d != "" {
				b.WriteString(" " + d)
			}
			fmt.Fprintf(&b, " %d:%d\n", line, col)
			walk(s.Children, depth+1)
		}
	}
	walk(syms, 0)
	return strings.TrimSuffix(b.String(), "\n")
}

// workspaceSymbols are workspace/symbol's answer as locations: "Function
// greet (in main)".
func workspaceSymbols(raw json.RawMessage, root string, texts *fileTexts) []Location {
	var syms []docSymbol
	json.Unmarshal(raw, &syms)
	out := make([]Location, 0, len(syms))
	for _, s := range syms {
		text := symbolKind(s.Kind) + " " + s.Name
		if s.ContainerName != "" {
			text += " (in " + s.ContainerName + ")"
		}
		out = append(out, texts.location(root, PathOf(s.Location.URI), s.Location.Range.Start, text))
	}
	return out
}

// PublishedSince is what the server published after since, by path,
// besides path itself: the other files an edit affected.
func (c *Client) PublishedSince(since time.Time, except string) map[string][]WireDiagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]WireDiagnostic{}
	skip := URI(except)
	for uri, p := range c.diags {
		if uri != skip && !p.at.Before(since) {
			out[PathOf(uri)] = p.diags
		}
	}
	return out
}

// Settle waits, at most until ctx ends, until the server has published
// nothing for quiet: the diagnostics of the other files an edit affected
// come in a burst after the edited file's own.
func (c *Client) Settle(ctx context.Context, quiet time.Duration) {
	for {
		c.mu.Lock()
		ch := c.changed
		c.mu.Unlock()
		t := time.NewTimer(quiet)
		select {
		case <-ch:
			t.Stop()
		case <-t.C:
			return
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}
