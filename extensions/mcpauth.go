package extensions

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/mcp"
)

// credentialsAccount names a server's OAuth sign-in in the secret store
// (the OS keyring, else a private file): never a database row.
func credentialsAccount(id, server string) string { return account(id, "mcp-oauth/"+server) }

// MCPCredentials reads a remote server's kept sign-in; nil when there is
// none.
func (m *Manager) MCPCredentials(id, server string) *mcp.Credentials {
	raw, ok := m.secrets.Get(credentialsAccount(id, server))
	if !ok {
		return nil
	}
	var c mcp.Credentials
	if json.Unmarshal([]byte(raw), &c) != nil || c.Token == nil {
		return nil
	}
	return &c
}

// KeepMCPCredentials stores a remote server's sign-in (a new or
// refreshed token). A store that fails is logged: the sign-in still
// works until the app quits.
func (m *Manager) KeepMCPCredentials(id, server string, c *mcp.Credentials) {
	b, err := json.Marshal(c)
	if err == nil {
		err = m.secrets.Set(credentialsAccount(id, server), string(b))
	}
	if err != nil {
		m.log.Error("keep an MCP sign-in", "id", id, "server", server, "err", err)
	}
}

// ForgetMCPCredentials removes a remote server's sign-in.
func (m *Manager) ForgetMCPCredentials(id, server string) error {
	if err := m.secrets.Delete(credentialsAccount(id, server)); err != nil {
		return fmt.Errorf("sign out of %s: %w", server, err)
	}
	return nil
}

// forgetCredentials removes every sign-in of id's servers (uninstall).
func (m *Manager) forgetCredentials(id string, pkg *manifest.Package) error {
	var errs []error
	for _, s := range pkg.MCPServers {
		if m.MCPCredentials(id, s.Name) != nil {
			errs = append(errs, m.secrets.Delete(credentialsAccount(id, s.Name)))
		}
	}
	return errors.Join(errs...)
}
