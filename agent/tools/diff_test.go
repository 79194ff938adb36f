package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{"equal", "a\n", "a\n", ""},
		{"small edit", "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n", "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n",
			"--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n package main\n \n func main() {\n-\tprintln(\"hi\")\n+\tprintln(\"hello\")\n }\n"},
		{"insert at start", "b\nc\n", "a\nb\nc\n",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n+a\n b\n c\n"},
		{"delete only line", "a\n", "",
			"--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a\n"},
		{"from empty", "", "a\nb\n",
			"--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"newline added at end", "a\nb", "a\nb\n",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"replace middle", "1\n2\n3\n", "1\nX\nY\n3\n",
			"--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n 1\n-2\n+X\n+Y\n 3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unifiedDiff("a/f", "b/f", tt.old, tt.new); got != tt.want {
				t.Errorf("diff =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestUnifiedDiffHunks(t *testing.T) {
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprint(i))
	}
	old := strings.Join(lines, "\n") + "\n"
	edited := strings.Replace(strings.Replace(old, "\n2\n", "\nTWO\n", 1), "\n18\n", "\nEIGHTEEN\n", 1)
	want := "--- a/f\n+++ b/f\n" +
		"@@ -1,5 +1,5 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n" +
		"@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+EIGHTEEN\n 19\n 20\n"
	if got := unifiedDiff("a/f", "b/f", old, edited); got != want {
		t.Errorf("far-apart edits:\n%s\nwant\n%s", got, want)
	}

	// Changes with at most 2*context unchanged lines between share a hunk.
	near := strings.Replace(strings.Replace(old, "\n2\n", "\nTWO\n", 1), "\n9\n", "\nNINE\n", 1)
	want = "--- a/f\n+++ b/f\n" +
		"@@ -1,12 +1,12 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n+NINE\n 10\n 11\n 12\n"
	if got := unifiedDiff("a/f", "b/f", old, near); got != want {
		t.Errorf("nearby edits:\n%s\nwant\n%s", got, want)
	}
}

// TestUnifiedDiffRoundTrip applies generated diffs back to the old text,
// including inputs past maxDiffEdits where the fallback is used.
func TestUnifiedDiffRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		old, new []string
	}{
		{"interleaved", []string{"a", "b", "c", "d", "e"}, []string{"b", "x", "d", "e", "f"}},
		{"disjoint", []string{"a", "b"}, []string{"c", "d"}},
		{"past the edit bound", numbered("old", maxDiffEdits), numbered("new", maxDiffEdits)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, new := strings.Join(tt.old, "\n")+"\n", strings.Join(tt.new, "\n")+"\n"
			ops := diffOps(splitLines(old), splitLines(new))
			if got := applyOps(ops, splitLines(old), splitLines(new)); got != new {
				t.Errorf("applying the edit script gave %q, want %q", got, new)
			}
		})
	}
}

func numbered(prefix string, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%s %d", prefix, i)
	}
	return lines
}

// applyOps rebuilds the new text from an edit script, checking that every
// kept line really is the same on both sides.
func applyOps(ops []opKind, a, b []string) string {
	var out strings.Builder
	ai, bi := 0, 0
	for _, op := range ops {
		switch op {
		case opEqual:
			if a[ai] != b[bi] {
				return fmt.Sprintf("kept line differs: %q vs %q", a[ai], b[bi])
			}
			out.WriteString(b[bi])
			ai, bi = ai+1, bi+1
		case opDelete:
			ai++
		case opInsert:
			out.WriteString(b[bi])
			bi++
		}
	}
	if ai != len(a) || bi != len(b) {
		return "edit script did not consume both sides"
	}
	return out.String()
}

func BenchmarkUnifiedDiffLargeFileSmallEdit(b *testing.B) {
	old := strings.Join(numbered("line", 100_000), "\n") + "\n"
	edited := strings.Replace(old, "line 50000\n", "changed\n", 1)
	for b.Loop() {
		unifiedDiff("a/f", "b/f", old, edited)
	}
}

func BenchmarkUnifiedDiffRewrite(b *testing.B) {
	old := strings.Join(numbered("old", 5000), "\n") + "\n"
	edited := strings.Join(numbered("new", 5000), "\n") + "\n"
	for b.Loop() {
		unifiedDiff("a/f", "b/f", old, edited)
	}
}
