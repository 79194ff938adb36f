package tools

import (
	"encoding/json"
	"fmt"
)

// property is one argument in a tool's JSON Schema.
type property struct {
	Type        string `json:"type"`
	Description string `json:"description"`
	Minimum     int    `json:"minimum,omitempty"`
	Maximum     int    `json:"maximum,omitempty"`
}

// objectSchema is the JSON Schema of a tool's argument object.
type objectSchema struct {
	Type                 string              `json:"type"`
	Properties           map[string]property `json:"properties"`
	Required             []string            `json:"required,omitempty"`
	AdditionalProperties bool                `json:"additionalProperties"`
}

// parameters renders an argument object schema.
func parameters(required []string, props map[string]property) json.RawMessage {
	b, err := json.Marshal(objectSchema{Type: "object", Properties: props, Required: required})
	if err != nil {
		// The schema types above always marshal; reaching this is a bug.
		panic(fmt.Sprintf("marshal tool schema: %v", err))
	}
	return b
}

// pathProperty documents a path argument the same way in every tool.
func pathProperty(what string) property {
	return property{
		Type: "string",
		Description: what + " Relative paths are relative to the project root; " +
			"absolute paths must lie inside the project root or, for reading, an enabled skill folder.",
	}
}
