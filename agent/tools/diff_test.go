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
// a large rewrite included.
func TestUnifiedDiffRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		old, new []string
	}{
		{"interleaved", []string{"a", "b", "c", "d", "e"}, []string{"b", "x", "d", "e", "f"}},
		{"disjoint", []string{"a", "b"}, []string{"c", "d"}},
		{"large rewrite", numbered("old", 1000), numbered("new", 1000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, new := strings.Join(tt.old, "\n")+"\n", strings.Join(tt.new, "\n")+"\n"
			got, err := applyUnified(unifiedDiff("a/f", "b/f", old, new), old)
			if err != nil || got != new {
				t.Errorf("applying the diff gave %q, %v; want %q", got, err, new)
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

// applyUnified applies a unified diff with context to old, checking that
// every context and removed line really is in old where the hunk says.
func applyUnified(diff, old string) (string, error) {
	oldLines := strings.SplitAfter(old, "\n")
	var out strings.Builder
	next := 0 // index of the next old line not yet copied
	for _, line := range strings.SplitAfter(diff, "\n")[2:] {
		var from int
		switch {
		case line == "":
		case strings.HasPrefix(line, "@@ "):
			if _, err := fmt.Sscanf(line, "@@ -%d", &from); err != nil {
				return "", fmt.Errorf("hunk header %q: %w", line, err)
			}
			for ; next < from-1; next++ {
				out.WriteString(oldLines[next])
			}
		case line[0] == '+':
			out.WriteString(line[1:])
		case line[0] == ' ' || line[0] == '-':
			if oldLines[next] != line[1:] {
				return "", fmt.Errorf("line %d is %q, the diff says %q", next+1, oldLines[next], line[1:])
			}
			if line[0] == ' ' {
				out.WriteString(line[1:])
			}
			next++
		default:
			return "", fmt.Errorf("unexpected diff line %q", line)
		}
	}
	for ; next < len(oldLines); next++ {
		out.WriteString(oldLines[next])
	}
	return out.String(), nil
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
