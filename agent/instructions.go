package agent

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MaxInstructionBytes bounds all instruction text (AGENTS.md, CLAUDE.md and
// their imports) put in the system prompt.
const MaxInstructionBytes = 32 << 10

// maxImportDepth is how many hops of @path imports are followed, as in
// Claude Code.
const maxImportDepth = 5

// agentsFile is one instruction file found for a project.
type agentsFile struct {
	Path       string
	Also       []string // other paths with the same text, shown once
	ImportedBy string   // the file whose @path import brought it in
	Text       string
	Cut        bool // truncated to fit MaxInstructionBytes
}

// instructionNames are read in each folder of the walk, in output order:
// the local file comes last, so it weighs most (Claude Code's order).
var instructionNames = []string{"AGENTS.md", "CLAUDE.md", filepath.Join(".claude", "CLAUDE.md"), "CLAUDE.local.md"}

// findAgentsMD reads the instruction files from the project root and its
// ancestors up to home (only the project root when the project is outside
// home), outermost first and nearest last. Only regular files are read: a
// symlinked file could point at a secret the model must not see. The
// nearest files get the byte budget first. CLAUDE.md files follow their
// @path imports (see importPaths); .claude/CLAUDE.md is never read in home,
// where it is Claude Code's own user file.
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
	l := &instructionLoader{project: project, home: home, budget: MaxInstructionBytes}
	if root, err := os.OpenRoot(project); err == nil {
		l.root = root
		defer root.Close()
	}
	for _, dir := range dirs {
		for i := len(instructionNames) - 1; i >= 0 && l.budget > 0; i-- {
			name := instructionNames[i]
			if dir == home && strings.HasPrefix(name, ".claude") {
				continue
			}
			l.add(filepath.Join(dir, name), "", name != "AGENTS.md", 0)
		}
	}
	// l.found is in priority order (most weight first); the prompt wants it last.
	out := make([]agentsFile, len(l.found))
	for i, f := range l.found {
		out[len(out)-1-i] = f
	}
	return out
}

// instructionLoader collects files in priority order, each file once.
type instructionLoader struct {
	project, home string
	root          *os.Root // the project, for imports; nil when it cannot be opened
	budget        int
	found         []agentsFile
	seen          []os.FileInfo
}

// add reads path (already checked to be a place instructions may come
// from) and, for CLAUDE.md-style files, the files it imports; imported
// files land before their importer, as Claude Code places them.
func (l *instructionLoader) add(path, importer string, imports bool, depth int) {
	f, info, ok := l.read(path)
	if !ok || strings.IndexByte(f.Text, 0) >= 0 || l.known(info) {
		return
	}
	l.seen = append(l.seen, info)
	for i := range l.found {
		if l.found[i].Text == f.Text && !f.Cut && !l.found[i].Cut {
			l.found[i].Also = append(l.found[i].Also, path)
			return
		}
	}
	f.ImportedBy = importer
	l.budget -= len(f.Text)
	l.found = append(l.found, f)
	if !imports || depth >= maxImportDepth {
		return
	}
	imps := importPaths(f.Text)
	for i := len(imps) - 1; i >= 0; i-- { // backwards: found is reversed for the prompt
		if target, ok := l.resolve(filepath.Dir(path), imps[i]); ok {
			l.add(target, path, true, depth+1)
		}
	}
}

func (l *instructionLoader) known(info os.FileInfo) bool {
	for _, s := range l.seen {
		if os.SameFile(s, info) {
			return true
		}
	}
	return false
}

// resolve turns an import into a path inside the project, or refuses it:
// ~/ is not followed (the user's home is not the project's), nor is a path
// outside the project or one reached through a symlinked folder that
// leaves it (the os.Root check), nor a file in home's .claude or .codex.
func (l *instructionLoader) resolve(dir, imp string) (string, bool) {
	if l.root == nil || imp == "~" || strings.HasPrefix(imp, "~/") {
		return "", false
	}
	for _, cand := range []string{imp, strings.TrimRight(imp, ".,;:!?)]}'\"")} {
		path := cand
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		path = filepath.Clean(path)
		rel, err := filepath.Rel(l.project, path)
		if err != nil || !within(l.project, path) || l.hostFolder(path) {
			continue
		}
		if info, err := l.root.Lstat(rel); err == nil && info.Mode().IsRegular() {
			return path, true
		}
	}
	return "", false
}

// hostFolder reports a path in another host's user folder (when the
// project is home itself), which instructions never read.
func (l *instructionLoader) hostFolder(path string) bool {
	if l.home == "" {
		return false
	}
	for _, d := range []string{".claude", ".codex"} {
		if within(filepath.Join(l.home, d), path) {
			return true
		}
	}
	return false
}

