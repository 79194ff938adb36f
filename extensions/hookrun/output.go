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
	// BlockReason is set when the hook answered continue:false or
	// decision:"block". Hooks cannot block in this version: the reason is
	// shown as a notice and the prompt goes ahead.
	BlockReason string
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
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// ParseOutput interprets the result of a hook run for event. A failed run
// returns its *Failure. Stdout that starts with "{" (after whitespace) is
// hook JSON; any other non-empty stdout is plain text context, which
// AgentDesk accepts for all three events it serves (SessionStart,
// UserPromptSubmit, SubagentStart). Stdout that is not valid UTF-8, JSON
// that does not parse, and a hookEventName other than event are a
// *Failure of kind InvalidOutput.
func ParseOutput(event string, res Result) (Output, error) {
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
	return Output{
		AdditionalContext: joinNonEmpty(contexts),
		SystemMessage:     v.SystemMessage,
		BlockReason:       blockReason(v),
	}, nil
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
