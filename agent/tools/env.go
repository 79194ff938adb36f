package tools

import (
	"maps"
	"slices"
	"strings"
)

// Secret-looking variable names: what run_command, and so the model,
// must never see. The name decides, not the value: a value cannot be
// told from an ordinary string.
var (
	secretSuffixes  = []string{"_KEY", "_TOKEN", "_CREDENTIALS", "_PAT"}
	secretInfixes   = []string{"SECRET", "PASSWORD", "PASSWD"}
	secretPrefixes  = []string{"AWS_", "AZURE_", "GOOGLE_APPLICATION_CREDENTIALS", "GH_", "GITHUB_TOKEN", "HF_TOKEN", "NPM_TOKEN"}
	keptDespiteName = []string{"SSH_AUTH_SOCK", "GPG_AGENT_INFO", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"}
)

// looksSecret reports whether an environment variable's name says it
// holds a credential.
func looksSecret(name string) bool {
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
		case slices.Contains(remove, name) || looksSecret(name):
			continue
		}
		out = append(out, kv)
	}
	return out
}

// SettingsEnv is a trusted project's settings env as its commands and
// hooks get it: NAME=value, sorted by name, less the names that look like
// credentials and AgentDesk's own (AGENTDESK_*), which come back in
// dropped to be shown. A credential belongs in the user's environment or
// keyring, not in a file the repository carries.
func SettingsEnv(env map[string]string) (kept, dropped []string) {
	for _, name := range slices.Sorted(maps.Keys(env)) {
		if name == "" || strings.ContainsAny(name, "=\x00") || looksSecret(name) || strings.HasPrefix(strings.ToUpper(name), "AGENTDESK_") {
			dropped = append(dropped, name)
			continue
		}
		kept = append(kept, name+"="+env[name])
	}
	return kept, dropped
}