// importPaths lists the @path imports of a CLAUDE.md text: an @ that
// starts a token (line start or after white space, so user@example.com
// is text), running to the next white space ("\ " keeps a space), outside
// fenced and indented code blocks and inline code spans.
func importPaths(text string) []string {
	var paths []string
	fence := ""
	blank, inList := true, false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			continue
		}
		if f := fenceOpener(trimmed); f != "" && indent < 4 {
			fence = f
			continue
		}
		if strings.TrimSpace(line) == "" {
			blank = true
			continue
		}
		if (indent >= 4 || strings.HasPrefix(line, "\t")) && blank && !inList {
			continue // an indented code block
		}
		if indent == 0 {
			inList = listItem(trimmed)
		}
		blank = false
		paths = append(paths, lineImports(stripCodeSpans(line))...)
	}
	return paths
}

func fenceOpener(s string) string {
	for _, c := range []string{"`", "~"} {
		n := len(s) - len(strings.TrimLeft(s, c))
		if n >= 3 && (c == "~" || !strings.Contains(s[n:], "`")) {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

func listItem(s string) bool {
	if len(s) > 1 && strings.ContainsRune("-*+", rune(s[0])) && s[1] == ' ' {
		return true
	}
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	return digits > 0 && len(s) > digits+1 && (s[digits] == '.' || s[digits] == ')') && s[digits+1] == ' '
}

// stripCodeSpans blanks `code` spans (a run of n backticks up to the next
// run of exactly n) so an @ inside one is not an import.
func stripCodeSpans(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := i
		for n < len(line) && line[n] == '`' {
			n++
		}
		run := line[i:n]
		end := closingRun(line, n, len(run))
		if end < 0 {
			b.WriteString(run)
			i = n
			continue
		}
		b.WriteString(strings.Repeat(" ", end+len(run)-i))
		i = end + len(run)
	}
	return b.String()
}

func closingRun(line string, from, n int) int {
	for i := from; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

func lineImports(line string) []string {
	var paths []string
	for i := 0; i < len(line); i++ {
		if line[i] != '@' || (i > 0 && !isSpace(line[i-1])) {
			continue
		}
		var p strings.Builder
		j := i + 1
		for ; j < len(line) && !isSpace(line[j]); j++ {
			if line[j] == '\\' && j+1 < len(line) && line[j+1] == ' ' {
				j++
			}
			p.WriteByte(line[j])
		}
		if s := p.String(); s != "" && s[0] != '@' {
			paths = append(paths, s)
		}
		i = j
	}
	return paths
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func within(parent, child string) bool {
	rel, err := filepath.Rel(parent, child)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// read reads one regular file within the budget. A file in the project
// is read through its os.Root, so a symlinked folder on the way (a
// .claude linked elsewhere) cannot lead out of it; ancestors' files are
// read by path. A symlink as the file itself is never read.
func (l *instructionLoader) read(path string) (agentsFile, os.FileInfo, bool) {
	lstat, open := os.Lstat, os.Open
	name := path
	if rel, err := filepath.Rel(l.project, path); err == nil && l.root != nil && within(l.project, path) {
		lstat, open, name = l.root.Lstat, l.root.Open, rel
	}
	info, err := lstat(name)
	if err != nil || !info.Mode().IsRegular() || l.budget <= 0 {
		return agentsFile{}, nil, false
	}
	f, err := open(name)
	if err != nil {
		return agentsFile{}, nil, false
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) {
		return agentsFile{}, nil, false // swapped for something else between the checks
	}
	text, cut, ok := readLimited(f, l.budget)
	return agentsFile{Path: path, Text: text, Cut: cut}, info, ok
}

func readLimited(f io.Reader, limit int) (text string, cut bool, ok bool) {
	buf, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return "", false, false
	}
	cut = len(buf) > limit
	if cut {
		buf = buf[:limit]
	}
	return strings.ToValidUTF8(string(bytes.TrimPrefix(buf, []byte("\xef\xbb\xbf"))), ""), cut, true
}

// agentsSection renders the files for the system prompt.
func agentsSection(files []agentsFile) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Workspace instructions (AGENTS.md, CLAUDE.md)\n\nFollow these instructions from the project; where they conflict, the nearest file (last) wins. A file imported with @path comes before the file that imports it.\n")
	for _, f := range files {
		fmt.Fprintf(&b, "\n## %s", f.Path)
		if len(f.Also) > 0 {
			fmt.Fprintf(&b, " (same text as %s)", strings.Join(f.Also, ", "))
		}
		if f.ImportedBy != "" {
			fmt.Fprintf(&b, " (imported by %s)", f.ImportedBy)
		}
		fmt.Fprintf(&b, "\n\n%s\n", strings.TrimRight(f.Text, "\n"))
		if f.Cut {
			fmt.Fprintf(&b, "\n[… %s truncated: instruction text is limited to %d KiB in total …]\n", f.Path, MaxInstructionBytes>>10)
		}
	}
	return b.String()
}
