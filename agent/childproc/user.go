package childproc

import (
	"path/filepath"
	"sync"
)

// UserFolders are the user's own additions to every child's sandbox,
// from Preferences → Advanced: folders it may also read or write, and
// more secrets to withhold. The built-in secrets stay withheld whatever
// is here (a reviewer of Codex's and Claude Code's sandboxes would not
// want a preference to drop ~/.ssh silently); a folder in Read or Write
// opens what it names, even inside one, as Sandbox.Read and Write do.
type UserFolders struct {
	Read, Write []string
	// Secrets are withheld like ~/.ssh: absolute, or relative to the home
	// folder.
	Secrets []string
}

var user struct {
	mu      sync.Mutex
	folders UserFolders
}

// SetUserFolders makes f part of the policy of every child started from
// now on: commands, hooks, MCP and LSP servers.
func SetUserFolders(f UserFolders) {
	user.mu.Lock()
	defer user.mu.Unlock()
	user.folders = UserFolders{Read: clean(f.Read), Write: clean(f.Write), Secrets: clean(f.Secrets)}
}

func userFolders() UserFolders {
	user.mu.Lock()
	defer user.mu.Unlock()
	return user.folders
}

// withUser adds the user's folders to s, for the user whose home is home;
// it returns s's own and the extra secrets to withhold.
func withUser(s Sandbox, f UserFolders, home string) (Sandbox, []string) {
	s.Read = append(append([]string(nil), s.Read...), f.Read...)
	s.Write = append(append([]string(nil), s.Write...), f.Write...)
	secrets := make([]string, 0, len(f.Secrets))
	for _, p := range f.Secrets {
		if !filepath.IsAbs(p) {
			p = filepath.Join(home, p)
		}
		secrets = append(secrets, p)
	}
	return s, secrets
}
