package tools

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// doubleStar is the pattern segment that matches any number of segments.
const doubleStar = "**"

// globPattern is a slash-separated glob as doublestar reads it: `*`, `?`,
// `[abc]` and `{a,b}` within a segment, and a segment that is exactly
// "**" matching zero or more whole segments.
type globPattern struct {
	segs []string // the segments, empty and "." ones dropped
	full string   // segs joined by "/", what is matched
}

// parseGlob splits and checks a pattern. Empty and "." segments are
// dropped, so "./src//*.go" means "src/*.go".
func parseGlob(pattern string) (globPattern, error) {
	var segs []string
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "" || seg == "." {
			continue
		}
		if seg == doubleStar && len(segs) > 0 && segs[len(segs)-1] == doubleStar {
			continue // "**/**" means the same as "**"
		}
		if seg != doubleStar {
			seg = collapseStars(seg)
		}
		segs = append(segs, seg)
	}
	if len(segs) == 0 {
		return globPattern{}, fmt.Errorf("invalid glob pattern %q: it names no files", pattern)
	}
	p := newGlobPattern(segs)
	if !doublestar.ValidatePattern(p.full) {
		return globPattern{}, fmt.Errorf("invalid glob pattern %q: unbalanced brackets or braces, or a trailing backslash", pattern)
	}
	return p, nil
}

// collapseStars turns each run of unescaped '*' in a segment into one:
// within a segment they mean the same, but doublestar would read "**"
// there as something else (it does not match "a" with "a***").
func collapseStars(seg string) string {
	var b strings.Builder
	escaped, prevStar := false, false
	for _, r := range seg {
		star := r == '*' && !escaped
		if !(star && prevStar) {
			b.WriteRune(r)
		}
		prevStar = star
		escaped = r == '\\' && !escaped
	}
	return b.String()
}

func newGlobPattern(segs []string) globPattern {
	return globPattern{segs: segs, full: strings.Join(segs, "/")}
}

// match reports whether the path segments name match the whole pattern.
func (p globPattern) match(name []string) bool {
	if len(name) == 0 {
		// No segments at all: only "**" takes none (doublestar's "*"
		// would match the empty string).
		return len(p.segs) == 1 && p.segs[0] == doubleStar
	}
	joined := strings.Join(name, "/")
	if doublestar.MatchUnvalidated(p.full, joined) {
		return true
	}
	// A trailing "**" also matches no segment at all. doublestar misses
	// that after a segment whose last '*' matched nothing ("a*/**" does
	// not match "a"), so that case is asked without the "**".
	n := len(p.segs)
	return n > 1 && p.segs[n-1] == doubleStar && doublestar.MatchUnvalidated(strings.Join(p.segs[:n-1], "/"), joined)
}

// mayMatchBelow reports whether some path strictly below the directory
// dir could match, so a walk can skip directories that cannot. That is
// so when dir matches the first i segments of the pattern and either a
// segment is left for what lies below, or the i-th is "**", which goes
// on matching below. Where such a prefix is not a pattern of its own
// (braces spanning a "/"), it answers yes: pruning only saves time.
func (p globPattern) mayMatchBelow(dir []string) bool {
	if len(dir) == 0 {
		return true
	}
	name := strings.Join(dir, "/")
	for i := 1; i <= len(p.segs); i++ {
		if i == len(p.segs) && p.segs[i-1] != doubleStar {
			break
		}
		prefix := strings.Join(p.segs[:i], "/")
		if !doublestar.ValidatePattern(prefix) {
			return true
		}
		if doublestar.MatchUnvalidated(prefix, name) {
			return true
		}
	}
	return false
}

// splitLiteral separates the leading segments without wildcards, which
// name a directory to start from, from the rest. At least one segment
// stays in rest.
func (p globPattern) splitLiteral() (prefix []string, rest globPattern) {
	n := 0
	for n < len(p.segs)-1 && !hasMeta(p.segs[n]) {
		n++
	}
	return p.segs[:n], newGlobPattern(p.segs[n:])
}

// hasMeta reports whether a segment has characters doublestar treats
// specially.
func hasMeta(seg string) bool {
	return strings.ContainsAny(seg, `*?[{\`)
}

// splitPath splits a slash path into segments, dropping empty ones.
func splitPath(p string) []string {
	var segs []string
	for _, seg := range strings.Split(p, "/") {
		if seg != "" {
			segs = append(segs, seg)
		}
	}
	return segs
}
