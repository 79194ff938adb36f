#!/bin/sh
# Each hook event name is declared once, in agent/lifecycle's constants,
# and every other non-test Go file outside the views names it through
# them (docs/architecture.md, "The lifecycle seam"). Comments are not
# counted; ui/ is left out because its words ("Stop") are labels, not
# events.
set -eu
cd "$(dirname "$0")/.."
names=$(grep -ho 'Event[A-Za-z]* *= "[A-Za-z]*"' agent/lifecycle/*.go | sed 's/.*"\(.*\)"/\1/')
[ -n "$names" ] || { echo "check-events: no event constants found in agent/lifecycle"; exit 1; }
status=0
for n in $names; do
	hits=$(grep -rn --include='*.go' --exclude='*_test.go' "\"$n\"" agent extensions storage app |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
	count=$(printf '%s\n' "$hits" | grep -c . || true)
	if [ "$count" -ne 1 ]; then
		echo "event name \"$n\" is written $count times in non-test Go code (want once, in agent/lifecycle):"
		printf '%s\n' "$hits"
		status=1
	fi
done
exit $status
