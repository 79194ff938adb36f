// Package tools holds the coding agent's tools: reading, listing and
// searching files, writing and editing them, and running shell commands.
//
// Every file path goes through an os.Root opened on the project directory
// (and, for reads, on each allowed skill folder), so `..` and symlinks
// cannot leave those trees: the runtime enforces it, not path arithmetic.
// Every failure, refusal and timeout comes back as a Result the model can
// read. Asking the user before edits and commands is the agent loop's job;
// tools only say which Kind they are and what to show.
package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/llm"
)

// Bounds on what one tool call may read, return or run.
const (
	// MaxReadBytes caps the text read_file returns in one call.
	MaxReadBytes = 1 << 20
	// MaxSearchResults caps the results of glob, grep and list_dir.
	MaxSearchResults = 500
	// MaxVisitEntries caps the directory entries one search may visit.
	MaxVisitEntries = 50_000
	// MaxGrepFileBytes is the largest file grep searches.
	MaxGrepFileBytes = 1 << 20
	// MaxEditBytes is the largest file edit_file and write_file will diff
	// and rewrite.
	MaxEditBytes = 8 << 20
	// HeadTailBytes is how much of the start and of the end of each
	// command output stream run_command keeps.
	HeadTailBytes = 32 << 10
	// DefaultCommandTimeout applies when neither Options nor the call set one.
	DefaultCommandTimeout = 2 * time.Minute
	// MaxCommandTimeout caps the timeout a call may ask for.
	MaxCommandTimeout = 10 * time.Minute
)

// apiKeyVariable is removed from the default command environment so a
// command cannot read the provider key AgentDesk itself was started with.
const apiKeyVariable = "AGENTDESK_API_KEY"

// Kind tells the agent loop whether a tool call needs the user's approval.
type Kind int

const (
	// ReadOnly tools read inside the allowed roots and run without asking.
	ReadOnly Kind = iota
	// Edit tools change files inside the project.
	Edit
	// Command tools run programs.
	Command
)

// Result is what the model reads back from a call. Errors, refusals and
// timeouts are Results with IsError set, never lost Go errors.
type Result struct {
	Text    string
	IsError bool
}

// Preview is what the approval dialog shows before an Edit or Command runs.
type Preview struct {
	Title   string // e.g. "Edit src/main.go"
	Detail  string // a short line under the title
	Diff    string // unified diff of the change, for edits
	Command string // the exact command text, for commands
	Dir     string // the directory a command runs in
}

// Tool is one tool the model may call.
type Tool interface {
	// Spec names and describes the tool to the model.
	Spec() llm.ToolSpec
	// Kind says whether a call needs approval.
	Kind() Kind
	// Preview describes a call for the approval dialog. An error means the
	// call cannot succeed (bad arguments, no match); its text belongs in the
	// tool result.
	Preview(args json.RawMessage) (Preview, error)
	// Run performs the call.
	Run(ctx context.Context, args json.RawMessage) Result
}

// tool is what every tool in the Set implements: the public Tool plus the
// one-line summary used by Set.Describe.
type tool interface {
	Tool
	summary(args json.RawMessage) string
}

// Options configure a Set.
type Options struct {
	// ReadRoots returns extra read-only folders (enabled skill folders).
	// It is called on every file access, because the set changes when
	// extensions are enabled or disabled. Nil means none.
	ReadRoots func() []ReadRoot
	// CommandTimeout is run_command's default timeout; zero means
	// DefaultCommandTimeout.
	CommandTimeout time.Duration
	// Env is run_command's environment; nil means this process's
	// environment without AGENTDESK_API_KEY.
	Env []string
	// ExtraEnv, when set, is called for every command and its NAME=value
	// pairs override Env's (a trusted project's settings env).
	ExtraEnv func() []string
	// Unconfined runs commands without the sandbox, which otherwise lets
	// them write only the project (see childproc.Sandbox).
	Unconfined bool
	// NoNetwork refuses confined commands TCP (the project's "Commands
	// have no network").
	NoNetwork bool
}

// ReadRoot is a read-only folder the read tools may read.
type ReadRoot struct {
	Dir string
	// Writable makes it a working folder beside the project (a trusted
	// project's additionalDirectories): write_file and edit_file may
	// change files in it, through the same approval as in the project.
	Writable bool
	// Expand, when set, rewrites what read_file returns for file (an
	// absolute path below Dir); a non-empty note says what it replaced
	// and heads the result.
	Expand func(file, text string) (expanded, note string)
}

// limits are the bounds a Set enforces; tests shrink them to stay fast.
type limits struct {
	readBytes     int
	searchResults int
	visitEntries  int
}

// Set is the agent's tool box for one project. It is safe for concurrent
// use; Close releases the project root.
type Set struct {
	roots  *roots
	limits *limits
	tools  []tool
	byName map[string]tool
}

