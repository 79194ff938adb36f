package permissions

import (
	"fmt"
	"testing"
)

// BenchmarkDecide200 is BENCHMARKS.md's rule-matching target: one call
// against 200 rules (commands and paths), the worst case of no match.
func BenchmarkDecide200(b *testing.B) {
	var rules []Rule
	for i := range 200 {
		text := fmt.Sprintf("Bash(tool%d run:*)", i)
		if i%2 == 1 {
			text = fmt.Sprintf("Read(./dir%d/**)", i)
		}
		r, err := Parse(text)
		if err != nil {
			b.Fatal(err)
		}
		r.Behavior = []Behavior{Allow, Ask, Deny}[i%3]
		rules = append(rules, r)
	}
	s := NewSet("/p", "/home/u", rules)
	cmd := Call{Tool: "run_command", Command: "go test ./... && git status | grep x"}
	read := Call{Tool: "read_file", Path: "src/a/b/c.go"}
	for _, c := range []Call{cmd, read} {
		b.Run(c.Tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.Decide(c)
			}
		})
	}
}
