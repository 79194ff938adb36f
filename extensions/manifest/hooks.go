package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
)

// The events AgentDesk dispatches, by their agent/lifecycle names (its
// event table says each one's kind and matcher field). Hooks for any
// other event are reported and ignored.
const (
	EventSessionStart        = lifecycle.EventSessionStart
	EventUserPromptSubmit    = lifecycle.EventUserPromptSubmit
	EventSubagentStart       = lifecycle.EventSubagentStart
	EventSubagentStop        = lifecycle.EventSubagentStop
	EventPreToolUse          = lifecycle.EventPreToolUse
	EventPostToolUse         = lifecycle.EventPostToolUse
	EventPostToolUseFailure  = lifecycle.EventPostToolUseFailure
	EventPermissionRequest   = lifecycle.EventPermissionRequest
	EventUserPromptExpansion = lifecycle.EventUserPromptExpansion
	EventNotification        = lifecycle.EventNotification
	EventStop                = lifecycle.EventStop
	EventSessionEnd          = lifecycle.EventSessionEnd
	EventPreCompact          = lifecycle.EventPreCompact
)

// defaultHooksFile is read besides the manifest's "hooks" field.
const defaultHooksFile = "hooks/hooks.json"

// maxTimeoutSeconds only guards the int conversion of absurd values; the
// runner applies the real ceiling.
const maxTimeoutSeconds = 24 * 60 * 60

// Hook is one command handler of a dispatched event, validated but with
// variables not yet expanded.
type Hook struct {
	Event         string   // a row of lifecycle.Events()
	Matcher       string   // as written; "" matches everything
	If            string   `json:",omitempty"` // a tool event's condition (permission-rule syntax), as written
	Command       string   // as written, for display and the trust diff
	Argv          []string // tokens with variables unexpanded, e.g. "${CLAUDE_PLUGIN_ROOT}/hooks/x.js"
	Timeout       int      // seconds from the manifest; 0 = host default
	StatusMessage string
	IgnoreExit    bool     // a trailing "; exit 0" or "|| true" was removed
	Inactive      string   // why this hook will not run; empty when it can
	Files         []string // package-relative files the argv names, sorted, unique

	// Recorded as written, shown in the details, never run: AgentDesk
	// execs argv on every system and uses no shell. CommandWindows is
	// the shell command meant for Windows (Ponytail's is PowerShell);
	// Shell is "bash" (the default) or "powershell", and a PowerShell
	// hook is inactive because its command is PowerShell code.
	CommandWindows string `json:",omitempty"`
	Shell          string `json:",omitempty"`
}

// Key identifies the hook for the dispatcher, which runs each (extension,
// argv) pair once per event.
func (h Hook) Key() string {
	key := h.Event + "\x00" + strings.Join(h.Argv, "\x00")
	if h.If != "" {
		key += "\x00if\x00" + h.If // one script may run under several conditions
	}
	return key
}

// handler is one entry of a matcher group's "hooks" list as written.
type handler struct {
	Type           string   `json:"type"`
	Command        string   `json:"command"`
	Args           []string `json:"args"`
	Timeout        *float64 `json:"timeout"`
	StatusMessage  string   `json:"statusMessage"`
	CommandWindows string   `json:"commandWindows"`
	Shell          string   `json:"shell"`
	If             string   `json:"if"`
	Async          bool     `json:"async"`
	AsyncRewake    bool     `json:"asyncRewake"`
}

type matcherGroup struct {
	Matcher *string           `json:"matcher"`
	Hooks   []json.RawMessage `json:"hooks"`
}

