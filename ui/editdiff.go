package ui

import (
	"encoding/json"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// editDiffContext is how many unchanged lines surround each hunk, as in
// the approval dialog.
const editDiffContext = 3

// editDiff is the change an edit or write call makes, as a unified diff
// built from its arguments alone (the file has changed since, so the
// approval dialog's diff cannot be recomputed): edit_file's old_string →
// new_string, write_file's content as added lines. "" for other calls
// and for arguments that do not parse.
func editDiff(tool, args string) string {
	var a struct {
		Path      string  `json:"path"`
		OldString *string `json:"old_string"`
		NewString *string `json:"new_string"`
		Content   *string `json:"content"`
	}
	if json.Unmarshal([]byte(args), &a) != nil || a.Path == "" {
		return ""
	}
	switch {
	case tool == "edit_file" && a.OldString != nil && a.NewString != nil:
		d, err := udiff.ToUnified("a/"+a.Path, "b/"+a.Path, *a.OldString,
			udiff.Lines(*a.OldString, *a.NewString), editDiffContext)
		if err != nil {
			return ""
		}
		return d
	case tool == "write_file" && a.Content != nil:
		lines := strings.SplitAfter(strings.TrimSuffix(*a.Content, "\n"), "\n")
		var b strings.Builder
		b.WriteString("+++ b/" + a.Path + " (written in full)\n")
		for _, l := range lines {
			b.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
		}
		return b.String()
	}
	return ""
}
