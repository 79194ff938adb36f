package lsp

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// URI is the file: URI of an absolute path.
func URI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// PathOf is the path of a file: URI ("" for another scheme).
func PathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// Range and Location are LSP's.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// WireLocation is LSP's Location.
type WireLocation struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// WireDiagnostic is LSP's Diagnostic (the fields shown).
type WireDiagnostic struct {
	Range    Range    `json:"range"`
	Severity Severity `json:"severity"`
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}

type published struct {
	version int
	hasVer  bool
	diags   []WireDiagnostic
	at      time.Time
}

// Client is one language server's session: the documents open in it and
// the diagnostics it last published for each.
type Client struct {
	conn     *Conn
	settings json.RawMessage

	mu       sync.Mutex
	versions map[string]int    // open documents by URI
	sums     map[string]uint64 // the hash of the text each was last sent with
	diags    map[string]published
	changed  chan struct{}     // closed and replaced on every publish
	progress map[string]string // work under way ($/progress begun, not ended) by token: its title
}

// NewClient is a client over a server's stdout (r) and stdin (w);
// settings answer workspace/configuration.
func NewClient(r interface{ Read([]byte) (int, error) }, w interface{ Write([]byte) (int, error) }, settings json.RawMessage) *Client {
	c := &Client{settings: settings, versions: map[string]int{}, sums: map[string]uint64{}, diags: map[string]published{},
		changed: make(chan struct{}), progress: map[string]string{}}
	c.conn = NewConn(r, w, c.handle)
	return c
}

// Conn is the underlying connection.
func (c *Client) Conn() *Conn { return c.conn }

func (c *Client) handle(method string, params json.RawMessage) (any, error) {
	switch method {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI         string           `json:"uri"`
			Version     *int             `json:"version"`
			Diagnostics []WireDiagnostic `json:"diagnostics"`
		}
		if json.Unmarshal(params, &p) == nil {
			c.mu.Lock()
			pub := published{diags: p.Diagnostics, at: time.Now()}
			if p.Version != nil {
				pub.version, pub.hasVer = *p.Version, true
			}
			c.diags[p.URI] = pub
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
		}
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		json.Unmarshal(params, &p)
		out := make([]json.RawMessage, len(p.Items))
		for i, it := range p.Items {
			out[i] = settingsSection(c.settings, it.Section)
		}
		return out, nil
	case "$/progress":
		c.noteProgress(params)
		return nil, nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability":
		return nil, nil
	case "workspace/workspaceFolders":
		return nil, nil
	case "window/showMessageRequest":
		return nil, nil
	}
	if strings.HasPrefix(method, "$/") || strings.HasPrefix(method, "window/") || strings.HasPrefix(method, "telemetry/") {
		return nil, nil // notifications the client does not act on
	}
	return nil, &RPCError{Code: -32601, Message: "method not found: " + method}
}

