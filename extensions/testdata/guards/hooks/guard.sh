#!/bin/sh
# AgentDesk's guard fixture. It records its stdin in its data dir, counts
# its runs, then answers as the file .guards-EVENT in the project says
# (nothing when there is none), in the forms published guard plugins use.
# PushGuard is a PreToolUse hook with an "if": it always denies.
event="$1"
data="${CLAUDE_PLUGIN_DATA:?}"
cat > "$data/stdin-$event.json"
n=$(cat "$data/count-$event" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$data/count-$event"
mode=none
[ -f "$CLAUDE_PROJECT_DIR/.guards-$event" ] && mode=$(cat "$CLAUDE_PROJECT_DIR/.guards-$event")
case "$event:$mode" in
PreToolUse:deny)
	printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guards: no commands today"}}' ;;
PreToolUse:exit2)
	echo "guards: blocked by exit status 2" >&2
	exit 2 ;;
PreToolUse:allow)
	printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"looks fine"}}' ;;
PreToolUse:ask)
	printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"guards wants a human"}}' ;;
PreToolUse:rewrite)
	printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch rewritten.txt"}}}' ;;
PermissionRequest:deny)
	printf '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"guards: ask again after lunch"}}}' ;;
PermissionRequest:exit2)
	echo "guards: no dialogs today" >&2
	exit 2 ;;
PermissionRequest:allow)
	printf '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","message":"safe enough"}}}' ;;
UserPromptExpansion:block)
	printf '{"decision":"block","reason":"guards: no reviews before tests pass"}' ;;
UserPromptExpansion:exit2)
	echo "guards: reviews are closed" >&2
	exit 2 ;;
UserPromptExpansion:context)
	echo "guards: review the tests first" ;;
Notification:fail)
	echo "guards: the notifier is broken" >&2
	exit 1 ;;
PushGuard:*)
	printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guards: no pushes"}}' ;;
PostToolUse:context)
	printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"guards post context %s"}}' "$n" ;;
PostToolUse:block)
	printf '{"decision":"block","reason":"guards: fix the lint first"}' ;;
PostToolUseFailure:context)
	printf '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"guards: the file may be in docs/"}}' ;;
PostToolUseFailure:exit2)
	echo "guards: never guess paths" >&2
	exit 2 ;;
Stop:block)
	printf '{"decision":"block","reason":"guards: tests still fail (%s)"}' "$n" ;;
PreCompact:context)
	printf '{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"guards: keep the TODO list"}}' ;;
esac
