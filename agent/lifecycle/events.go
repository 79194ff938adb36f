package lifecycle

// EventKind says how AgentDesk reads what an event's hooks print.
type EventKind uint8

const (
	// KindContext events add context: plain-text stdout and
	// additionalContext go to the model; a JSON block is a notice.
	KindContext EventKind = iota + 1
	// KindGuard events may block: exit status 2 is a decision (stderr its
	// reason) and JSON decisions are read; plain-text stdout is context.
	KindGuard
	// KindQuiet events are guard events whose plain-text stdout is not
	// context (Claude Code shows it only in its transcript view).
	KindQuiet
	// KindLifecycle events tell extensions what happened; they neither add
	// context to a prompt nor decide anything (PreCompact's context joins
	// the summary request).
	KindLifecycle
)

// Guard reports whether hooks of this kind make decisions (exit 2, JSON
// "decision").
func (k EventKind) Guard() bool { return k == KindGuard || k == KindQuiet }

// EventSpec is one row of the event table: everything AgentDesk's
// packages need to know about a hook event.
type EventSpec struct {
	Name string
	Kind EventKind
	// MatcherField is the hook input field a group's "matcher" is tested
	// against; "" means matchers do not apply and every group runs.
	MatcherField string
	// ClaudeName is the key hooks.json declares the event under.
	ClaudeName string
}

// events is the one table of the events AgentDesk dispatches, in the
// order hooks.json documentation lists them. Hooks for any other event
// are reported and ignored.
var events = []EventSpec{
	{Name: EventSessionStart, Kind: KindContext, MatcherField: "source", ClaudeName: EventSessionStart},
	{Name: EventUserPromptSubmit, Kind: KindContext, ClaudeName: EventUserPromptSubmit},
	{Name: EventUserPromptExpansion, Kind: KindGuard, MatcherField: "command_name", ClaudeName: EventUserPromptExpansion},
	{Name: EventSubagentStart, Kind: KindContext, MatcherField: "agent_type", ClaudeName: EventSubagentStart},
	{Name: EventSubagentStop, Kind: KindQuiet, MatcherField: "agent_type", ClaudeName: EventSubagentStop},
	{Name: EventPreToolUse, Kind: KindQuiet, MatcherField: "tool_name", ClaudeName: EventPreToolUse},
	{Name: EventPermissionRequest, Kind: KindQuiet, MatcherField: "tool_name", ClaudeName: EventPermissionRequest},
	{Name: EventPostToolUse, Kind: KindQuiet, MatcherField: "tool_name", ClaudeName: EventPostToolUse},
	{Name: EventPostToolUseFailure, Kind: KindQuiet, MatcherField: "tool_name", ClaudeName: EventPostToolUseFailure},
	{Name: EventStop, Kind: KindQuiet, ClaudeName: EventStop},
	{Name: EventSessionEnd, Kind: KindLifecycle, MatcherField: "reason", ClaudeName: EventSessionEnd},
	{Name: EventPreCompact, Kind: KindLifecycle, MatcherField: "trigger", ClaudeName: EventPreCompact},
	{Name: EventNotification, Kind: KindLifecycle, MatcherField: "notification_type", ClaudeName: EventNotification},
}

// Events returns the event table, one row per dispatched event.
func Events() []EventSpec { return append([]EventSpec(nil), events...) }

// LookupEvent returns the row of the event AgentDesk names name.
func LookupEvent(name string) (EventSpec, bool) {
	for _, e := range events {
		if e.Name == name {
			return e, true
		}
	}
	return EventSpec{}, false
}

// LookupClaudeEvent returns the row of the event hooks.json declares
// under name.
func LookupClaudeEvent(name string) (EventSpec, bool) {
	for _, e := range events {
		if e.ClaudeName == name {
			return e, true
		}
	}
	return EventSpec{}, false
}

// EventKindOf is the kind of the named event; 0 for an event not in the
// table.
func EventKindOf(name string) EventKind {
	e, _ := LookupEvent(name)
	return e.Kind
}
