package manifest

import (
	"strings"
	"testing"
)

func TestMatcher(t *testing.T) {
	tests := []struct {
		matcher string
		match   []string
		noMatch []string
	}{
		{matcher: "", match: []string{"startup", "", "anything"}},
		{matcher: "*", match: []string{"startup", "resume"}},
		{matcher: "  ", match: []string{"x"}},
		{matcher: "startup", match: []string{"startup"}, noMatch: []string{"startup2", "resume", "xstartup"}},
		{matcher: "startup|resume|clear|compact", match: []string{"startup", "compact"}, noMatch: []string{"start", "compaction"}},
		{matcher: "startup, resume", match: []string{"startup", "resume"}, noMatch: []string{" resume", "startup, resume"}},
		{matcher: "ralph-child_2", match: []string{"ralph-child_2"}, noMatch: []string{"ralph"}},
		{matcher: "my agent|other", match: []string{"my agent", "other"}, noMatch: []string{"my"}},
		{matcher: "start.*", match: []string{"startup", "xstart"}, noMatch: []string{"resume"}},
		{matcher: "^(startup|resume)$", match: []string{"startup"}, noMatch: []string{"compact", "startupx"}},
		{matcher: "comp", match: []string{"comp"}, noMatch: []string{"compact"}}, // exact names, not a substring
		{matcher: "comp.", match: []string{"compact", "xcompa"}, noMatch: []string{"comp"}},
	}
	for _, tt := range tests {
		m, err := CompileMatcher(tt.matcher)
		if err != nil {
			t.Fatalf("CompileMatcher(%q): %v", tt.matcher, err)
		}
		for _, v := range tt.match {
			if !m.Match(v) {
				t.Errorf("matcher %q does not match %q", tt.matcher, v)
			}
		}
		for _, v := range tt.noMatch {
			if m.Match(v) {
				t.Errorf("matcher %q matches %q", tt.matcher, v)
			}
		}
	}
}

func TestCompileMatcherErrors(t *testing.T) {
	for _, bad := range []string{"(", "a[", "*x", "(?P<x"} {
		if _, err := CompileMatcher(bad); err == nil || !strings.Contains(err.Error(), "not a valid regular expression") ||
			!strings.Contains(err.Error(), `"`+bad+`"`) {
			t.Errorf("CompileMatcher(%q) err = %v", bad, err)
		}
	}
}

func FuzzCompileMatcher(f *testing.F) {
	for _, seed := range []string{"", "*", "startup|resume", "a, b", "start.*", "(", "|", "a{1000}"} {
		f.Add(seed, "startup")
	}
	f.Fuzz(func(t *testing.T, matcher, value string) {
		m, err := CompileMatcher(matcher)
		if err != nil {
			return
		}
		m.Match(value)
		if trimmed := strings.TrimSpace(matcher); trimmed == "" || trimmed == "*" {
			if !m.Match(value) {
				t.Fatalf("match-all matcher %q rejected %q", matcher, value)
			}
		}
	})
}
