package extensions

import (
	"github.com/agentdesk/agentdesk/agent/safetext"
)

// Text a package wrote reaches a terminal or a label only through these:
// escape sequences, control, bidi and invisible characters in a name, a
// description or a diagnostic are removed, and in a command, which must
// read exactly as it runs, shown as \x1b or \u202e (safetext). JSON
// output keeps the data as it is, with every such character escaped
// (safetext.JSON).

// ForDisplay is i made safe to show.
func (i Info) ForDisplay() Info {
	s := safetext.Strip
	i.Name, i.Version, i.Description, i.LastError, i.ReviewReason = s(i.Name), s(i.Version), s(i.Description), s(i.LastError), s(i.ReviewReason)
	i.Homepage, i.Author, i.License, i.PluginSource = s(i.Homepage), s(i.Author), s(i.License), s(i.PluginSource)
	i.ID, i.Plugin = s(i.ID), s(i.Plugin)
	v := safetext.Visible // what names a place or a revision exactly
	i.SourceURL, i.RequestedRef, i.Commit, i.PreviousCommit = v(i.SourceURL), v(i.RequestedRef), v(i.Commit), v(i.PreviousCommit)
	i.Dir, i.DataDir = v(i.Dir), v(i.DataDir)
	i.EnabledProjects = mapStrings(i.EnabledProjects, v)
	i.Hooks = safeHooks(i.Hooks)
	i.Diagnostics = mapStrings(i.Diagnostics, s)
	skills := make([]Skill, len(i.Skills))
	for k, sk := range i.Skills {
		sk.Name, sk.Description, sk.Path = s(sk.Name), s(sk.Description), v(sk.Path)
		skills[k] = sk
	}
	i.Skills = skills
	i.Commands = safeCommands(i.Commands)
	i.Agents = safeAgents(i.Agents)
	i.OutputStyles = safeStyles(i.OutputStyles)
	i.MCPServers = safeServers(i.MCPServers)
	i.PendingTools = safePending(i.PendingTools)
	i.LSPServers = safeLSPServers(i.LSPServers)
	opts := make([]OptionValue, len(i.Options))
	for k, o := range i.Options {
		o.Title, o.Description, o.Value, o.Default = s(o.Title), s(o.Description), s(o.Value), s(o.Default)
		o.Key, o.Type = s(o.Key), s(o.Type)
		opts[k] = o
	}
	i.Options = opts
	runs := make([]Run, len(i.RecentRuns))
	for k, r := range i.RecentRuns {
		r.Argv, r.Error, r.Event = mapStrings(r.Argv, safetext.Visible), s(r.Error), s(r.Event)
		runs[k] = r
	}
	i.RecentRuns = runs
	return i
}

// ForDisplay is t made safe to show; its Hash still names the hooks as
// they are.
func (t Trust) ForDisplay() Trust {
	t.Name, t.Reason = safetext.Strip(t.Name), safetext.Strip(t.Reason)
	t.Hooks, t.NotRun = safeHooks(t.Hooks), safeHooks(t.NotRun)
	t.Commands = safeCommands(t.Commands)
	t.Agents = safeAgents(t.Agents)
	t.OutputStyles = safeStyles(t.OutputStyles)
	t.MCPServers, t.NotRunServers = safeServers(t.MCPServers), safeServers(t.NotRunServers)
	t.LSPServers, t.NotRunLSP = safeLSPServers(t.LSPServers), safeLSPServers(t.NotRunLSP)
	return t
}

// safeServers shows what a server runs or reaches exactly (Visible), and
// its names and messages stripped.
func safeServers(servers []MCPServer) []MCPServer {
	out := make([]MCPServer, len(servers))
	for k, sv := range servers {
		sv.Name, sv.Source, sv.Inactive, sv.Error, sv.Stderr = safetext.Strip(sv.Name), safetext.Strip(sv.Source),
			safetext.Strip(sv.Inactive), safetext.Strip(sv.Error), safetext.Strip(sv.Stderr)
		sv.Argv, sv.Cwd, sv.URL = mapStrings(sv.Argv, safetext.Visible), safetext.Visible(sv.Cwd), safetext.Visible(sv.URL)
		sv.Env, sv.Headers, sv.UserEnv = mapStrings(sv.Env, safetext.Visible), mapStrings(sv.Headers, safetext.Visible), mapStrings(sv.UserEnv, safetext.Visible)
		sv.Withheld = mapStrings(sv.Withheld, safetext.Visible)
		sv.Tools = mapStrings(sv.Tools, safetext.Strip)
		sv.KnownTools, sv.ToolsOff = mapStrings(sv.KnownTools, safetext.Visible), mapStrings(sv.ToolsOff, safetext.Visible)
		sv.Type, sv.State = safetext.Strip(sv.Type), safetext.Strip(sv.State)
		sv.ToolPrefix, sv.SameNameAs = safetext.Visible(sv.ToolPrefix), mapStrings(sv.SameNameAs, safetext.Strip)
		out[k] = sv
	}
	return out
}

// safePending shows a server's tool definitions exactly, escapes visible:
// they are what the model would read.
func safePending(tools []PendingTool) []PendingTool {
	out := make([]PendingTool, len(tools))
	for k, t := range tools {
		v := safetext.Visible
		t.Server, t.Tool, t.Change, t.Hash = v(t.Server), v(t.Tool), v(t.Change), v(t.Hash)
		t.Description, t.Schema, t.WasDescription, t.WasSchema = v(t.Description), v(t.Schema), v(t.WasDescription), v(t.WasSchema)
		out[k] = t
	}
	return out
}

func safeHooks(hooks []Hook) []Hook {
	out := make([]Hook, len(hooks))
	for k, h := range hooks {
		h.Argv = mapStrings(h.Argv, safetext.Visible)
		h.Matcher, h.Inactive, h.LastError = safetext.Visible(h.Matcher), safetext.Strip(h.Inactive), safetext.Strip(h.LastError)
		h.If = safetext.Visible(h.If)
		h.CommandWindows, h.Shell = safetext.Visible(h.CommandWindows), safetext.Visible(h.Shell)
		h.Event, h.Key = safetext.Strip(h.Event), safetext.Visible(h.Key)
		out[k] = h
	}
	return out
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for k, v := range in {
		out[k] = f(v)
	}
	return out
}

func safeCommands(commands []Command) []Command {
	out := make([]Command, len(commands))
	for k, c := range commands {
		c.Name, c.Description, c.ArgumentHint = safetext.Strip(c.Name), safetext.Strip(c.Description), safetext.Strip(c.ArgumentHint)
		c.AllowedTools, c.Path = mapStrings(c.AllowedTools, safetext.Strip), safetext.Visible(c.Path)
		out[k] = c
	}
	return out
}

func safeAgents(agents []Agent) []Agent {
	out := make([]Agent, len(agents))
	for k, a := range agents {
		a.Name, a.Description, a.Model, a.Color = safetext.Strip(a.Name), safetext.Strip(a.Description), safetext.Strip(a.Model), safetext.Strip(a.Color)
		a.Path = safetext.Visible(a.Path)
		if a.Tools != nil {
			a.Tools = mapStrings(a.Tools, safetext.Strip)
		}
		out[k] = a
	}
	return out
}
