#!/bin/sh
# The extension services' arrows (docs/architecture.md): the registry
# (extensions, the Manager) and its helpers know neither the dispatcher
# nor the server host; the server host (extensions/servers) never imports
# the dispatcher (extensions/dispatch). So dispatch → servers → mcp and
# → extensions, none back. Test files may cross (they wire the whole).
set -eu
GO=${GO:-go}
mod=github.com/agentdesk/agentdesk
imports=$("$GO" list -f '{{range .Imports}}{{$.ImportPath}} {{.}}{{"\n"}}{{end}}' ./extensions/...)
bad=$(echo "$imports" | awk -v m="$mod" '
	$2 == m"/extensions/dispatch" && $1 != m"/extensions/dispatch" { print; next }
	$2 == m"/extensions/servers" && $1 != m"/extensions/dispatch" && $1 != m"/extensions/servers" { print }')
if [ -n "$bad" ]; then
	echo "an import against the arrows dispatch → servers → mcp, extensions:"
	echo "$bad"
	exit 1
fi
