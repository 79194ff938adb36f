package manifest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
)

// hooksHashVersion starts the hashed encoding so a future change to what
// the hash covers can never collide with today's hashes.
const hooksHashVersion = "agentdesk-hooks-v1"

// HooksHash is the trust hash of a hook list: the hex SHA-256 of, in list
// order, each hook's event, normalised matcher ("" and "*" are the same;
// surrounding spaces trimmed), argv (unexpanded), timeout, IgnoreExit, and
// whether it is inactive. Every string is length-prefixed, so no two lists
// share an encoding. It deliberately leaves out the command text (argv
// carries what runs), the status message and the inactive reason's
// wording (display only), and file contents (the tamper check covers
// those).
func HooksHash(hooks []Hook) string {
	h := sha256.New()
	h.Write(appendString(nil, hooksHashVersion))
	for _, hook := range hooks {
		h.Write(encodeHook(hook))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func encodeHook(h Hook) []byte {
	b := appendString(nil, h.Event)
	b = appendString(b, normaliseMatcher(h.Matcher))
	b = binary.AppendUvarint(b, uint64(len(h.Argv)))
	for _, tok := range h.Argv {
		b = appendString(b, tok)
	}
	b = binary.AppendVarint(b, int64(h.Timeout))
	b = append(b, flag(h.IgnoreExit), flag(h.Inactive != ""))
	if h.If != "" { // only then, so hashes of hooks without one stay as they were
		b = appendString(append(b, 'i'), h.If)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func flag(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func normaliseMatcher(m string) string {
	m = strings.TrimSpace(m)
	if m == "*" {
		return ""
	}
	return m
}

// HookChange is a hook at the same event and matcher position whose
// trusted fields differ.
type HookChange struct {
	Old, New Hook
}

// HookDiff is what the re-trust dialog shows after an update.
type HookDiff struct {
	Added   []Hook
	Removed []Hook
	Changed []HookChange
	// ServerFiles are the MCP servers' files whose content changed.
	ServerFiles []ServerFileChange
}

// Empty reports whether the two lists are equal as far as trust goes.
func (d HookDiff) Empty() bool {
	return len(d.Added) == 0 && len(d.Removed) == 0 && len(d.Changed) == 0 && len(d.ServerFiles) == 0
}

// DiffHooks pairs hooks by event and matcher, then by position within that
// pair: the n-th new hook of a group is compared with the n-th old one.
// Unpaired new hooks are Added, unpaired old ones Removed. Results follow
// the order of the new list, then of the old one.
func DiffHooks(old, updated []Hook) HookDiff {
	var diff HookDiff
	oldGroups := map[string][]Hook{}
	for _, h := range old {
		oldGroups[groupKey(h)] = append(oldGroups[groupKey(h)], h)
	}
	paired := map[string]int{}
	for _, h := range updated {
		key := groupKey(h)
		i := paired[key]
		paired[key] = i + 1
		switch {
		case i >= len(oldGroups[key]):
			diff.Added = append(diff.Added, h)
		case string(encodeHook(h)) != string(encodeHook(oldGroups[key][i])):
			diff.Changed = append(diff.Changed, HookChange{Old: oldGroups[key][i], New: h})
		}
	}
	seen := map[string]int{}
	for _, h := range old {
		key := groupKey(h)
		seen[key]++
		if seen[key] > paired[key] {
			diff.Removed = append(diff.Removed, h)
		}
	}
	return diff
}

func groupKey(h Hook) string { return h.Event + "\x00" + normaliseMatcher(h.Matcher) }

// mcpHashVersion starts the MCP servers' part of a trust hash.
const mcpHashVersion = "agentdesk-mcp-v1"

// TrustHash is the trust hash of everything an extension runs: its hooks
// and its MCP servers. Without servers it is HooksHash, so what users
// trusted before servers ran stays trusted. Each server adds its name,
// type, argv, cwd, env and headers (names and values as written, so a
// changed ${VAR} needs trust again), URL, OAuth, the user environment
// variables it reads, whether it is inactive, and the package files its
// command names with their SHA-256 (so an update that changes server.py
// is reviewed again).
func TrustHash(hooks []Hook, servers []MCPServer) string {
	return TrustHashWithLSP(hooks, servers, nil)
}

// lspHashVersion starts the LSP servers' part of a trust hash.
const lspHashVersion = "agentdesk-lsp-v1"

// TrustHashWithLSP is TrustHash with the package's language servers: each
// adds its name, transport, argv, env (as written), the extensions it
// covers, its workspace folder, initialization options and settings, the
// user environment it reads, whether it is inactive, and its package files
// with their SHA-256. Without language servers it is TrustHash.
func TrustHashWithLSP(hooks []Hook, servers []MCPServer, lsp []LSPServer) string {
	if len(servers) == 0 && len(lsp) == 0 {
		return HooksHash(hooks)
	}
	h := sha256.New()
	h.Write(appendString(nil, hooksHashVersion))
	for _, hook := range hooks {
		h.Write(encodeHook(hook))
	}
	h.Write(appendString(nil, mcpHashVersion))
	for _, s := range servers {
		h.Write(encodeMCPServer(s))
	}
	if len(lsp) > 0 { // only then, so packages without language servers keep their hashes
		h.Write(appendString(nil, lspHashVersion))
		for _, s := range lsp {
			h.Write(encodeLSPServer(s))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func encodeMCPServer(s MCPServer) []byte {
	b := appendString(nil, s.Name)
	b = appendString(b, s.Type)
	b = appendStrings(b, s.Argv())
	b = appendString(b, s.Cwd)
	b = appendPairs(b, s.Env)
	b = appendString(b, s.URL)
	b = appendPairs(b, s.Headers)
	b = appendStrings(b, s.UserEnv)
	b = append(b, flag(s.OAuth), flag(s.Inactive != ""))
	if len(s.Files) > 0 { // only then, so servers naming no package file keep their hashes
		b = appendStrings(append(b, 'f'), s.Files)
		b = appendStrings(b, s.FileSHA256)
	}
	return b
}

func encodeLSPServer(s LSPServer) []byte {
	b := appendString(nil, s.Name)
	b = appendString(b, s.Transport)
	b = appendStrings(b, s.Argv())
	b = appendPairs(b, s.Env)
	b = appendPairs(b, s.ExtensionToLanguage)
	b = appendString(b, s.WorkspaceFolder)
	b = appendString(b, string(s.InitializationOptions))
	b = appendString(b, string(s.Settings))
	b = appendStrings(b, s.UserEnv)
	b = append(b, flag(s.Inactive != ""))
	b = appendStrings(b, s.Files)
	return appendStrings(b, s.FileSHA256)
}

// ServerFileChange is a package file an MCP server's command names whose
// content differs from the trusted version's (Old or New empty: the
// server did not name it there).
type ServerFileChange struct {
	Server, Path, Old, New string
}

// DiffServerFiles lists the files of same-named servers whose content
// changed, appeared or went away, in the order of updated.
func DiffServerFiles(old, updated []MCPServer) []ServerFileChange {
	before := map[string]map[string]string{}
	for _, s := range old {
		before[s.Name] = fileSums(s)
	}
	var out []ServerFileChange
	for _, s := range updated {
		was, ok := before[s.Name]
		if !ok {
			continue // a new server is shown whole
		}
		now := fileSums(s)
		for _, f := range s.Files {
			if was[f] != now[f] {
				out = append(out, ServerFileChange{Server: s.Name, Path: f, Old: was[f], New: now[f]})
			}
		}
		for _, f := range slices.Sorted(maps.Keys(was)) {
			if _, still := now[f]; !still {
				out = append(out, ServerFileChange{Server: s.Name, Path: f, Old: was[f]})
			}
		}
	}
	return out
}

func fileSums(s MCPServer) map[string]string {
	m := map[string]string{}
	for i, f := range s.Files {
		if i < len(s.FileSHA256) {
			m[f] = s.FileSHA256[i]
		} else {
			m[f] = ""
		}
	}
	return m
}

func appendStrings(b []byte, list []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(list)))
	for _, s := range list {
		b = appendString(b, s)
	}
	return b
}

func appendPairs(b []byte, list []NameValue) []byte {
	b = binary.AppendUvarint(b, uint64(len(list)))
	for _, nv := range list {
		b = appendString(appendString(b, nv.Name), nv.Value)
	}
	return b
}
