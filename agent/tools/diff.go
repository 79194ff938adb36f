package tools

import (
	"fmt"

	udiff "github.com/aymanbagabas/go-udiff"
)

// diffContextLines is how many unchanged lines surround each hunk.
const diffContextLines = 3

// unifiedDiff returns the unified diff from oldText to newText with the
// given file labels, or "" when the texts are equal. A label of
// "/dev/null" marks a created file.
func unifiedDiff(oldLabel, newLabel, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	diff, err := udiff.ToUnified(oldLabel, newLabel, oldText, udiff.Lines(oldText, newText), diffContextLines)
	if err != nil {
		// Edits computed from these very texts always apply; say so
		// rather than show an empty diff for a real change.
		return fmt.Sprintf("--- %s\n+++ %s\n(no diff: %v)\n", oldLabel, newLabel, err)
	}
	return diff
}
