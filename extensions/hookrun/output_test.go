package hookrun

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseOutput(t *testing.T) {
	tests := []struct {
		name   string
		event  string
		stdout string
		want   Output
	}{
		{"empty", "SessionStart", "", Output{}},
		{"whitespace only", "SessionStart", " \n\t", Output{}},
		{"plain text", "SessionStart", "  use tabs\n", Output{AdditionalContext: "use tabs"}},
		{"plain text for a subagent", "SubagentStart", "round notes", Output{AdditionalContext: "round notes"}},
		{"hook-specific context and system message", "SessionStart",
			`{"systemMessage":"ready","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}`,
			Output{AdditionalContext: "ctx", SystemMessage: "ready"}},
		{"top-level additionalContext", "UserPromptSubmit", ` {"additionalContext":"top"}`, Output{AdditionalContext: "top"}},
		{"both contexts kept", "UserPromptSubmit",
			`{"additionalContext":"top","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"specific"}}`,
			Output{AdditionalContext: "specific\n\ntop"}},
		{"continue false", "UserPromptSubmit", `{"continue":false,"stopReason":"quota reached","additionalContext":"c"}`,
			Output{AdditionalContext: "c", BlockReason: "quota reached"}},
		{"continue false without reason", "UserPromptSubmit", `{"continue":false}`,
			Output{BlockReason: "the hook asked to stop (continue: false) without a reason"}},
		{"decision block", "UserPromptSubmit", `{"decision":"block","reason":"secret in prompt"}`, Output{BlockReason: "secret in prompt"}},
		{"continue true", "SessionStart", `{"continue":true,"stopReason":"ignored"}`, Output{}},
		{"unknown fields ignored", "SessionStart", `{"suppressOutput":true,"systemMessage":"hi"}`, Output{SystemMessage: "hi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseOutput(tt.event, Result{Program: "hook", Stdout: []byte(tt.stdout)})
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseOutput = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestParseOutputInvalid(t *testing.T) {
	tests := []struct {
		name   string
		stdout string
		stderr string
		msg    string
	}{
		{"invalid UTF-8", "ok \xff\xfe", "", "`node` printed output that is not valid UTF-8"},
		{"malformed JSON", `{"systemMessage":`, "", "`node` printed invalid JSON: unexpected end of JSON input"},
		{"trailing data", `{} extra`, "", "`node` printed invalid JSON: invalid character 'e' after top-level value"},
		{"wrong field type", `{"systemMessage":5}`, "", "`node` printed invalid JSON: systemMessage is a number, expected a string"},
		{"mismatched event", `{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}`, "",
			"`node` printed hookSpecificOutput for hookEventName \"PreToolUse\", but this is a SessionStart hook"},
		{"missing event", `{"hookSpecificOutput":{"additionalContext":"x"}}`, "",
			"`node` printed hookSpecificOutput without hookEventName (expected \"SessionStart\")"},
		{"stderr quoted", `{`, "SyntaxError\n   at x.js:1", "`node` printed invalid JSON: unexpected end of JSON input (stderr: SyntaxError at x.js:1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Result{Program: "node", Stdout: []byte(tt.stdout), Stderr: []byte(tt.stderr)}
			_, err := ParseOutput("SessionStart", res)
			requireFailure(t, err, InvalidOutput)
			if err.Error() != tt.msg {
				t.Fatalf("error %q, want %q", err.Error(), tt.msg)
			}
		})
	}
}

func TestParseOutputReturnsRunFailure(t *testing.T) {
	runErr := &Failure{Kind: TimedOut, Program: "node", Msg: "timed out"}
	out, err := ParseOutput("SessionStart", Result{Stdout: []byte("context"), Err: runErr})
	if err != runErr || !reflect.DeepEqual(out, Output{}) {
		t.Fatalf("ParseOutput = %+v, %v; want the run's failure and no output", out, err)
	}
}

func FuzzParseOutput(f *testing.F) {
	for _, seed := range []string{
		"", "text", "{}", `{"continue":false}`, "{\"additionalContext\":\"\\ud800\"}",
		`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}`,
		`{"hookSpecificOutput":null}`, "\xff", " {", `{"systemMessage":[1]}`,
	} {
		f.Add("SessionStart", []byte(seed))
	}
	for _, seed := range []string{
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`,
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":"deny"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"x"}}}}`,
	} {
		f.Add("PermissionRequest", []byte(seed))
	}
	f.Add("UserPromptExpansion", []byte(`{"decision":"block","reason":"r"}`))
	f.Fuzz(func(t *testing.T, event string, stdout []byte) {
		out, err := ParseOutput(event, Result{Program: "hook", Stdout: stdout})
		if err != nil {
			requireFailure(t, err, InvalidOutput)
			return
		}
		for _, s := range []string{out.AdditionalContext, out.SystemMessage, out.BlockReason} {
			if !utf8.ValidString(s) {
				t.Fatalf("output %q is not valid UTF-8", s)
			}
		}
		if strings.TrimSpace(string(stdout)) == "" && !reflect.DeepEqual(out, Output{}) {
			t.Fatalf("empty stdout produced %+v", out)
		}
		// Each field is a part of stdout or a short fixed wording.
		size := len(out.AdditionalContext) + len(out.SystemMessage) + len(out.BlockReason) + len(out.Reason) + len(out.UpdatedInput)
		if limit := 2*len(stdout) + 1024; size > limit {
			t.Fatalf("%d bytes of stdout parsed into %d bytes of output", len(stdout), size)
		}
	})
}

func requireFailure(t *testing.T, err error, kind FailureKind) *Failure {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("err = %v (%T), want a *Failure of kind %v", err, err, kind)
	}
	if f.Kind != kind {
		t.Fatalf("failure kind = %v, want %v (%v)", f.Kind, kind, f)
	}
	return f
}
