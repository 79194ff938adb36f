package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// binarySniffBytes is how much of a file is checked for NUL bytes, the
// same heuristic git and grep use to call a file binary.
const binarySniffBytes = 8000

// readFile is the read_file tool.
type readFile struct {
	roots  *roots
	limits *limits
}

type readFileArgs struct {
	Path   string `json:"path" jsonschema:"required" jsonschema_description:"The file to read."`
	Offset int    `json:"offset" jsonschema:"minimum=1" jsonschema_description:"First line to return, counting from 1. Default 1."`
	Limit  int    `json:"limit" jsonschema:"minimum=1" jsonschema_description:"Most lines to return. Default: to the end of the file."`
}

func (a *readFileArgs) parse(raw json.RawMessage) error {
	if err := decodeArgs(raw, a); err != nil {
		return err
	}
	switch {
	case a.Path == "":
		return errRequired("path")
	case a.Offset < 0:
		return fmt.Errorf("invalid arguments: offset must be at least 1, got %d", a.Offset)
	case a.Limit < 0:
		return fmt.Errorf("invalid arguments: limit must be at least 1, got %d", a.Limit)
	}
	a.Offset = max(a.Offset, 1)
	return nil
}

func (t *readFile) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "read_file",
		Description: fmt.Sprintf("Read a text file. Lines come back numbered like `cat -n`. "+
			"Use offset and limit to read part of a large file; one call returns at most %d KiB "+
			"and says where to continue. Binary files and directories are refused (use list_dir for directories).",
			MaxReadBytes>>10),
		Parameters: schemaOf(readFileArgs{}),
	}
}

func (t *readFile) Kind() Kind { return ReadOnly }

func (t *readFile) summary(raw json.RawMessage) string {
	var a readFileArgs
	if err := a.parse(raw); err != nil {
		return "read_file (invalid arguments)"
	}
	switch {
	case a.Limit > 0:
		return fmt.Sprintf("read_file %s (lines %d-%d)", a.Path, a.Offset, a.Offset+a.Limit-1)
	case a.Offset > 1:
		return fmt.Sprintf("read_file %s (from line %d)", a.Path, a.Offset)
	}
	return "read_file " + a.Path
}

func (t *readFile) Preview(raw json.RawMessage) (Preview, error) {
	var a readFileArgs
	if err := a.parse(raw); err != nil {
		return Preview{}, err
	}
	return Preview{Title: t.summary(raw)}, nil
}

func (t *readFile) Run(_ context.Context, raw json.RawMessage) Result {
	var a readFileArgs
	if err := a.parse(raw); err != nil {
		return failure(err)
	}
	loc, err := t.roots.resolve(a.Path, forRead)
	if err != nil {
		return failure(err)
	}
	defer loc.release()
	text, err := t.read(loc, a)
	if err != nil {
		return failure(err)
	}
	if loc.expand != nil {
		var note string
		if text, note = loc.expand(loc.show(loc.name), text); note != "" {
			text = "[" + note + "]\n" + text
		}
	}
	return Result{Text: text}
}

// read opens the file, refuses binaries and numbers the requested lines.
func (t *readFile) read(loc location, a readFileArgs) (string, error) {
	f, err := openRegular(loc, "read")
	if err != nil {
		return "", err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(binarySniffBytes)
	if err != nil && err != io.EOF {
		return "", pathProblem("read", a.Path, err)
	}
	if isBinary(head) {
		return "", fmt.Errorf("%s is a binary file; read_file only shows text", a.Path)
	}
	if len(head) == 0 {
		return "(empty file)", nil
	}
	return numberLines(br, a, t.limits.readBytes)
}

// numberLines formats lines offset..offset+limit-1 like `cat -n`, stopping
// before the output passes budget bytes and saying where to go on.
func numberLines(br *bufio.Reader, a readFileArgs, budget int) (string, error) {
	var out strings.Builder
	shown := 0
	for n := 1; a.Limit == 0 || shown < a.Limit; n++ {
		keep := 0
		if n >= a.Offset {
			keep = max(budget-out.Len(), 0)
		}
		line, size, ok, err := nextLine(br, keep)
		if err != nil {
			return "", pathProblem("read", a.Path, err)
		}
		if !ok {
			if n <= a.Offset && shown == 0 {
				return "", fmt.Errorf("offset %d is past the end of %s, which has %d lines", a.Offset, a.Path, n-1)
			}
			break
		}
		if n < a.Offset {
			continue
		}
		entry := fmt.Sprintf("%6d\t%s\n", n, line)
		if out.Len()+len(entry) > budget || len(line) < size {
			return truncated(&out, entry, n, budget), nil
		}
		out.WriteString(entry)
		shown++
	}
	return out.String(), nil
}

// truncated ends a read that reached its byte budget at line n. A single
// line longer than the budget is shown cut, so the call is never empty.
func truncated(out *strings.Builder, entry string, n, budget int) string {
	if out.Len() > 0 {
		fmt.Fprintf(out, "[output truncated at %d bytes before line %d; continue with offset=%d]\n", budget, n, n)
		return out.String()
	}
	out.WriteString(entry[:min(len(entry), budget)])
	fmt.Fprintf(out, "\n[line %d is longer than %d bytes and was cut; continue with offset=%d]\n", n, budget, n+1)
	return out.String()
}

// nextLine reads one line and returns at most keep bytes of it, without
// the newline, plus the line's full size. ok is false at end of file.
func nextLine(br *bufio.Reader, keep int) (line []byte, size int, ok bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		ok = ok || len(chunk) > 0
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		size += len(chunk)
		if room := keep - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil, io.EOF:
			return line, size, ok, nil
		default:
			return nil, 0, false, err
		}
	}
}

// openRegular opens a regular file for reading. Anything else is refused
// before opening, because opening a FIFO or device could block or have
// side effects.
func openRegular(loc location, verb string) (*os.File, error) {
	shown := loc.show(loc.name)
	info, err := loc.root.Stat(loc.name)
	if err != nil {
		return nil, pathProblem(verb, shown, err)
	}
	if info.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file; use list_dir or glob to see what it holds", shown)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", shown, info.Mode().Type())
	}
	f, err := loc.root.Open(loc.name)
	if err != nil {
		return nil, pathProblem(verb, shown, err)
	}
	return f, nil
}

// isBinary reports whether a file's first bytes look binary.
func isBinary(head []byte) bool {
	return bytes.IndexByte(head[:min(len(head), binarySniffBytes)], 0) >= 0
}