// loadHooks reads hooks/hooks.json and adds the hooks the manifest
// declares (a path, a list of paths, or inline), as Claude Code does; a
// file named twice is read once and an identical hook kept once. In a
// Codex-only plugin the manifest's field replaces the default file, and an
// empty one ({}) means no hooks.
func (l *loader) loadHooks(manifestPath string, raw json.RawMessage) error {
	read := map[string]bool{}
	if !(l.codexOnly && !isNull(raw)) && l.root.exists(defaultHooksFile) {
		if err := l.loadHooksFile(defaultHooksFile); err != nil {
			return err
		}
		read[filepath.Clean(defaultHooksFile)] = true
	}
	err := l.loadManifestHooks(raw, read)
	if err != nil && l.fromCodex["hooks"] {
		l.note("ignored \"hooks\" of %s: %v", codexManifest, err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	return nil
}

func (l *loader) loadManifestHooks(raw json.RawMessage, read map[string]bool) error {
	switch kind(raw) {
	case 0, 'n':
		return nil
	case '{':
		if err := l.parseHooksConfig(raw); err != nil {
			return fmt.Errorf("hooks: %w", err)
		}
		return nil
	}
	var paths []string
	var one string
	if json.Unmarshal(raw, &one) == nil {
		paths = []string{one}
	} else if err := json.Unmarshal(raw, &paths); err != nil {
		return errors.New(`"hooks" must be a path, a list of paths or an object`)
	}
	for _, p := range paths {
		if clean, err := cleanRelative(p); err == nil && read[clean] {
			continue
		} else if err == nil {
			read[clean] = true
		}
		if err := l.loadHooksFile(p); err != nil {
			return fmt.Errorf("hooks file %w", err)
		}
	}
	return nil
}

func (l *loader) loadHooksFile(rel string) error {
	real, clean, err := l.root.resolve(rel)
	if err != nil {
		return err
	}
	data, err := readRegular(real, clean, MaxHooksFileBytes)
	if err != nil {
		return err
	}
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		return fmt.Errorf("%s: %w", clean, syntaxError(data, err))
	}
	if err := l.parseHooksConfig(whole); err != nil {
		return fmt.Errorf("%s: %w", clean, err)
	}
	return nil
}

// parseHooksConfig accepts both shapes real plugins use: {"hooks": {Event:
// […]}} and the bare {Event: […]} map. An empty object means no hooks.
func (l *loader) parseHooksConfig(raw json.RawMessage) error {
	members, err := orderedMembers(raw)
	if err != nil {
		return err
	}
	if i := slices.IndexFunc(members, func(m member) bool { return m.key == "hooks" }); i >= 0 {
		if members, err = orderedMembers(members[i].value); err != nil {
			return fmt.Errorf("hooks: %w", err)
		}
	}
	for _, m := range members {
		if err := l.parseEvent(m.key, m.value); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) parseEvent(event string, raw json.RawMessage) error {
	spec, ok := lifecycle.LookupClaudeEvent(event)
	if !ok {
		l.note("declares %s hooks: not supported, ignored", event)
		return nil
	}
	event = spec.Name
	var groups []matcherGroup
	if kind(raw) != '[' {
		return l.forgive(event, fmt.Errorf("%s: must be a list of {matcher, hooks}", event))
	}
	if err := decodeInto(raw, &groups); err != nil {
		return l.forgive(event, fmt.Errorf("%s: %w", event, err))
	}
	for i, g := range groups {
		where := fmt.Sprintf("%s[%d]", event, i)
		if err := l.forgive(where, l.parseGroup(event, where, g)); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) parseGroup(event, where string, g matcherGroup) error {
	var matcher string
	if g.Matcher != nil {
		matcher = *g.Matcher
	}
	if _, err := CompileMatcher(matcher); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	for j, raw := range g.Hooks {
		hookWhere := fmt.Sprintf("%s.hooks[%d]", where, j)
		var h handler
		if err := decodeInto(raw, &h); err != nil {
			return fmt.Errorf("%s: %w", hookWhere, err)
		}
		if h.Type != "command" {
			l.noteUnsupportedHandler(event, h.Type)
			continue
		}
		if err := l.forgive(hookWhere, l.addHook(event, matcher, hookWhere, h)); err != nil {
			return fmt.Errorf("%s: %w", hookWhere, err)
		}
	}
	return nil
}

func (l *loader) noteUnsupportedHandler(event, handlerType string) {
	if handlerType == "" {
		l.note(`declares a %s hook without "type": not supported, ignored`, event)
		return
	}
	l.note("declares a %q hook for %s: not supported, ignored", handlerType, event)
}

func (l *loader) addHook(event, matcher, where string, h handler) error {
	timeout, err := timeoutSeconds(h.Timeout)
	if err != nil {
		return err
	}
	cmd, err := parseCommand(h.Command, h.Args)
	if err != nil {
		return err
	}
	hook := Hook{
		Event: event, Matcher: matcher, Command: h.Command, Argv: cmd.argv,
		Timeout: timeout, StatusMessage: h.StatusMessage, IgnoreExit: cmd.ignoreExit,
		CommandWindows: h.CommandWindows, Shell: h.Shell,
	}
	l.addCondition(&hook, h.If)
	switch {
	case h.Async || h.AsyncRewake:
		hook.Inactive = asyncReason
	case h.Shell != "" && h.Shell != "bash" && h.Shell != "powershell":
		hook.Inactive = fmt.Sprintf("shell %q is not one AgentDesk knows (bash or powershell)", h.Shell)
	case h.Shell == "powershell":
		hook.Inactive = powerShellReason
	case cmd.needsShell:
		hook.Inactive = needsShellReason
	default:
		err = l.checkArgv(&hook)
	}
	if err != nil {
		return err
	}
	if hook.Inactive != "" {
		l.note("%s hook %s is inactive: %s", event, displayCommand(hook), hook.Inactive)
	}
	if slices.ContainsFunc(l.pkg.Hooks, func(h Hook) bool { return h.Key() == hook.Key() && h.Matcher == hook.Matcher }) {
		return nil // the same hook from hooks/hooks.json and the manifest runs once
	}
	l.pkg.Hooks = append(l.pkg.Hooks, hook)
	return nil
}

// asyncReason is Hook.Inactive for "async" and "asyncRewake" hooks, which
// Claude Code runs in the background and which may wake the model later.
const asyncReason = "this hook runs in the background (async); AgentDesk runs hooks only within the turn"

// addCondition keeps a tool event's "if". One AgentDesk cannot read, or on
// another event, is noted; the hook then runs for every matching call: a
// guard hook that runs too often can only deny or remark more.
func (l *loader) addCondition(h *Hook, cond string) {
	if strings.TrimSpace(cond) == "" {
		return
	}
	if !ifEvents[h.Event] {
		l.note("%s hook %s: \"if\" applies to tool events only; ignored", h.Event, displayCommand(*h))
		return
	}
	if _, err := CompileCondition(cond); err != nil {
		l.note("%s hook %s: %v; it runs for every call its matcher matches", h.Event, displayCommand(*h), err)
		return
	}
	h.If = strings.TrimSpace(cond)
}

func timeoutSeconds(v *float64) (int, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 0 {
		return 0, fmt.Errorf("timeout %v must not be negative", *v)
	}
	return int(math.Min(math.Ceil(*v), maxTimeoutSeconds)), nil
}

// checkArgv validates every token that names a package file, records the
// files for the tamper check, notes unknown variables, and decides whether
// the program itself can run.
func (l *loader) checkArgv(h *Hook) error {
	if err := l.anchorScripts(h.Argv, ""); err != nil {
		return err
	}
	l.checkOptionRefs(h)
	for _, ref := range unknownVariables(h.Argv) {
		l.note("%s hook %s: %s is not a variable AgentDesk sets; it is passed as written", h.Event, displayCommand(*h), ref)
	}
	for i, tok := range h.Argv {
		rel, ok, err := l.packagePath(tok)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := l.checkPackageToken(h, tok, rel, i == 0); err != nil {
			return err
		}
	}
	h.Files = append(h.Files, l.projectFiles(h.Argv)...)
	slices.Sort(h.Files)
	h.Files = slices.Compact(h.Files)
	return nil
}

func (l *loader) checkPackageToken(h *Hook, tok, rel string, isProgram bool) error {
	real, clean, err := l.root.resolve(rel)
	if err != nil {
		return fmt.Errorf("command names %s: %w", tok, err)
	}
	regular := isRegularFile(real)
	if regular {
		h.Files = append(h.Files, clean)
	}
	if !isProgram {
		return nil
	}
	if !regular {
		h.Inactive = clean + " is not executable on this system (not a file)"
		return nil
	}
	switch problem := executableProblem(real); {
	case problem == errNotProgram && runtime.GOOS != "windows":
		// What execvp does with an executable file that is neither a #!
		// script nor a binary (ENOEXEC): run it with /bin/sh. Still an
		// argv, never "sh -c"; the trust prompt shows the /bin/sh.
		h.Argv = append([]string{bourneShell}, h.Argv...)
	case problem != "":
		h.Inactive = clean + " is not executable on this system (" + problem + ")"
	}
	return nil
}

// bourneShell runs package scripts that have no #! line.
const bourneShell = "/bin/sh"

// displayCommand is how diagnostics quote a hook: its argv, which reads
// the same for the shell and the exec ("args") forms.
func displayCommand(h Hook) string { return fmt.Sprintf("%q", strings.Join(h.Argv, " ")) }
