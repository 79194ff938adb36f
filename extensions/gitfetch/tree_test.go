package gitfetch

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

func TestTreePlanResolve(t *testing.T) {
	tests := []struct {
		name  string
		links map[string]string // path -> target
		check string
		want  string // "" when the link stays inside
	}{
		{"sibling", map[string]string{"a": "b"}, "a", ""},
		{"into a subdirectory", map[string]string{"docs/l": "../lib/x"}, "docs/l", ""},
		{"the root itself", map[string]string{"d/root": ".."}, "d/root", ""},
		{"dangling inside", map[string]string{"l": "missing/file"}, "l", ""},
		{"parent of the root", map[string]string{"l": ".."}, "l", "outside"},
		{"absolute", map[string]string{"l": "/etc/passwd"}, "l", "outside"},
		{"windows drive", map[string]string{"l": "C:/Windows"}, "l", "outside"},
		{"backslash traversal", map[string]string{"l": `..\..\x`}, "l", "outside"},
		{"lexically inside, escapes through a shallower link",
			map[string]string{"a/b/l3": "../../x", "up": "a/b/l3/../.."}, "up", "outside"},
		{"through a deeper link stays inside",
			map[string]string{"deep": "a/b/c", "l": "deep/../.."}, "l", ""},
		{"link to a link that escapes", map[string]string{"l": "m", "m": "../out"}, "l", "outside"},
		{"case-insensitive link lookup",
			map[string]string{"a/b/l3": "../../x", "up": "A/B/L3/../.."}, "up", "outside"},
		{"loop", map[string]string{"a": "b", "b": "a"}, "a", "loop"},
		{"into .git", map[string]string{"l": ".git/config"}, "l", "git metadata"},
		{"into .git through a link", map[string]string{"l": "m/config", "m": ".Git"}, "l", "git metadata"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := treePlan{links: map[string]string{}}
			for p, target := range tt.links {
				plan.links[strings.ToLower(p)] = target
				plan.entries = append(plan.entries, treeEntry{path: p, mode: filemode.Symlink, target: target})
			}
			got := plan.resolve(tt.check)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("resolve(%s) = %q, want %q", tt.check, got, tt.want)
			}
		})
	}
}

func TestUnsafeName(t *testing.T) {
	tests := []struct {
		name   string
		unsafe bool
	}{
		{"README.md", false},
		{".github", false},
		{".gitignore", false},
		{"git", false},
		{"..foo", false},
		{"", true},
		{".", true},
		{"..", true},
		{"a/b", true},
		{`..\evil`, true},
		{"nul\x00byte", true},
		{"bell\x07", true},
		{".git", true},
		{".GIT", true},
		{".git.", true},
		{".git ", true},
		{"GIT~1", true},
		{".g\u200cit", true},
		{"\ufeff.git", true},
	}
	for _, tt := range tests {
		if got := unsafeName(tt.name) != ""; got != tt.unsafe {
			t.Errorf("unsafeName(%q) unsafe = %v, want %v", tt.name, got, tt.unsafe)
		}
	}
}

func TestServerProgressReadsSplitLines(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   int
	}{
		{"enumerating", []string{"Enumerating objects: 12, done.\n"}, 12},
		{"counting split across writes", []string{"Counting objects:  40% (", "2/57)\rCounting objects: 100% (57/57), done.\n"}, 57},
		{"total", []string{"Total 9 (delta 1), reused 0 (delta 0), pack-reused 0\n"}, 9},
		{"compressing is not the total", []string{"Compressing objects: 100% (3/3), done.\n"}, 0},
		{"unterminated line is not parsed yet", []string{"Total 9"}, 0},
		{"over-long junk", []string{strings.Repeat("x", 2*maxProgressLine) + "\n"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var last Progress
			rep := newReporter(func(p Progress) { last = p })
			s := &serverProgress{reporter: rep}
			for _, w := range tt.writes {
				if n, err := s.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			rep.flush()
			if last.TotalObjects != tt.want {
				t.Errorf("TotalObjects = %d, want %d", last.TotalObjects, tt.want)
			}
		})
	}
}
