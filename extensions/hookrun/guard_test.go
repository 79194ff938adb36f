package hookrun

import (
	"reflect"
	"testing"
)

func TestParseGuardOutput(t *testing.T) {
	pre := func(fields string) string {
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse"` + fields + `}}`
	}
	tests := []struct {
		name   string
		event  string
		stdout string
		want   Output
	}{
		{"deny", "PreToolUse", pre(`,"permissionDecision":"deny","permissionDecisionReason":"rm -rf is blocked"`),
			Output{Decision: Block, Reason: "rm -rf is blocked"}},
		{"deny without reason", "PreToolUse", pre(`,"permissionDecision":"deny"`),
			Output{Decision: Block, Reason: "the hook denied this call without a reason"}},
		{"ask", "PreToolUse", pre(`,"permissionDecision":"ask","permissionDecisionReason":"touches CI"`),
			Output{Decision: Ask, Reason: "touches CI"}},
		{"allow is recorded only", "PreToolUse", pre(`,"permissionDecision":"allow"`), Output{Decision: Allow}},
		{"defer is no opinion", "PreToolUse", pre(`,"permissionDecision":"defer"`), Output{}},
		{"older decision block", "PreToolUse", `{"decision":"block","reason":"no"}`, Output{Decision: Block, Reason: "no"}},
		{"older decision approve", "PreToolUse", `{"decision":"approve","reason":"fine"}`, Output{Decision: Allow, Reason: "fine"}},
		{"continue false denies a call", "PreToolUse", `{"continue":false,"stopReason":"quota"}`, Output{Decision: Block, Reason: "quota"}},
		{"permissionDecision wins over decision", "PreToolUse",
			`{"decision":"block","reason":"old","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`,
			Output{Decision: Ask}},
		{"rewrite with context", "PreToolUse", pre(`,"updatedInput":{"command":"ls -la"},"additionalContext":"rewrote"`),
			Output{AdditionalContext: "rewrote", UpdatedInput: []byte(`{"command":"ls -la"}`)}},
		{"post block", "PostToolUse", `{"decision":"block","reason":"lint failed"}`, Output{Decision: Block, Reason: "lint failed"}},
		{"post context", "PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 warnings"}}`,
			Output{AdditionalContext: "3 warnings"}},
		{"stop block", "Stop", `{"decision":"block","reason":"tests still fail"}`, Output{Decision: Block, Reason: "tests still fail"}},
		{"stop continue false is no block", "Stop", `{"continue":false,"stopReason":"done"}`, Output{}},
		{"plain text is not context for guards", "PostToolUse", "formatted 3 files", Output{}},
		{"plain text is context for PreCompact", "PreCompact", "keep the TODO list", Output{AdditionalContext: "keep the TODO list"}},
		{"permission request deny", "PermissionRequest",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no writes to CI"}}}`,
			Output{Decision: Block, Reason: "no writes to CI"}},
		{"permission request deny without message", "PermissionRequest",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","interrupt":true}}}`,
			Output{Decision: Block, Reason: "the hook denied this call without a reason"}},
		{"permission request allow is reported only", "PermissionRequest",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"rm -rf /"}}}}`,
			Output{Decision: Allow}},
		{"permission request older block", "PermissionRequest", `{"decision":"block","reason":"not now"}`, Output{Decision: Block, Reason: "not now"}},
		{"permission request continue false denies", "PermissionRequest", `{"continue":false,"stopReason":"quota"}`, Output{Decision: Block, Reason: "quota"}},
		{"permission request unknown behavior", "PermissionRequest",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"ask"}}}`, Output{}},
		{"permissionDecision is PreToolUse's only", "PermissionRequest",
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"deny"}}`, Output{}},
		{"post failure context", "PostToolUseFailure", `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"see docs/"}}`,
			Output{AdditionalContext: "see docs/"}},
		{"expansion block", "UserPromptExpansion", `{"decision":"block","reason":"not on main"}`, Output{Decision: Block, Reason: "not on main"}},
		{"plain text is context for UserPromptExpansion", "UserPromptExpansion", "mind the tests", Output{AdditionalContext: "mind the tests"}},
		{"a context event cannot decide", "UserPromptSubmit", `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","permissionDecision":"deny"}}`, Output{}},
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

func TestGuardExitStatusTwo(t *testing.T) {
	exit := func(code int, stderr string) Result {
		return Result{Program: "guard", ExitCode: code, Stderr: []byte(stderr),
			Err: &Failure{Kind: ExitStatus, Program: "guard", ExitCode: code, Msg: "`guard` exited with status"}}
	}
	for _, event := range []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "Stop", "UserPromptExpansion"} {
		out, err := ParseOutput(event, exit(2, "  no force pushes\n"))
		if err != nil || out.Decision != Block || out.Reason != "no force pushes" {
			t.Errorf("%s exit 2 = %+v, %v; want a block with stderr as the reason", event, out, err)
		}
	}
	if out, err := ParseOutput("PreToolUse", exit(2, "")); err != nil || out.Reason == "" {
		t.Errorf("exit 2 without stderr = %+v, %v; want a block with a stated reason", out, err)
	}
	for _, tt := range []struct {
		event string
		code  int
	}{{"PreToolUse", 1}, {"SessionStart", 2}, {"UserPromptSubmit", 2}, {"SessionEnd", 2}} {
		if _, err := ParseOutput(tt.event, exit(tt.code, "boom")); err == nil {
			t.Errorf("%s exit %d must stay a hook failure", tt.event, tt.code)
		}
	}
}

func TestUpdatedInputMustBeAnObject(t *testing.T) {
	_, err := ParseOutput("PreToolUse", Result{Program: "hook",
		Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":"rm -rf /"}}`)})
	if f, ok := err.(*Failure); !ok || f.Kind != InvalidOutput {
		t.Fatalf("err = %v, want an invalid-output failure", err)
	}
}
