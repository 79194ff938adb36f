package hookrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Output is what a successful hook contributed.
type Output struct {
	// AdditionalContext goes to the model (where depends on the event).
	AdditionalContext string
	// SystemMessage is user-visible status, never sent to the model.
	SystemMessage string
	// BlockReason is set when a context hook answered continue:false or
	// decision:"block". Those hooks cannot block: the reason is shown as a
	// notice and the prompt goes ahead.
	BlockReason string
	// Decision and Reason are a guard hook's verdict (see isGuard);
	// UpdatedInput is PreToolUse's rewrite of tool_input.
	Decision     Decision
	Reason       string
	UpdatedInput json.RawMessage
}

// hookOutputJSON is the subset of the Claude Code / Codex hook output
// object that AgentDesk reads.
type hookOutputJSON struct {
	Continue           *bool             `json:"continue"`
	StopReason         string            `json:"stopReason"`
	Decision           string            `json:"decision"`
	Reason             string            `json:"reason"`
	SystemMessage      string            `json:"systemMessage"`
	AdditionalContext  string            `json:"additionalContext"`
	HookSpecificOutput *hookSpecificJSON `json:"hookSpecificOutput"`
}

type hookSpecificJSON struct {
	HookEventName            string          `json:"hookEventName"`
	AdditionalContext        string          `json:"additionalContext"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	Decision                 json.RawMessage `json:"decision"` // PermissionRequest's {behavior, message}
}

// ParseOutput interprets the result of a hook run for event. A failed run
// returns its *Failure, except a guard hook's exit status 2, which blocks
// with stderr as the reason. Stdout that starts with "{" (after
// whitespace) is hook JSON; any other non-empty stdout is plain text
// context, except for guard events, which ignore it. Stdout that is not
// valid UTF-8, JSON that does not parse, a hookEventName other than event
// and an updatedInput that is not an object are a *Failure of kind
// InvalidOutput.
func ParseOutput(event string, res Result) (Output, error) {
	if out, ok := exitTwo(event, res); ok {
		return out, nil
	}
	if res.Err != nil {
		return Output{}, res.Err
	}
	if !utf8.Valid(res.Stdout) {
		return Output{}, invalidOutput(res, "printed output that is not valid UTF-8")
	}
	text := bytes.TrimSpace(res.Stdout)
	switch {
	case len(text) == 0:
		return Output{}, nil
	case text[0] == '{':
		return parseJSON(event, res, text)
	case isQuiet(event):
		return Output{}, nil
	default:
		return Output{AdditionalContext: string(text)}, nil
	}
}

func parseJSON(event string, res Result, text []byte) (Output, error) {
	var v hookOutputJSON
	if err := json.Unmarshal(text, &v); err != nil {
		return Output{}, invalidOutput(res, "printed invalid JSON: "+describeJSONError(err))
	}
	contexts := []string{v.AdditionalContext}
	if specific := v.HookSpecificOutput; specific != nil {
		if specific.HookEventName != event {
			return Output{}, invalidOutput(res, eventMismatch(specific.HookEventName, event))
		}
		contexts = []string{specific.AdditionalContext, v.AdditionalContext}
	}
	out := Output{AdditionalContext: joinNonEmpty(contexts), SystemMessage: v.SystemMessage}
	if !isGuard(event) {
		out.BlockReason = blockReason(v)
		return out, nil
	}
	out.Decision, out.Reason = guardDecision(event, v)
	var ok bool
	if out.UpdatedInput, ok = updatedInput(event, v); !ok {
		return Output{}, invalidOutput(res, "printed an updatedInput that is not a JSON object")
	}
	return out, nil
}

// describeJSONError words a decoding error without Go type names.
func describeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return fmt.Sprintf("%s is a %s, expected a %s", typeErr.Field, typeErr.Value, typeErr.Type)
	}
	return err.Error()
}

func eventMismatch(got, want string) string {
	if got == "" {
		return fmt.Sprintf("printed hookSpecificOutput without hookEventName (expected %q)", want)
	}
	return fmt.Sprintf("printed hookSpecificOutput for hookEventName %q, but this is a %s hook", got, want)
}

func blockReason(v hookOutputJSON) string {
	switch {
	case v.Continue != nil && !*v.Continue:
		return withDefault(v.StopReason, "the hook asked to stop (continue: false) without a reason")
	case v.Decision == "block":
		return withDefault(v.Reason, "the hook asked to block (decision: block) without a reason")
	default:
		return ""
	}
}

func withDefault(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func joinNonEmpty(parts []string) string {
	var kept []string
	for _, part := range parts {
		if part != "" {
			kept = append(kept, part)
		}
	}
	return strings.Join(kept, "\n\n")
}

func invalidOutput(res Result, what string) *Failure {
	return &Failure{Kind: InvalidOutput, Program: res.Program, ExitCode: -1,
		Msg: fmt.Sprintf("`%s` %s", res.Program, what), Stderr: stderrTail(res.Stderr)}
}