// New opens the tool set on projectDir, which must be an existing directory.
func New(projectDir string, opts Options) (*Set, error) {
	r, err := openRoots(projectDir, opts.ReadRoots)
	if err != nil {
		return nil, fmt.Errorf("open tools on %s: %w", projectDir, err)
	}
	lim := &limits{
		readBytes:     MaxReadBytes,
		searchResults: MaxSearchResults,
		visitEntries:  MaxVisitEntries,
	}
	timeout := opts.CommandTimeout
	if timeout <= 0 {
		timeout = DefaultCommandTimeout
	}
	env := opts.Env
	if env == nil {
		env = withoutVariable(os.Environ(), apiKeyVariable)
	}
	s := &Set{roots: r, limits: lim}
	s.tools = []tool{
		&readFile{roots: r, limits: lim},
		&listDir{roots: r, limits: lim},
		&glob{roots: r, limits: lim},
		&grep{roots: r, limits: lim},
		&writeFile{roots: r},
		&editFile{roots: r},
		&runCommand{dir: r.projectDir, env: env, extraEnv: opts.ExtraEnv, defaultTimeout: min(timeout, MaxCommandTimeout),
			sandbox: childproc.Sandbox{Unconfined: opts.Unconfined, Write: []string{r.projectDir}, NoNetwork: opts.NoNetwork}},
	}
	s.byName = make(map[string]tool, len(s.tools))
	for _, t := range s.tools {
		s.byName[t.Spec().Name] = t
	}
	return s, nil
}

// Specs describes every tool to the model, in a stable order.
func (s *Set) Specs() []llm.ToolSpec {
	specs := make([]llm.ToolSpec, len(s.tools))
	for i, t := range s.tools {
		specs[i] = t.Spec()
	}
	return specs
}

// Lookup finds a tool by the name the model used.
func (s *Set) Lookup(name string) (Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// Describe is a one-line human summary of a call for the transcript, such
// as "read_file src/x.go" or "run_command go test ./...".
func (s *Set) Describe(name string, args json.RawMessage) string {
	t, ok := s.byName[name]
	if !ok {
		return oneLine(name + " (unknown tool)")
	}
	return oneLine(t.summary(args))
}

// Close releases the project root. Calls after Close fail.
func (s *Set) Close() error {
	return s.roots.close()
}

// maxSummaryRunes keeps Describe lines short enough for one transcript row.
const maxSummaryRunes = 120

// OneLine keeps the first line of s, shortened for one transcript row.
func OneLine(s string) string { return oneLine(s) }

// oneLine keeps the first line of s, shortened to maxSummaryRunes.
func oneLine(s string) string {
	first, rest, multi := strings.Cut(s, "\n")
	runes := []rune(first)
	if len(runes) > maxSummaryRunes {
		return string(runes[:maxSummaryRunes-1]) + "…"
	}
	if multi && strings.TrimSpace(rest) != "" {
		return first + " …"
	}
	return first
}

// withoutVariable returns env without the entries setting name.
func withoutVariable(env []string, name string) []string {
	kept := make([]string, 0, len(env))
	for _, kv := range env {
		key, _, _ := strings.Cut(kv, "=")
		if !sameVariable(key, name) {
			kept = append(kept, kv)
		}
	}
	return kept
}

// sameVariable compares variable names the way the OS does: Windows
// ignores case, Unix does not.
func sameVariable(a, b string) bool {
	if filepath.Separator == '\\' {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// decodeArgs unmarshals the model's argument object into v. Unknown fields
// are ignored: models add them often and they change nothing.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// errRequired reports a missing required argument.
func errRequired(name string) error {
	return fmt.Errorf("invalid arguments: %s is required", name)
}

// failure is an error Result.
func failure(err error) Result {
	return Result{Text: err.Error(), IsError: true}
}

// pathProblem words a file-system error for the model: the tool's verb,
// the path as the model wrote it, and the cause without Go's syscall name.
func pathProblem(verb, shown string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot %s %s: %w", verb, shown, err)
}

// ProjectFile reads a file inside the project (p relative to it, or
// absolute inside it) through the project's os.Root, as the file tools
// do: its absolute path and its text, at most MaxEditBytes. ok is false
// for a path outside the project, a folder, or a file that cannot be
// read. Language servers get the files the agent reads and writes
// through it.
func (s *Set) ProjectFile(p string) (abs, text string, ok bool) {
	loc, err := s.roots.resolve(p, forRead)
	if err != nil {
		return "", "", false
	}
	defer loc.release()
	if loc.root != s.roots.project {
		return "", "", false
	}
	f, err := loc.root.Open(loc.name)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() > MaxEditBytes {
		return "", "", false
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxEditBytes))
	if err != nil {
		return "", "", false
	}
	return filepath.Join(s.roots.projectDir, loc.name), string(data), true
}
