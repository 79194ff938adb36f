package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of a server's tool list.
const (
	// MaxTools is how many tools one server may offer.
	MaxTools = 256
	// MaxSchemaBytes bounds one tool's input schema.
	MaxSchemaBytes = 64 << 10
	// MaxDescriptionBytes bounds one tool's description as sent to the model.
	MaxDescriptionBytes = 4 << 10
)

// Tool is one tool a server offers.
type Tool struct {
	Name        string
	Title       string
	Description string
	Schema      json.RawMessage // the input schema, validated
	// ReadOnly is the server's readOnlyHint: a hint that may lower the
	// risk shown to the user, never a reason to skip asking.
	ReadOnly bool
	// Problem says why the tool is left out (a bad schema); "" when usable.
	Problem string
}

// Tools lists the server's tools (all pages, at most MaxTools, then one
// left-out entry saying the rest were not used), each
// schema validated: a tool whose schema is not a valid JSON Schema object
// keeps its name with the Problem, and is never offered to the model.
func (c *Conn) Tools(ctx context.Context) ([]Tool, error) {
	var out []Tool
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		if len(out) == MaxTools {
			// Said where the tools are listed (a left-out entry becomes a
			// notice in the turn and a line on the card), not dropped.
			return append(out, Tool{Name: fmt.Sprintf("(tools after the first %d)", MaxTools),
				Problem: fmt.Sprintf("the server offers more than %d tools; AgentDesk uses the first %d", MaxTools, MaxTools)}), nil
		}
		out = append(out, toTool(t))
	}
	return out, nil
}

func toTool(t *mcp.Tool) Tool {
	out := Tool{Name: t.Name, Title: t.Title, Description: truncate(t.Description, MaxDescriptionBytes)}
	if t.Annotations != nil {
		out.ReadOnly = t.Annotations.ReadOnlyHint
		if out.Title == "" {
			out.Title = t.Annotations.Title
		}
	}
	out.Schema, out.Problem = checkSchema(t.InputSchema)
	return out
}

// checkSchema returns the input schema as JSON if it is a JSON Schema
// object the SDK's validator can resolve, with "type": "object" at the
// top, bounded in size.
func checkSchema(v any) (json.RawMessage, string) {
	raw, err := json.Marshal(v)
	if err != nil || v == nil {
		return nil, "no input schema"
	}
	if len(raw) > MaxSchemaBytes {
		return nil, fmt.Sprintf("input schema is %d KiB, over the %d KiB limit", len(raw)>>10, MaxSchemaBytes>>10)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, "input schema is not a JSON Schema: " + err.Error()
	}
	if s.Type != "object" {
		return nil, fmt.Sprintf("input schema must describe an object (type %q)", s.Type)
	}
	s.Schema = "" // drafts before 2020-12 describe tool inputs the same way
	if _, err := s.Resolve(nil); err != nil {
		return nil, "input schema does not resolve: " + err.Error()
	}
	return raw, ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// ErrCallTimeout: a tool call ran past its timeout.
var ErrCallTimeout = errors.New("the tool call timed out")

// Call calls one tool and renders its result for the model within
// maxBytes. Cancelling ctx sends notifications/cancelled to the server.
func (c *Conn) Call(ctx context.Context, tool string, args json.RawMessage, maxBytes int) (text string, isError bool, err error) {
	var params map[string]any
	if len(args) > 0 {
		if err := json.Unmarshal(args, &params); err != nil {
			return "", true, fmt.Errorf("arguments are not a JSON object: %w", err)
		}
	}
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: params})
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", true, ErrCallTimeout
		}
		if ctx.Err() != nil {
			return "", true, ctx.Err()
		}
		if exit := c.Err(); exit != nil {
			return "", true, exit
		}
		return "", true, err
	}
	text = Render(res, maxBytes)
	return text, res.IsError, nil
}
