#!/usr/bin/env bash
# Runs every Go benchmark of the module and prints the figures
# BENCHMARKS.md quotes, each against its yardstick or goal.
#
# Most benchmarks run once at the default bench time; the slow or noisy
# ones run alone for a fixed number of ops so their medians and ratios
# rest on enough samples. `agentdesk ext install` is timed as a real
# process, so the binary is built first into a temp folder.
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
TAGS=${TAGS:-migrated_fynedo}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$work/bench.txt"

# package, -bench regexp, -benchtime of the benchmarks run on their own.
targeted=(
	"./agent/ ^BenchmarkSessionStream$ 20x"
	"./ui/ ^BenchmarkChatStream$ 20x"
	"./extensions/gitfetch/ ^BenchmarkFetchVsGitClone5MB$ 10x"
	"./extensions/ ^BenchmarkInstallProcess5MB$ 10x"
	"./extensions/ ^BenchmarkSlowPromptHooks$ 30x"
	"./extensions/ ^BenchmarkPreToolUseOverhead$ 200x"
	"./extensions/ ^BenchmarkMCPCallOverhead$ 500x"
	"./ui/ ^BenchmarkSessionWalkMemory$ 1x"
	"./agent/ ^BenchmarkChildStart$ 50x"
	"./ui/ ^BenchmarkChatChildStream$ 3x"
	"./agent/childproc/ ^BenchmarkSandboxStart$ 200x"
	"./extensions/ ^BenchmarkInstallMarketplaceProcess$ 3x"
	"./extensions/dispatch/ ^BenchmarkMarketplaceTurn$ 200x"
	"./extensions/servers/ ^BenchmarkLSPToolOverhead$ 200x"
	"./extensions/servers/ ^BenchmarkLSPDiagnosticsWait$ 40x"
)

gotest() {
	"$GO" test -tags "$TAGS" -count=1 -run '^$' -benchmem "$@" | tee -a "$out"
}

run_all() {
	local skip="" pkg regexp benchtime
	for t in "${targeted[@]}"; do
		read -r pkg regexp benchtime <<<"$t"
		skip="$skip|${regexp//[\^\$()]/}"
	done
	gotest -bench . -skip "^(${skip#|})$" ./...
	for t in "${targeted[@]}"; do
		read -r pkg regexp benchtime <<<"$t"
		gotest -bench "$regexp" -benchtime "$benchtime" "$pkg"
	done
}

# metric BENCHMARK UNIT prints the value BENCHMARK reported in UNIT, or
# n/a.
metric() {
	awk -v name="$1" -v unit="$2" '
		$1 == name || ($1 ~ /-[0-9]+$/ && substr($1, 1, length(name) + 1) == name "-") {
			for (i = 3; i <= NF; i++) if ($i == unit) { print $(i - 1); found = 1; exit }
		}
		END { if (!found) print "n/a" }' "$out"
}

# calc EXPR evaluates a floating-point expression; n/a in, n/a out.
calc() {
	case "$1" in
	*n/a*) echo n/a ;;
	*) awk "BEGIN { v = $1; printf (v >= 1000 || v <= -1000) ? \"%.0f\" : \"%.3g\", v }" ;;
	esac
}

row() { printf '%-34s %-36s %-36s %s\n' "$@"; }

