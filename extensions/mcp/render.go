package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxResultBytes bounds one call's result as the model reads it
// (about 25,000 tokens, Claude Code's default for MCP output).
const DefaultMaxResultBytes = 100 << 10

// Render makes a call result into text for the model: text as is,
// structured content as JSON, resource links and embedded resources by
// URI (embedded text included), images and audio described by type and
// size, never dropped silently. The whole is cut at maxBytes with a note.
func Render(res *mcp.CallToolResult, maxBytes int) string {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxResultBytes
	}
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, renderContent(c))
	}
	if res.StructuredContent != nil && !structuredInText(res) {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, "structured content: "+string(b))
		}
	}
	text := strings.Join(parts, "\n")
	if text == "" {
		text = "(the tool returned nothing)"
	}
	if len(text) > maxBytes {
		total := len(text)
		text = truncate(text, maxBytes) + fmt.Sprintf("\n[result cut: %d of %d bytes shown]", maxBytes, total)
	}
	return text
}

// structuredInText: servers built with typed outputs repeat the structured
// value as JSON text; send it once.
func structuredInText(res *mcp.CallToolResult) bool {
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return false
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && strings.TrimSpace(t.Text) == string(b) {
			return true
		}
	}
	return false
}

func renderContent(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes: not shown to the model]", c.MIMEType, len(c.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes: not shown to the model]", c.MIMEType, len(c.Data))
	case *mcp.ResourceLink:
		s := "[resource link " + c.URI
		if c.Name != "" {
			s += " (" + c.Name + ")"
		}
		if c.Description != "" {
			s += ": " + c.Description
		}
		return s + "]"
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return "[embedded resource]"
		}
		if c.Resource.Text != "" {
			return "[resource " + c.Resource.URI + "]\n" + c.Resource.Text
		}
		return fmt.Sprintf("[resource %s, %s, %d bytes: binary, not shown]", c.Resource.URI, c.Resource.MIMEType, len(c.Resource.Blob))
	}
	return fmt.Sprintf("[%T content: not shown]", c)
}
