package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/listing"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/skills"
	"github.com/agentdesk/agentdesk/agent/tools"
)

// Tool names of the catalog: skill loads a skill by name (Claude Code's
// Skill tool), tool_search finds skills, agents and commands the request
// lists by name only or not at all, and the MCP tools past the budget.
const (
	skillToolName  = "skill"
	searchToolName = "tool_search"
)

// window is the context window of the configured model, or the default:
// during a user turn the one it started with (freezeWindow), since the
// catalog, the MCP tools and every child of the turn are fitted to it and
// reading the provider's settings each time is not free.
func (s *Session) window() int {
	s.mu.Lock()
	frozen := s.turnWindow
	s.mu.Unlock()
	if frozen > 0 {
		return frozen
	}
	if _, cfg, err := s.a.cfg.Provider(); err == nil {
		return cfg.WithDefaults().ContextWindow
	}
	return listing.DefaultWindow
}

// freezeWindow fixes the window for the user turn about to run; the
// returned func ends the turn's hold on it.
func (s *Session) freezeWindow() (thaw func()) {
	w := s.window()
	s.mu.Lock()
	s.turnWindow = w
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.turnWindow = 0
		s.mu.Unlock()
	}
}

// markUsed remembers that the session used a skill or an agent: the next
// catalog lists it first, in full.
func (s *Session) markUsed(kind, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used == nil {
		s.used = map[string]bool{}
	}
	s.used[kind+"\x00"+name] = true
}

func (s *Session) wasUsed(kind, name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used[kind+"\x00"+name]
}

// catalogEntries are the skills and agents the request lists, the
// user's and project's own skills and what the session used first.
func (s *Session) catalogEntries(catalog skills.Catalog, agents []lifecycle.Agent) []listing.Entry {
	return catalogEntries(catalog, agents, s.wasUsed)
}

func catalogEntries(catalog skills.Catalog, agents []lifecycle.Agent, used func(kind, name string) bool) []listing.Entry {
	var out []listing.Entry
	for _, sk := range catalog.Skills {
		own := !strings.HasPrefix(sk.Source, "extension ")
		out = append(out, listing.Entry{Kind: listing.KindSkill, Name: sk.Name, Description: sk.Description, Owner: strings.TrimPrefix(sk.Source, "extension "),
			First: own || used(listing.KindSkill, sk.Name), Use: `load it with the skill tool: {"name": "` + sk.Name + `"}`})
	}
	for _, ag := range agents {
		out = append(out, listing.Entry{Kind: listing.KindAgent, Name: ag.Name, Description: ag.Description, Owner: ag.Extension,
			First: ag.Type == GeneralPurpose || used(listing.KindAgent, ag.Name),
			Use:   `delegate with the task tool: {"subagent_type": "` + ag.Name + `", ...}`})
	}
	return out
}

// fit is the session's catalog fitted to the window's budget. The
// latest fit (of any session) is kept while its entries and budget stay
// the same: a turn asks for it for the task tool and for the system
// prompt of every request, and a new session's is most often the same.
func (s *Session) fit(catalog skills.Catalog, agents []lifecycle.Agent) listing.Fit {
	entries, budget := s.catalogEntries(catalog, agents), listing.Budget(s.window())
	var h maphash.Hash
	h.SetSeed(fitSeed)
	h.WriteString(strconv.Itoa(budget))
	for _, e := range entries {
		for _, part := range []string{e.Kind, e.Name, e.Owner, e.Description, strconv.FormatBool(e.First)} {
			h.WriteString(part)
			h.WriteByte(0)
		}
	}
	key := fitKey{hash: h.Sum64(), entries: len(entries), budget: budget}
	if memo := s.a.lastFit.Load(); memo != nil && memo.key == key {
		return memo.fit
	}
	f := listing.FitTo(entries, budget)
	s.a.lastFit.Store(&fitMemo{key: key, fit: f})
	return f
}

// fitMemo is a fitted catalog and what it was fitted from.
type fitMemo struct {
	key fitKey
	fit listing.Fit
}

// fitKey names a catalog's entries and budget: a 64-bit hash of every
// field the fit reads (building a string of them cost more than the fit).
type fitKey struct {
	hash            uint64
	entries, budget int
}

var fitSeed = maphash.MakeSeed()

// CatalogFit is how a new session's catalog fits the model's budget,
// for Preferences: the whole and each extension's share.
type CatalogFit struct {
	// Text is the whole: "181 skills, 86 agents: 12.1 KB of 13.1 KB
	// (10% of a 32768-token window); 140 listed by name only".
	Text   string
	Budget int // bytes
	// Shares are by extension id ("user" and "project" for those skills).
	Shares map[string]listing.Share
}

