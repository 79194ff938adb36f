package tools

import (
	"regexp"
	"strings"
	"testing"
)

func TestGlobPatternMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*.go", "main.go", true},
		{"*.go", "src/main.go", false},
		{"*", ".hidden", true},
		{"**", "a", true},
		{"**", "a/b/c", true},
		{"**/*.go", "main.go", true},
		{"**/*.go", "a/b/main.go", true},
		{"**/*.go", "a/b/main.txt", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"a/**", "a", true},
		{"a/**", "a/x/y", true},
		{"a/**", "b/x", false},
		{"**/test/**", "x/test/y", true},
		{"**/test/**", "test", true},
		{"**/test/**", "tests/y", false},
		{"a**b", "axxb", true},
		{"a**b", "ax/xb", false},
		{"src/?.go", "src/a.go", true},
		{"src/?.go", "src/ab.go", false},
		{"[ab]/*", "b/x", true},
		{"[ab]/*", "c/x", false},
		{`\*`, "*", true},
		{`\*`, "x", false},
		{"./src//*.go", "src/a.go", true},
		{"**/**/x", "x", true},
		{"*.{go,md}", "README.md", true},
		{"*.{go,md}", "main.c", false},
		{"{src,lib}/**/*.go", "lib/x/a.go", true},
		{"{src/a,lib}/*.go", "src/a/b.go", true},
		// Found by FuzzGlobMatch where doublestar alone differs.
		{"*", "", false},
		{"a***", "a", true},
		{"a*/**", "a", true},
		{"x/a?*/**", "x/ab", true},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.name, func(t *testing.T) {
			p, err := parseGlob(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.match(splitPath(tt.name)); got != tt.want {
				t.Errorf("match = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGlobPatternMayMatchBelow(t *testing.T) {
	tests := []struct {
		pattern, dir string
		want         bool
	}{
		{"*.go", "src", false},
		{"src/*.go", "src", true},
		{"src/*.go", "lib", false},
		{"src/*.go", "src/x", false},
		{"**/*.go", "a/b/c", true},
		{"a/**", "a", true},
		{"a/**/b", "a/x", true},
		{"a/**/b", "b", false},
		{"{src,lib}/*.go", "lib", true},
		{"{src,lib}/*.go", "doc", false},
		{"{src/a,lib}/*.go", "src", true}, // braces across '/': no pruning
	}
	for _, tt := range tests {
		p, err := parseGlob(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.mayMatchBelow(splitPath(tt.dir)); got != tt.want {
			t.Errorf("%q mayMatchBelow(%q) = %v, want %v", tt.pattern, tt.dir, got, tt.want)
		}
	}
}

func TestParseGlobErrors(t *testing.T) {
	for _, pattern := range []string{"", "/", "./", "src/[a", `a\`, "{a,b"} {
		if _, err := parseGlob(pattern); err == nil {
			t.Errorf("parseGlob(%q) succeeded", pattern)
		}
	}
}

// FuzzGlobMatch checks the matcher never panics, that pruning never hides
// a match, and, for patterns of plain letters, `*`, `?` and `**`, that it
// agrees with an independent regular-expression translation.
func FuzzGlobMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{"**/*.go", "a/b/c.go"}, {"a/**/b", "a/b"}, {"a/**", "a"}, {"**", ""},
		{"*a*/**/?b", "xa/y/zb"}, {"[a-", "a"}, {`\`, "x"}, {"**/**/a", "a/a/a"},
		{"{a,b/c}/d", "b/c/d"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		p, err := parseGlob(pattern)
		if err != nil {
			return
		}
		segs := splitPath(name)
		matched := p.match(segs)
		if matched {
			for i := range segs {
				if !p.mayMatchBelow(segs[:i]) {
					t.Fatalf("%q matches %q but mayMatchBelow(%q) is false", pattern, name, segs[:i])
				}
			}
		}
		if !simpleGlob.MatchString(pattern) {
			return
		}
		if want := referenceMatch(p, segs); matched != want {
			t.Fatalf("match(%q, %q) = %v, reference says %v", pattern, name, matched, want)
		}
	})
}

// simpleGlob accepts patterns whose meaning referenceMatch can translate.
var simpleGlob = regexp.MustCompile(`^[ab*?/.]*$`)

// referenceMatch translates a pattern into one anchored regular expression
// over "/seg1/seg2...": a "**" segment is any number of "/segment"
// groups, "*" and "?" stay inside one segment.
func referenceMatch(p globPattern, segs []string) bool {
	var re strings.Builder
	re.WriteString("^")
	for _, seg := range p.segs {
		if seg == doubleStar {
			re.WriteString("(?:/[^/]+)*")
			continue
		}
		re.WriteString("/")
		for _, c := range seg {
			switch c {
			case '*':
				re.WriteString("[^/]*")
			case '?':
				re.WriteString("[^/]")
			default:
				re.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
	}
	re.WriteString("$")
	name := ""
	for _, s := range segs {
		name += "/" + s
	}
	return regexp.MustCompile(re.String()).MatchString(name)
}
