package agent

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MaxAgentsMDBytes bounds all AGENTS.md text put in the system prompt.
const MaxAgentsMDBytes = 32 << 10

// agentsFile is one AGENTS.md found for a project.
type agentsFile struct {
	Path string
	Text string
	Cut  bool // truncated to fit MaxAgentsMDBytes
}

// findAgentsMD reads AGENTS.md from the project root and its ancestors up
// to home (only the project root when the project is outside home),
// outermost first and nearest last. Only regular files are read: a
// symlinked AGENTS.md could point at a secret the model must not see.
// The nearest files get the byte budget first.
func findAgentsMD(project, home string) []agentsFile {
	dirs := []string{project} // nearest first
	if home != "" && project != home && within(home, project) {
		for dir := filepath.Dir(project); ; dir = filepath.Dir(dir) {
			dirs = append(dirs, dir)
			if dir == home || filepath.Dir(dir) == dir {
				break
			}
		}
	}
	budget := MaxAgentsMDBytes
	var found []agentsFile
	for _, dir := range dirs {
		f, ok := readRegular(filepath.Join(dir, "AGENTS.md"), budget)
		if !ok {
			continue
		}
		budget -= len(f.Text)
		found = append([]agentsFile{f}, found...)
		if budget <= 0 {
			break
		}
	}
	return found
}

func within(parent, child string) bool {
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func readRegular(path string, limit int) (agentsFile, bool) {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() || limit <= 0 {
		return agentsFile{}, false
	}
	f, err := os.Open(path)
	if err != nil {
		return agentsFile{}, false
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return agentsFile{}, false
	}
	cut := len(buf) > limit
	if cut {
		buf = buf[:limit]
	}
	return agentsFile{Path: path, Text: strings.ToValidUTF8(string(buf), ""), Cut: cut}, true
}

// agentsSection renders the files for the system prompt.
func agentsSection(files []agentsFile) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Workspace instructions (AGENTS.md)\n\nFollow these instructions from the project; where they conflict, the nearest file (last) wins.\n")
	for _, f := range files {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", f.Path, strings.TrimRight(f.Text, "\n"))
		if f.Cut {
			fmt.Fprintf(&b, "\n[… %s truncated: AGENTS.md text is limited to %d KiB in total …]\n", f.Path, MaxAgentsMDBytes>>10)
		}
	}
	return b.String()
}
