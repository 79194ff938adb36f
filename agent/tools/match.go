package tools

import (
	"fmt"
	"path"
	"strings"
)

// doubleStar is the pattern segment that matches any number of segments.
const doubleStar = "**"

// globPattern is a slash-separated glob split into segments. A segment is
// matched with path.Match against one path segment, except a segment that
// is exactly "**", which matches zero or more whole segments.
type globPattern []string

// parseGlob splits and checks a pattern. Empty and "." segments are
// dropped, so "./src//*.go" means "src/*.go".
func parseGlob(pattern string) (globPattern, error) {
	var segs globPattern
	for _, seg := range strings.Split(pattern, "/") {
		if seg == "" || seg == "." {
			continue
		}
		if seg == doubleStar && len(segs) > 0 && segs[len(segs)-1] == doubleStar {
			continue // "**/**" means the same as "**"
		}
		if _, err := path.Match(seg, ""); err != nil {
			return nil, fmt.Errorf("invalid glob pattern %q: bad segment %q", pattern, seg)
		}
		segs = append(segs, seg)
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("invalid glob pattern %q: it names no files", pattern)
	}
	return segs, nil
}

// match reports whether the path segments name match the whole pattern.
func (p globPattern) match(name []string) bool {
	return p.solve(name, false)
}

// mayMatchBelow reports whether some path strictly below the directory
// dir could match, so a walk can skip directories that cannot.
func (p globPattern) mayMatchBelow(dir []string) bool {
	return p.solve(dir, true)
}

// solve runs a dynamic programme over (pattern segment, name segment)
// positions instead of backtracking, so patterns with many "**" stay
// linear in len(p)*len(name). ok[i][j] says p[i:] matches name[j:]; with
// below set, it says name[j:] plus at least one more segment could match.
func (p globPattern) solve(name []string, below bool) bool {
	np, nn := len(p), len(name)
	width := nn + 1
	ok := make([]bool, (np+1)*width)
	at := func(i, j int) *bool { return &ok[i*width+j] }
	*at(np, nn) = !below
	for i := np - 1; i >= 0; i-- {
		if below {
			*at(i, nn) = true
		} else {
			*at(i, nn) = p[i] == doubleStar && *at(i+1, nn)
		}
		for j := nn - 1; j >= 0; j-- {
			if p[i] == doubleStar {
				*at(i, j) = *at(i+1, j) || *at(i, j+1)
				continue
			}
			matched, _ := path.Match(p[i], name[j]) // p was validated by parseGlob
			*at(i, j) = matched && *at(i+1, j+1)
		}
	}
	return *at(0, 0)
}

// splitLiteral separates the leading segments without wildcards, which
// name a directory to start from, from the rest. At least one segment
// stays in rest.
func (p globPattern) splitLiteral() (prefix []string, rest globPattern) {
	n := 0
	for n < len(p)-1 && !hasMeta(p[n]) {
		n++
	}
	return p[:n], p[n:]
}

// hasMeta reports whether a segment has characters path.Match treats
// specially.
func hasMeta(seg string) bool {
	return strings.ContainsAny(seg, `*?[\`)
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
