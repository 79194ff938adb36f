package tools

import (
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/agent/permissions"
)

// CommandEnv is run_command's environment: environ less every variable
// whose name looks like a credential and every name in remove (e.g. the
// provider's api_key_env), keeping those in pass however they look.
// Everything else (PATH, JAVA_HOME, SSH_AUTH_SOCK, proxies, …) stays:
// real commands need it.
func CommandEnv(environ, pass, remove []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case slices.Contains(pass, name):
		case slices.Contains(remove, name) || permissions.SecretName(name):
			continue
		}
		out = append(out, kv)
	}
	return out
}
