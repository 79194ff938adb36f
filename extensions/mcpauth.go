package extensions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/mcp"
)

// credentialsAccount names a server's OAuth sign-in in the secret store
// (the OS keyring, else a private file): never a database row.
func credentialsAccount(id, server string) string { return account(id, "mcp-oauth/"+server) }

// mcpCredentials reads a server's kept sign-in; nil when there is none.
func (m *Manager) mcpCredentials(id, server string) *mcp.Credentials {
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

func (m *Manager) keepCredentials(id, server string, c *mcp.Credentials) {
	b, err := json.Marshal(c)
	if err == nil {
		err = m.secrets.Set(credentialsAccount(id, server), string(b))
	}
	if err != nil {
		m.log.Error("keep an MCP sign-in", "id", id, "server", server, "err", err)
	}
}

// forgetCredentials removes every sign-in of id's servers (uninstall).
func (m *Manager) forgetCredentials(id string, pkg *manifest.Package) error {
	var errs []error
	for _, s := range pkg.MCPServers {
		if m.mcpCredentials(id, s.Name) != nil {
			errs = append(errs, m.secrets.Delete(credentialsAccount(id, s.Name)))
		}
	}
	return errors.Join(errs...)
}

// ErrNotRemote: only remote servers sign in.
var ErrNotRemote = errors.New("only a remote (http or sse) MCP server signs in")

// SignInMCP signs in to an enabled extension's remote server: the browser
// opens at its authorization page (OAuth 2.1 with PKCE, a loopback
// redirect), the credentials go to the OS keyring, and the server starts
// again with the next prompt. Without a browser (agentdesk run) it fails
// and says where to sign in.
func (d *Dispatcher) SignInMCP(ctx context.Context, id, server string) error {
	x, decl, err := d.remoteServer(ctx, id, server)
	if err != nil {
		return err
	}
	launch := decl.Expand(manifest.MCPEnv{Vars: manifest.Vars{PluginRoot: x.dir, PluginData: x.data, Options: x.optionArgv},
		Sensitive: sensitiveOptions(x), LookupEnv: d.lookupEnv})
	creds, err := mcp.SignIn(ctx, mcp.SignInSpec{URL: launch.URL, Headers: launch.Headers, HTTPClient: d.mcpHTTP,
		ClientID: decl.OAuthClientID, CallbackPort: decl.OAuthCallbackPort, OpenBrowser: d.openBrowser})
	if err != nil {
		return err
	}
	d.m.keepCredentials(id, server, creds)
	d.RestartMCP(id, server)
	return nil
}

// SignOutMCP forgets a server's sign-in and stops it.
func (d *Dispatcher) SignOutMCP(_ context.Context, id, server string) error {
	if err := d.m.secrets.Delete(credentialsAccount(id, server)); err != nil {
		return fmt.Errorf("sign out of %s: %w", server, err)
	}
	d.RestartMCP(id, server)
	return nil
}

func (d *Dispatcher) remoteServer(ctx context.Context, id, server string) (active, manifest.MCPServer, error) {
	for _, x := range d.active(ctx) {
		if x.id != id {
			continue
		}
		for _, s := range runnableServers(x.pkg) {
			if s.Name != server {
				continue
			}
			if s.Type == manifest.MCPStdio {
				return x, s, ErrNotRemote
			}
			return x, s, nil
		}
	}
	return active{}, manifest.MCPServer{}, fmt.Errorf("%s has no enabled MCP server %q", id, server)
}

func sensitiveOptions(x active) map[string]string {
	out := map[string]string{}
	for _, o := range x.pkg.UserConfig {
		if v, ok := x.optionEnv[o.EnvName()]; ok && o.Sensitive {
			out[o.Key] = v
		}
	}
	return out
}
