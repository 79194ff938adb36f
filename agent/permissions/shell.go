package permissions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// commandParts splits a shell command into the simple commands it runs:
// both sides of `&&`, `||`, `;` and pipes, the insides of subshells,
// blocks, `$(...)`, backquotes and process substitutions, each printed
// without its redirections. ok is false when the command does not parse,
// or holds something whose effect no rule can describe (a function
// definition, a loop, a redirection into a file): it is then never
// allowed by a rule, only denied or asked.
func commandParts(cmd string) (parts []string, ok bool) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, false
	}
	ok = true
	printer := syntax.NewPrinter(syntax.Minify(false))
	syntax.Walk(file, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				if !harmlessRedirect(r) {
					ok = false
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 || len(n.Assigns) > 0 {
				parts = append(parts, printCall(printer, n))
			}
		case *syntax.FuncDecl, *syntax.ForClause, *syntax.WhileClause, *syntax.CoprocClause:
			ok = false
		}
		return true
	})
	return parts, ok
}

// harmlessRedirect: reading a file, duplicating a descriptor (2>&1) and
// writing to /dev/null change nothing a rule did not already allow.
func harmlessRedirect(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.DplOut, syntax.DplIn, syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
		return r.Word != nil && r.Word.Lit() == "/dev/null"
	}
	return false
}

// printCall prints one simple command, assignments first, as one line.
func printCall(p *syntax.Printer, c *syntax.CallExpr) string {
	var b strings.Builder
	words := make([]string, 0, len(c.Assigns)+len(c.Args))
	for _, a := range c.Assigns {
		b.Reset()
		_ = p.Print(&b, a)
		words = append(words, b.String())
	}
	for _, w := range c.Args {
		b.Reset()
		_ = p.Print(&b, w)
		words = append(words, b.String())
	}
	return strings.Join(words, " ")
}
