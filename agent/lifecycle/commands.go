package lifecycle

import (
	"context"
	"errors"
)

// Command is one slash command an enabled extension offers. Its body never
// leaves the extension side: the loop asks CommandSource.Expand for the
// prompt when the user runs it.
type Command struct {
	Name         string   // as typed after "/": "review", or namespaced "probe:review"
	Extension    string   // extension id
	Label        string   // extension display name
	Description  string   // may be empty
	ArgumentHint string   // "[pr-number] [priority]"; may be empty
	AllowedTools []string // shown only: never used to skip approval
}

// CommandConflict is a short name that more than one extension defines, or
// that a host command already has: only the namespaced forms run.
type CommandConflict struct {
	Name    string   // the short name, without "/"
	Sources []string // extension ids defining it, in installation order
	Host    bool     // a host command has the name
}

// CommandSet is what the user may type right now: every command as
// /EXT:NAME, and as /NAME where the short name is unique.
type CommandSet struct {
	Commands  []Command // short names first, then namespaced, each sorted
	Conflicts []CommandConflict
}

// Expansion is a command made into the prompt the model gets.
type Expansion struct {
	Command Command
	Prompt  string
	// NotRun are the inline shell commands (!`cmd`) of the body: never
	// executed, replaced in Prompt by a visible marker.
	NotRun []string
}

// ErrUnknownCommand: no enabled extension has the command; the text is an
// ordinary prompt ("/usr/bin is empty?").
var ErrUnknownCommand = errors.New("no such command")

// CommandSource gives the enabled extensions' slash commands: as the job
// ctx belongs to sees them (TurnScope), else as they are now, so a
// disabled or uninstalled extension's commands are gone at once.
type CommandSource interface {
	// Commands lists the commands for a session in projectDir ("": the
	// window's folder); reserved are the host commands' names (without
	// "/"), which extension commands never shadow.
	Commands(ctx context.Context, projectDir string, reserved []string) CommandSet
	// Expand resolves name (without "/") and returns the prompt for args,
	// the text after the name as typed. ErrUnknownCommand when no
	// extension has it; another error (an ambiguous short name) is for
	// the user, and nothing is sent.
	Expand(ctx context.Context, name, args, projectDir string) (Expansion, error)
}
