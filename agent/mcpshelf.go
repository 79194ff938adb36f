package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// kindMCP is the listing kind of a deferred MCP tool in tool_search.
const kindMCP = "MCP tool"

// mcpShelf holds the MCP tools of one thread turn that did not fit the
// budget (issue 33): tool_search finds them, and a tool it found is
// offered from the thread's next request on, after all the others, so
// the request before it (the cached prefix) stays as it was. The shelf
// is filled from the tool list the turn froze, so a found tool is one
// that list holds: nothing a server changed mid-turn.
type mcpShelf struct {
	mu       sync.Mutex
	deferred []lifecycle.ToolDescriptor // in the list's order, found ones included
	found    []tools.Tool               // in the order found
	isFound  map[string]bool            // by shelfKey
}

// shelfKey names a tool by its identity and its model-facing name: a
// tool found once is found again at the next turn only if it is the same
// tool under the same name.
func shelfKey(d lifecycle.ToolDescriptor) string { return d.ID.Key() + "\x00" + d.Name }

// offered are the found tools, in the order found (nil-safe).
func (sh *mcpShelf) offered() []tools.Tool {
	if sh == nil {
		return nil
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return append([]tools.Tool(nil), sh.found...)
}

// counts are how many shelved tools are found and how many still wait.
func (sh *mcpShelf) counts() (found, waiting int) {
	if sh == nil {
		return 0, 0
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return len(sh.found), len(sh.deferred) - len(sh.found)
}

// entries are the shelved tools as tool_search entries.
func (sh *mcpShelf) entries() []listing.Entry {
	if sh == nil {
		return nil
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	out := make([]listing.Entry, len(sh.deferred))
	for i, d := range sh.deferred {
		out[i] = listing.Entry{Kind: kindMCP, Name: d.Name, Description: d.Description}
	}
	return out
}

// take marks the shelved tool name found; already reports that it was
// found before. ok is false when no tool of that name is shelved.
func (sh *mcpShelf) take(name string) (d lifecycle.ToolDescriptor, already, ok bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for _, d := range sh.deferred {
		if d.Name != name {
			continue
		}
		if sh.isFound[shelfKey(d)] {
			return d, true, true
		}
		sh.isFound[shelfKey(d)] = true
		sh.found = append(sh.found, &mcpTool{d: d})
		return d, false, true
	}
	return lifecycle.ToolDescriptor{}, false, false
}

// shelve puts th's deferred tools on a new shelf for its turn, with the
// tools the session found before (in the order found) offered again, and
// keeps it on th for tool_search.
func (s *Session) shelve(th *thread, deferred []lifecycle.ToolDescriptor) *mcpShelf {
	sh := &mcpShelf{deferred: deferred, isFound: map[string]bool{}}
	byKey := map[string]lifecycle.ToolDescriptor{}
	for _, d := range deferred {
		byKey[shelfKey(d)] = d
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.mcpFound {
		if d, ok := byKey[k]; ok && !sh.isFound[k] {
			sh.isFound[k] = true
			sh.found = append(sh.found, &mcpTool{d: d})
		}
	}
	th.mcp = sh
	return sh
}

// findMCP marks a tool of th's shelf found (for the rest of the session
// when th is the main thread; a child's for the rest of its run) and says
// how the model calls it.
func (s *Session) findMCP(th *thread, name string) string {
	sh := s.shelfOf(th)
	if sh == nil {
		return ""
	}
	d, already, ok := sh.take(name)
	if !ok {
		return ""
	}
	if !already && th == s.main {
		s.mu.Lock()
		s.mcpFound = append(s.mcpFound, shelfKey(d))
		s.mu.Unlock()
		s.countMCP(-1, sh)
	}
	var schema bytes.Buffer
	if json.Compact(&schema, d.Schema) != nil {
		schema.Reset()
		schema.Write(d.Schema)
	}
	return fmt.Sprintf("now callable (from your next step on; every call is approved as usual) with arguments of this input schema: %s", schema.String())
}

// MCPCount is how a session's MCP tools fare against the budget.
type MCPCount struct {
	Offered  int // in the request, found ones included
	OnSearch int // waiting for tool_search
}

// Text is "MCP tools: 12 offered, 140 on search"; "" when none wait.
func (c MCPCount) Text() string {
	if c.OnSearch == 0 {
		return ""
	}
	return fmt.Sprintf("MCP tools: %d offered, %d on search", c.Offered, c.OnSearch)
}

// countMCP records the main thread's MCP tool count: fitted of them fit
// the budget (-1: as counted before), the shelf has the rest.
func (s *Session) countMCP(fitted int, sh *mcpShelf) {
	found, waiting := sh.counts()
	s.mu.Lock()
	if fitted < 0 {
		fitted = s.mcpFitted
	}
	s.mcpFitted = fitted
	c := MCPCount{Offered: fitted + found, OnSearch: waiting}
	s.mcpCount = c
	s.mu.Unlock()
	s.a.lastMCP.Store(&c)
}

// MCPCount is how the session's MCP tools fare against the budget, as of
// its latest turn.
func (s *Session) MCPCount() MCPCount {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mcpCount
}

// MCPToolsSize says, for Providers, what the MCP tools of one request may
// take in a window of windowTokens and how the latest session's fared:
// "MCP tools: 13.1 KB (10% of the window); 12 offered, 140 on search".
func (a *Agent) MCPToolsSize(windowTokens int) string {
	text := fmt.Sprintf("MCP tools: at most %.1f KB a request (%d%% of the window, Preferences → Advanced)",
		float64(MCPToolBudget(windowTokens, a.mcpToolShare()))/1000, a.mcpToolShare())
	if c := a.lastMCP.Load(); c != nil {
		if c.OnSearch > 0 {
			text += fmt.Sprintf("; latest session: %d offered, %d on search", c.Offered, c.OnSearch)
		} else if c.Offered > 0 {
			text += fmt.Sprintf("; latest session: all %d offered", c.Offered)
		}
	}
	return text
}
