package servers

import (
	"testing"
)

func TestAppSecretsNeverExpand(t *testing.T) {
	h := NewMCP(nil, MCPConfig{
		AppSecrets: func() []string { return []string{"OPENAI_API_KEY", ""} },
		LookupEnv:  func(name string) (string, bool) { return "value of " + name, true },
	})
	for name, want := range map[string]bool{"AGENTDESK_API_KEY": false, "agentdesk_anything": false, "OPENAI_API_KEY": false,
		"openai_api_key": false, "MY_TOKEN": true, "HOME": true, "": true} {
		v, ok := h.env.lookupEnv(name)
		if ok != want || (ok && v != "value of "+name) || (!ok && v != "") {
			t.Errorf("lookupEnv(%q) = %q, %v; want found %v", name, v, ok, want)
		}
	}
}