// noteProgress keeps the work a server reports under way ($/progress
// begin … end), so the status bar can say it is indexing.
func (c *Client) noteProgress(params json.RawMessage) {
	var p struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind    string `json:"kind"`
			Title   string `json:"title"`
			Message string `json:"message"`
		} `json:"value"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	token := string(p.Token)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch p.Value.Kind {
	case "begin":
		c.progress[token] = strings.TrimSpace(p.Value.Title)
	case "end":
		delete(c.progress, token)
	}
}

// Busy is the title of work the server reports under way ("Loading
// packages…"), "" when it reports none.
func (c *Client) Busy() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var titles []string
	for _, t := range c.progress {
		if t != "" {
			titles = append(titles, t)
		}
	}
	if len(titles) == 0 {
		if len(c.progress) > 0 {
			return "working"
		}
		return ""
	}
	slices.Sort(titles)
	return titles[0]
}

// settingsSection is the part of settings a dotted section names (all of
// it for ""), or null.
func settingsSection(settings json.RawMessage, section string) json.RawMessage {
	cur := settings
	if len(cur) == 0 {
		return json.RawMessage("null")
	}
	if section == "" {
		return cur
	}
	for _, part := range strings.Split(section, ".") {
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return json.RawMessage("null")
		}
		next, ok := obj[part]
		if !ok {
			return json.RawMessage("null")
		}
		cur = next
	}
	return cur
}

// Initialize runs initialize/initialized with root as root URI and only
// workspace folder, then sends the settings.
func (c *Client) Initialize(ctx context.Context, root string, initOptions json.RawMessage) error {
	type m = map[string]any
	params := m{
		"processId":        nil,
		"clientInfo":       m{"name": "AgentDesk"},
		"rootUri":          URI(root),
		"workspaceFolders": []m{{"uri": URI(root), "name": filepath.Base(root)}},
		"capabilities": m{
			"general": m{"positionEncodings": []string{"utf-16"}},
			"workspace": m{"configuration": true, "workspaceFolders": true,
				"didChangeConfiguration": m{"dynamicRegistration": false}, "symbol": m{}},
			"textDocument": m{
				"synchronization":    m{"didSave": true},
				"publishDiagnostics": m{"versionSupport": true},
				"definition":         m{"linkSupport": false}, "references": m{}, "implementation": m{},
				"hover":          m{"contentFormat": []string{"markdown", "plaintext"}},
				"documentSymbol": m{"hierarchicalDocumentSymbolSupport": true},
				"callHierarchy":  m{},
			},
			"window": m{"workDoneProgress": true},
		},
	}
	if len(initOptions) > 0 {
		params["initializationOptions"] = initOptions
	}
	if err := c.conn.Call(ctx, "initialize", params, nil); err != nil {
		return err
	}
	if err := c.conn.Notify("initialized", m{}); err != nil {
		return err
	}
	if len(c.settings) > 0 {
		return c.conn.Notify("workspace/didChangeConfiguration", m{"settings": c.settings})
	}
	return nil
}

// Sync opens the document at path with text, or sends its new full text
// (a new version) when it is open; it returns the version sent.
func (c *Client) Sync(path, languageID, text string) (int, error) {
	uri := URI(path)
	c.mu.Lock()
	v, open := c.versions[uri]
	v++
	c.versions[uri] = v
	c.sums[uri] = sumOf(text)
	c.mu.Unlock()
	if !open {
		return v, c.conn.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": languageID, "version": v, "text": text}})
	}
	return v, c.conn.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": v},
		"contentChanges": []map[string]any{{"text": text}}})
}

// Current reports whether the document at path is open with text, so a
// read of an unchanged file sends nothing.
func (c *Client) Current(path, text string) bool {
	uri := URI(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	_, open := c.versions[uri]
	return open && c.sums[uri] == sumOf(text)
}

func sumOf(text string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(text))
	return h.Sum64()
}

// Save sends didSave for an open document.
func (c *Client) Save(path string) error {
	return c.conn.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": URI(path)}})
}

// Diagnostics is what the server last published for path.
func (c *Client) Diagnostics(path string) []WireDiagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diags[URI(path)].diags
}

// DiagnosticsIn is what the server last published for path, whose text
// is text, with positions converted to the model's 1-based ones and the
// path shown relative to root.
func (c *Client) DiagnosticsIn(root, path, text string) []Diagnostic {
	return Convert(root, path, text, c.Diagnostics(path))
}

// Convert is diagnostics published for path, whose text is text, with
// positions converted to the model's 1-based ones and the path shown
// relative to root.
func Convert(root, path, text string, ds []WireDiagnostic) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		line, col := FromLSP(text, d.Range.Start)
		out = append(out, Diagnostic{Path: Rel(root, path), Line: line, Col: col, Severity: d.Severity, Message: d.Message, Source: d.Source})
	}
	return out
}

// WaitDiagnostics waits, at most until ctx ends, for diagnostics of path
// published for version (or, from a server that sends no version, any
// published after since). It reports whether they came.
func (c *Client) WaitDiagnostics(ctx context.Context, path string, version int, since time.Time) bool {
	uri := URI(path)
	for {
		c.mu.Lock()
		p, ok := c.diags[uri]
		ch := c.changed
		c.mu.Unlock()
		if ok && ((p.hasVer && p.version >= version) || (!p.hasVer && !p.at.Before(since))) {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		case <-c.conn.Done():
			return false
		}
	}
}

// Locations asks a location request (textDocument/definition,
// references, implementation) at pos in path.
func (c *Client) Locations(ctx context.Context, method, path string, pos Position) ([]WireLocation, error) {
	params := map[string]any{"textDocument": map[string]any{"uri": URI(path)}, "position": pos}
	if method == "textDocument/references" {
		params["context"] = map[string]any{"includeDeclaration": true}
	}
	var raw json.RawMessage
	if err := c.conn.Call(ctx, method, params, &raw); err != nil {
		return nil, err
	}
	return decodeLocations(raw), nil
}

// decodeLocations reads Location, Location[] or LocationLink[].
func decodeLocations(raw json.RawMessage) []WireLocation {
	var one WireLocation
	if json.Unmarshal(raw, &one) == nil && one.URI != "" {
		return []WireLocation{one}
	}
	var list []struct {
		WireLocation
		TargetURI            string `json:"targetUri"`
		TargetSelectionRange Range  `json:"targetSelectionRange"`
	}
	json.Unmarshal(raw, &list)
	var out []WireLocation
	for _, l := range list {
		if l.TargetURI != "" {
			out = append(out, WireLocation{URI: l.TargetURI, Range: l.TargetSelectionRange})
		} else if l.URI != "" {
			out = append(out, l.WireLocation)
		}
	}
	return out
}

// Shutdown sends shutdown then exit; the caller ends the process group
// after its shutdown timeout.
func (c *Client) Shutdown(ctx context.Context) error {
	err := c.conn.Call(ctx, "shutdown", nil, nil)
	c.conn.Notify("exit", nil)
	return err
}
