package permissions

import (
	"maps"
	"slices"
	"strings"
)

// Secret-looking variable names: what run_command, and so the model,
// must never see, and what a project's settings env never passes on.
// The name decides, not the value: a value cannot be told from an
// ordinary string.
var (
	secretSuffixes  = []string{"_KEY", "_TOKEN", "_CREDENTIALS", "_PAT"}
	secretInfixes   = []string{"SECRET", "PASSWORD", "PASSWD"}
	secretPrefixes  = []string{"AWS_", "AZURE_", "GOOGLE_APPLICATION_CREDENTIALS", "GH_", "GITHUB_TOKEN", "HF_TOKEN", "NPM_TOKEN"}
	keptDespiteName = []string{"SSH_AUTH_SOCK", "GPG_AGENT_INFO", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"}
)

// SecretName reports whether an environment variable's name says it
// holds a credential.
func SecretName(name string) bool {
	upper := strings.ToUpper(name)
	if slices.Contains(keptDespiteName, upper) {
		return false
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(upper, s) {
			return true
		}
	}
	for _, s := range secretInfixes {
		if strings.Contains(upper, s) {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(upper, p) {
			return true
		}
	}
	return false
}

// Environ is a trusted project's settings env as its commands, hooks
// and servers get it: NAME=value, sorted by name, less the names that look like
// credentials and AgentDesk's own (AGENTDESK_*), which come back in
// dropped to be shown. A credential belongs in the user's environment or
// keyring, not in a file the repository carries.
func (s Settings) Environ() (kept, dropped []string) {
	for _, name := range slices.Sorted(maps.Keys(s.Env)) {
		if name == "" || strings.ContainsAny(name, "=\x00") || SecretName(name) || strings.HasPrefix(strings.ToUpper(name), "AGENTDESK_") {
			dropped = append(dropped, name)
			continue
		}
		kept = append(kept, name+"="+s.Env[name])
	}
	return kept, dropped
}
