#!/usr/bin/env bash
# Measures the turn of BENCHMARKS.md row 17 in Claude Code (row 18):
# installs the @anthropic-ai/claude-code npm package, pinned, into a
# cache folder outside the repository, then runs BenchmarkClaudeCodeTurn
# (app/claudecode_bench_test.go) with AGENTDESK_CLAUDE_CODE naming its
# `claude`. Claude Code runs offline against a fake Anthropic endpoint
# on loopback; nothing of it is committed. Not part of `make test` or
# `make bench`.
#
#   packaging/bench-claude-code.sh                         # no plugins only
#   AGENTDESK_REAL_MARKETPLACE=/path/to/bare/wshobson-agents.git \
#     packaging/bench-claude-code.sh                       # with its plugins too
#
# CLAUDE_CODE_VERSION (default 2.1.332, the version issue 37 compared)
# and BENCHTIME (default 10x: each op is one or two `claude -p` runs)
# may be set.
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
TAGS=${TAGS:-migrated_fynedo}
version=${CLAUDE_CODE_VERSION:-2.1.332}
benchtime=${BENCHTIME:-10x}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/agentdesk-bench/claude-code-$version
bin=$cache/node_modules/.bin/claude

if ! [ -x "$bin" ] || ! "$bin" --version 2>/dev/null | grep -qF "$version"; then
	mkdir -p "$cache"
	# The package's postinstall puts the platform package's native binary
	# (an optional dependency) in place of its bin/claude.exe stub.
	npm install --prefix "$cache" --no-fund --no-audit --no-save "@anthropic-ai/claude-code@$version"
fi
if ! got=$("$bin" --version 2>&1) || [[ $got != "$version"* ]]; then
	echo "bench-claude-code: $bin --version printed: $got (want $version)" >&2
	exit 1
fi

AGENTDESK_CLAUDE_CODE=$bin exec "$GO" test -tags "$TAGS" -count=1 -run '^$' \
	-bench '^BenchmarkClaudeCodeTurn$' -benchtime "$benchtime" -timeout 60m -v ./app/
