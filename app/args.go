package main

import (
	"fmt"
	"strings"
)

// cmdArgs is a subcommand's parsed command line. Flags may come before or
// after positional arguments (`ext install URL --ref v1`), which the flag
// package does not allow.
type cmdArgs struct {
	pos   []string
	vals  map[string]string
	bools map[string]bool
	// all holds every value of a valued flag, for the repeatable ones
	// (`--plugin a --plugin b`); vals keeps the last.
	all map[string][]string
}

// parseArgs reads args; valued lists the flags that take a value, bools
// those that do not. "--" ends the flags.
func parseArgs(args []string, valued, bools []string) (cmdArgs, error) {
	a := cmdArgs{vals: map[string]string{}, bools: map[string]bool{}, all: map[string][]string{}}
	isValued := set(valued)
	isBool := set(bools)
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.pos = append(a.pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			a.pos = append(a.pos, arg)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		switch {
		case isBool[name] && !hasValue:
			a.bools[name] = true
		case isValued[name] && hasValue:
			a.set(name, value)
		case isValued[name]:
			if i+1 >= len(args) {
				return a, fmt.Errorf("--%s needs a value", name)
			}
			i++
			a.set(name, args[i])
		default:
			return a, fmt.Errorf("unknown flag %s", arg)
		}
	}
	return a, nil
}

func (a cmdArgs) set(name, value string) {
	a.vals[name] = value
	a.all[name] = append(a.all[name], value)
}

func set(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// one returns the single positional argument, or an error naming what is
// expected.
func (a cmdArgs) one(what string) (string, error) {
	if len(a.pos) != 1 {
		return "", fmt.Errorf("expected one %s", what)
	}
	return a.pos[0], nil
}