// CatalogFit says how a new session's catalog in project fits the
// current model's budget.
func (a *Agent) CatalogFit(project string) CatalogFit {
	window := listing.DefaultWindow
	if _, cfg, err := a.cfg.Provider(); err == nil {
		window = cfg.WithDefaults().ContextWindow
	}
	catalog, agents := a.Catalog(project), a.Subagents(project).Agents
	f := listing.FitTo(catalogEntries(catalog, agents, func(string, string) bool { return false }), listing.Budget(window))
	bytes := len(f.Render(listing.KindSkill, "skills")) + len(f.Render(listing.KindAgent, "agents"))
	_, names, hidden := f.Counts()
	text := fmt.Sprintf("%s, %s: %s of %s (10%% of a %d-token window)",
		count(len(catalog.Skills), "skill"), count(len(agents), "agent"), KB(bytes), KB(f.Budget), window)
	if names > 0 {
		text += fmt.Sprintf("; %d listed by name only", names)
	}
	if hidden > 0 {
		text += fmt.Sprintf("; %d not listed (tool_search finds them)", hidden)
	}
	return CatalogFit{Text: text, Budget: f.Budget, Shares: f.Shares()}
}

// KB words a byte count as the catalog lines do: "12.1 KB".
func KB(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/1000) }

const skillsIntro = "# Skills\n\nSkills are instructions for particular tasks. When a task matches a skill's description, load it by name with the `skill` tool before you act; `tool_search` finds skills, agents and commands not described here."

// skillsSection is the system prompt's fitted skills list: names and
// descriptions, no paths.
func skillsSection(f listing.Fit) string {
	list := f.Render(listing.KindSkill, "skills")
	if list == "" {
		return ""
	}
	return skillsIntro + "\n" + list
}

// threadCatalog is the skills catalog th lists and loads: the session's,
// narrowed for a child to the skills its agent names (childDef.skills),
// and none for a child whose allowlist does not give it the skill tool,
// which could not load them. The skills an agent names are its own to
// load whatever its tools list says, as Claude Code preloads them.
func (s *Session) threadCatalog(th *thread) skills.Catalog {
	if th == s.main {
		return s.Catalog()
	}
	if !catalogAllowed(th.only, skillToolName, len(th.skills) > 0) {
		return skills.Catalog{}
	}
	catalog := s.Catalog()
	if th.skills != nil {
		catalog = catalog.Only(th.skills)
	}
	return catalog
}

// shelfOf is th's shelf of deferred MCP tools this turn (nil: none).
func (s *Session) shelfOf(th *thread) *mcpShelf {
	s.mu.Lock()
	defer s.mu.Unlock()
	return th.mcp
}

// catalogTools are the skill and tool_search tools of th this turn (call
// after mcpTools: the deferred MCP tools count). The main thread gets
// both when there is anything to load or find. A child gets skill when
// its catalog has skills (threadCatalog: as its allowlist grants Claude
// Code's Skill) and tool_search when it has skills or deferred MCP
// tools, unless its agent disallows ToolSearch.
func (s *Session) catalogTools(th *thread) []tools.Tool {
	shelved := len(s.shelfOf(th).entries()) > 0
	if th == s.main {
		if len(s.Catalog().Skills) == 0 && len(s.taskAgents()) == 0 && len(s.view().Commands().Commands) == 0 && !shelved {
			return nil
		}
		return []tools.Tool{&skillTool{s: s, th: th}, &searchTool{s: s, th: th}}
	}
	var out []tools.Tool
	hasSkills := len(s.threadCatalog(th).Skills) > 0 // granted, or none
	if hasSkills {
		out = append(out, &skillTool{s: s, th: th})
	}
	if (hasSkills || shelved) && catalogAllowed(th.only, searchToolName, hasSkills || shelved) {
		out = append(out, &searchTool{s: s, th: th})
	}
	return out
}

// catalogAllowed reports whether an allowlist (nil: everything) gives a
// child the catalog tool name: as listed or disallowed (childTools keeps
// a disallowed one as false), else implied. tool_search is implied by
// skill (the listing sends the model to it for the skills it lists by
// name only) and by MCP tools the agent may call that wait for it.
func catalogAllowed(only map[string]bool, name string, implied bool) bool {
	if only == nil {
		return true
	}
	if granted, listed := only[name]; listed {
		return granted
	}
	return implied
}

type skillArgs struct {
	Name string `json:"name" jsonschema:"required" jsonschema_description:"The skill's name, as listed or as tool_search found it."`
}

var skillSchema = tools.SchemaOf(&skillArgs{})

type skillTool struct {
	s  *Session
	th *thread
}

func (t *skillTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: skillToolName, Parameters: skillSchema,
		Description: "Load a skill by name: returns its SKILL.md instructions and the folder holding its other files (read those with the read tools when it points to them)."}
}
func (t *skillTool) Kind() tools.Kind { return tools.ReadOnly }
func (t *skillTool) Preview(args json.RawMessage) (tools.Preview, error) {
	var a skillArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Preview{}, err
	}
	return tools.Preview{Title: "Load skill " + a.Name}, nil
}
func (t *skillTool) Describe(args json.RawMessage) string {
	var a skillArgs
	json.Unmarshal(args, &a)
	return "skill " + a.Name
}