summary() {
	local b
	echo
	echo "== AgentDesk benchmarks: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
	row "measure" "result" "yardstick" "ratio (goal)"

	b=BenchmarkSessionStream
	row "stream, agent loop" "$(metric $b tokens/s) tokens/s, dropped=$(metric $b dropped)" "5000 tokens/s" \
		"$(calc "$(metric $b tokens/s) / 5000")x (>= 1, dropped=0)"
	b=BenchmarkChatStream
	row "stream, chat transcript" "$(metric $b tokens/s) tokens/s, dropped=$(metric $b dropped)" "5000 tokens/s" \
		"$(calc "$(metric $b tokens/s) / 5000")x (>= 1, dropped=0)"
	row "stream, chat redraws" "$(metric $b redraws/s) redraws/s" "30 redraws/s" "$(calc "$(metric $b redraws/s) / 30")x (<= 1)"

	row "open 5,000 msgs: OpenSession" "$(calc "$(metric BenchmarkOpenSession5000 ns/op) / 1e6") ms" "-" "-"
	row "open 5,000 msgs: transcript" "$(calc "$(metric BenchmarkTranscriptOpen5000 ns/op) / 1e6") ms" "-" "-"

	b=BenchmarkSessionWalkMemory
	row "RSS, 20 sessions x 500 msgs" "back at the first $(metric $b rss-back-MiB) MiB" "first $(metric $b rss-first-MiB) MiB" \
		"$(metric $b rss-ratio)x (<= 1.3)"

	row "child start, host time" "$(metric BenchmarkChildStart ms/child) ms" "-" "(<= 20 ms)"
	b=BenchmarkSandboxStart
	row "sandboxed child start" "$(metric $b confined-ms/start) ms" "unconfined $(metric $b unconfined-ms/start) ms" \
		"+$(metric $b added-ms/start) ms (<= 5 ms added)"
	b=BenchmarkChatChildStream
	row "chat redraws, child streaming" "$(metric $b redraws/s) redraws/s" "30 redraws/s" "$(calc "$(metric $b redraws/s) / 30")x (<= 1)"

	b=BenchmarkFetchVsGitClone5MB
	row "fetch 5 MB, go-git in process" "$(metric $b fetch-median-ms) ms, heap $(metric $b peak-heap-MiB) MiB" \
		"git clone $(metric $b clone-median-ms) ms" "$(metric $b ratio)x (<= 1, heap <= 50 MiB)"
	b=BenchmarkInstallProcess5MB
	row "agentdesk ext install, process" "$(metric $b install-median-ms) ms, rss $(metric $b install-maxrss-MiB) MiB" \
		"git clone $(metric $b clone-median-ms) ms, rss $(metric $b clone-maxrss-MiB) MiB" "$(metric $b ratio)x (<= 1)"

	b=BenchmarkInstallMarketplaceProcess
	row "install 91 plugins, one command" "$(metric $b install-median-ms) ms" "git clone $(metric $b clone-median-ms) ms" \
		"$(metric $b goal-ratio)x of 1.5 clone + 20 ms/plugin (<= 1)"

	b=BenchmarkOpenProjectWithSettings
	row "open a project with settings" "$(metric $b settings-median-ms) ms" "no settings $(metric $b none-median-ms) ms" \
		"+$(metric $b added-ms) ms (<= 5 ms)"

	b=BenchmarkHookDispatch
	row "hook via Dispatcher (median)" "$(metric $b dispatch-median-ms) ms" "exec.Command $(metric $b exec-median-ms) ms" \
		"+$(metric $b added-ms) ms (<= 2 ms)"
	b=BenchmarkPreToolUseOverhead
	row "PreToolUse, one 5 ms hook (median)" "$(metric $b pretooluse-median-ms) ms" "exec.Command $(metric $b exec-median-ms) ms" \
		"+$(metric $b added-ms) ms (<= 2 ms)"
	b=BenchmarkMCPCallOverhead
	row "MCP tool call, stdio (median)" "$(metric $b host-median-ms) ms" "SDK client $(metric $b sdk-median-ms) ms" \
		"+$(metric $b added-ms) ms (<= 2 ms)"
	row "MCP tools, no server declared" "$(calc "$(metric BenchmarkToolsWithoutMCPServers ns/op) / 1e6") ms per turn" "-" "nothing started"
	b=BenchmarkMarketplaceTurn/turn-start
	row "turn start, 91 hook-free plugins" "$(metric $b 91-plugins-median-ms) ms" "none $(metric $b none-median-ms) ms" \
		"$(metric $b ratio)x, +$(metric $b added-ms) ms"
	b=BenchmarkMarketplaceTurn/20-tool-calls
	row "20 tool calls, 91 hook-free plugins" "$(metric $b 91-plugins-median-ms) ms" "none $(metric $b none-median-ms) ms" \
		"$(metric $b ratio)x (<= 1.3)"
	b=BenchmarkLSPToolOverhead
	row "lsp goToDefinition, warm gopls" "$(metric $b host-ms) ms" "gopls alone $(metric $b server-ms) ms" \
		"+$(metric $b overhead-ms) ms (<= 2 ms)"
	b=BenchmarkLSPDiagnosticsWait
	row "edit's diagnostics, warm gopls" "median $(metric $b median-ms) ms" "-" "max $(metric $b max-ms) ms (<= 3000 ms)"
	b=BenchmarkSlowPromptHooks
	row "UserPromptSubmit, 5 x 100 ms hooks" "$(metric $b five-median-ms) ms" "1 hook $(metric $b one-median-ms) ms" \
		"$(metric $b ratio)x (~1; serial = 5)"
}

"$GO" build -tags "$TAGS" -o "$work/agentdesk" ./app
export AGENTDESK_BENCH_BIN="$work/agentdesk"
run_all
summary
