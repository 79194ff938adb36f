package servers

import (
	"strings"
	"testing"
)

func TestMCPToolNamesFitTheModelAPIs(t *testing.T) {
	long := toolName("knowledge-work-plugins", "google calendar", "list_events_for_every_calendar_of_the_user")
	if len(long) != maxToolName || !strings.HasPrefix(long, "mcp__plugin_knowledge-work-plugins_google_calendar__") {
		t.Errorf("long name %q (%d)", long, len(long))
	}
	if again := toolName("knowledge-work-plugins", "google calendar", "list_events_for_every_calendar_of_the_user"); again != long {
		t.Error("shortened name not stable")
	}
	if other := toolName("knowledge-work-plugins", "google calendar", "list_events_for_every_calendar_of_the_team"); other == long {
		t.Error("two long names collide")
	}
	if short := toolName("ctx", "srv", "a.b"); short != "mcp__plugin_ctx_srv__a_b" {
		t.Errorf("short name %q", short)
	}
}