func (t *skillTool) Run(ctx context.Context, args json.RawMessage) tools.Result {
	var a skillArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{Text: "arguments are not a JSON object: " + err.Error(), IsError: true}
	}
	text, err := t.s.loadSkill(t.th, strings.TrimSpace(a.Name))
	if err != nil {
		return tools.Result{Text: err.Error(), IsError: true}
	}
	t.s.markUsed(listing.KindSkill, a.Name)
	return tools.Result{Text: text}
}

// loadSkill reads a skill's SKILL.md with ${CLAUDE_SKILL_DIR} and
// ${CLAUDE_PLUGIN_ROOT} replaced, and names its folder.
func (s *Session) loadSkill(th *thread, name string) (string, error) {
	roots := s.skillRoots()
	catalog := s.threadCatalog(th)
	var names []string
	for _, sk := range catalog.Skills {
		names = append(names, sk.Name)
		if sk.Name != name {
			continue
		}
		data, err := os.ReadFile(sk.File())
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("skill %q is listed but its %s is gone (%s was removed or moved); it cannot be loaded until it is restored", name, skills.FileName, sk.Dir)
			}
			return "", fmt.Errorf("skill %q: cannot read its %s: %w", name, skills.FileName, err)
		}
		text := string(data)
		for _, r := range roots {
			if rel, err := filepath.Rel(r.Dir, sk.Dir); err == nil && !strings.HasPrefix(rel, "..") {
				text, _ = r.ExpandSkill(sk.File(), text)
				break
			}
		}
		return text + "\n\n(The skill's folder is " + sk.Dir + "; files it mentions are there.)", nil
	}
	msg := fmt.Sprintf("no skill named %q", name)
	if close := listing.Close(names, name); len(close) > 0 {
		msg += "; close names: " + strings.Join(close, ", ")
	}
	return "", errors.New(msg + " (tool_search finds skills by what they do)")
}

type searchArgs struct {
	Query string `json:"query" jsonschema:"required" jsonschema_description:"Words for what you need: matched against the names and descriptions of skills, agents, commands and MCP tools."`
}

var searchSchema = tools.SchemaOf(&searchArgs{})

type searchTool struct {
	s  *Session
	th *thread
}

func (t *searchTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: searchToolName, Parameters: searchSchema,
		Description: "Search the skills, agents, commands and MCP tools of the user's extensions (more than the request lists) by name and description; returns up to 5, best first, each with how to use it. An MCP tool it returns can be called from your next step on."}
}
func (t *searchTool) Kind() tools.Kind { return tools.ReadOnly }
func (t *searchTool) Preview(args json.RawMessage) (tools.Preview, error) {
	var a searchArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Preview{}, err
	}
	return tools.Preview{Title: "Search extensions for " + a.Query}, nil
}
func (t *searchTool) Describe(args json.RawMessage) string {
	var a searchArgs
	json.Unmarshal(args, &a)
	return "tool_search " + a.Query
}

// searchResults is the most tool_search returns; maxMCPSearchDesc bounds
// an MCP tool's description in its answer.
const (
	searchResults    = 5
	maxMCPSearchDesc = 2000
)

func (t *searchTool) Run(ctx context.Context, args json.RawMessage) tools.Result {
	var a searchArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{Text: "arguments are not a JSON object: " + err.Error(), IsError: true}
	}
	s, th := t.s, t.th
	entries := s.searchEntries(th)
	hits := listing.Search(entries, a.Query, searchResults)
	if len(hits) == 0 {
		return tools.Result{Text: fmt.Sprintf("nothing matches %q among %d skills, agents, commands and MCP tools", a.Query, len(entries))}
	}
	var b strings.Builder
	for i, h := range hits {
		desc, use := oneLine(h.Description, 300), h.Use
		if h.Kind == kindMCP {
			// The model is to call it: the whole description, and the schema.
			desc, use = oneLine(h.Description, maxMCPSearchDesc), s.findMCP(th, h.Name)
		}
		fmt.Fprintf(&b, "%d. %s %s — %s\n   use: %s\n", i+1, h.Kind, h.Name, desc, use)
	}
	return tools.Result{Text: strings.TrimRight(b.String(), "\n")}
}

// searchEntries are what tool_search searches for th: its skills and
// deferred MCP tools, and for the main thread (which alone delegates and
// whose user types commands) the agents and commands too.
func (s *Session) searchEntries(th *thread) []listing.Entry {
	if th != s.main {
		return append(s.catalogEntries(s.threadCatalog(th), nil), s.shelfOf(th).entries()...)
	}
	entries := s.catalogEntries(s.Catalog(), s.taskAgents())
	for _, c := range s.view().Commands().Commands {
		entries = append(entries, listing.Entry{Kind: listing.KindCommand, Name: c.Name, Description: c.Description,
			Use: "a slash command the user types: /" + c.Name + " " + c.ArgumentHint})
	}
	return append(entries, s.shelfOf(th).entries()...)
}

// count is "1 skill", "2 skills".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
