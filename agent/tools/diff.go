package tools

import (
	"fmt"
	"slices"
	"strings"
)

// diffContextLines is how many unchanged lines surround each hunk.
const diffContextLines = 3

// maxDiffEdits bounds the Myers search: past this many changed lines the
// middle of the file is shown as removed and re-added, which is still a
// correct diff, instead of spending quadratic time and memory on it.
const maxDiffEdits = 1000

// opKind is one line of an edit script, written as its diff prefix.
type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

// unifiedDiff returns the unified diff from oldText to newText with the
// given file labels, or "" when the texts are equal. A label of
// "/dev/null" marks a created file.
func unifiedDiff(oldLabel, newLabel, oldText, newText string) string {
	if oldText == newText {
		return ""
	}
	a, b := splitLines(oldText), splitLines(newText)
	ops := diffOps(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldLabel, newLabel)
	aPos, bPos := positions(ops)
	for _, h := range hunkRanges(ops) {
		writeHunk(&out, h, ops, a, b, aPos, bPos)
	}
	return out.String()
}

// splitLines splits text into lines that keep their "\n"; only the last
// line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffOps is a shortest edit script from a to b. The common head and
// tail are trimmed first, so a small edit in a large file stays cheap.
func diffOps(a, b []string) []opKind {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]opKind, 0, len(a)+len(b))
	ops = appendRepeat(ops, opEqual, pre)
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	return appendRepeat(ops, opEqual, suf)
}

// myers is Myers' O(ND) diff. It keeps, for each edit distance d, the
// furthest-reaching x of every diagonal k in [-d-1, d+1] so the path can
// be walked back; that is O(D²) memory, bounded by maxDiffEdits.
func myers(a, b []string) []opKind {
	n, m := len(a), len(b)
	limit := min(n+m, maxDiffEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, slices.Clone(v[off-d-1:off+d+2]))
		for k := -d; k <= d; k += 2 {
			x := furthest(func(k int) int { return v[off+k] }, k, d)
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m)
			}
		}
	}
	return appendRepeat(appendRepeat(nil, opDelete, n), opInsert, m)
}

// furthest picks where diagonal k starts in round d: down from k+1 (an
// insertion) or right from k-1 (a deletion), whichever reached further.
func furthest(x func(k int) int, k, d int) int {
	if k == -d || (k != d && x(k-1) < x(k+1)) {
		return x(k + 1)
	}
	return x(k-1) + 1
}

// backtrack walks the saved rounds from (n, m) back to (0, 0).
func backtrack(trace [][]int, n, m int) []opKind {
	ops := make([]opKind, 0, n+m)
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		snap := trace[d]
		at := func(k int) int { return snap[k+d+1] }
		k := x - y
		prevK := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			ops = append(ops, opEqual)
			x, y = x-1, y-1
		}
		if d > 0 && x == prevX {
			ops = append(ops, opInsert)
		} else if d > 0 {
			ops = append(ops, opDelete)
		}
		x, y = prevX, prevY
	}
	slices.Reverse(ops)
	return ops
}

func appendRepeat(ops []opKind, op opKind, n int) []opKind {
	for range n {
		ops = append(ops, op)
	}
	return ops
}

// positions returns, for every op index, how many old and new lines come
// before it.
func positions(ops []opKind) (aPos, bPos []int) {
	aPos, bPos = make([]int, len(ops)+1), make([]int, len(ops)+1)
	for i, op := range ops {
		aPos[i+1], bPos[i+1] = aPos[i], bPos[i]
		if op != opInsert {
			aPos[i+1]++
		}
		if op != opDelete {
			bPos[i+1]++
		}
	}
	return aPos, bPos
}

// span is a hunk as a half-open range of op indexes.
type span struct{ start, end int }

// hunkRanges groups changes into hunks with context, merging changes
// separated by no more than twice the context, as diff -u does.
func hunkRanges(ops []opKind) []span {
	var hunks []span
	for i := 0; i < len(ops); i++ {
		if ops[i] == opEqual {
			continue
		}
		last := i
		for j := i + 1; j < len(ops) && j-last <= 2*diffContextLines+1; j++ {
			if ops[j] != opEqual {
				last = j
			}
		}
		end := min(last+1+diffContextLines, len(ops))
		hunks = append(hunks, span{start: max(i-diffContextLines, 0), end: end})
		i = end - 1
	}
	return hunks
}

func writeHunk(out *strings.Builder, h span, ops []opKind, a, b []string, aPos, bPos []int) {
	ai, bi := aPos[h.start], bPos[h.start]
	fmt.Fprintf(out, "@@ -%s +%s @@\n",
		hunkRange(ai, aPos[h.end]-ai), hunkRange(bi, bPos[h.end]-bi))
	for _, op := range ops[h.start:h.end] {
		switch op {
		case opEqual:
			writeDiffLine(out, op, a[ai])
			ai, bi = ai+1, bi+1
		case opDelete:
			writeDiffLine(out, op, a[ai])
			ai++
		case opInsert:
			writeDiffLine(out, op, b[bi])
			bi++
		}
	}
}

// hunkRange formats one side of a hunk header the way diff -u does: the
// ",1" count is left out, and an empty side names the line before it.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

func writeDiffLine(out *strings.Builder, op opKind, line string) {
	out.WriteByte(byte(op))
	out.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}
