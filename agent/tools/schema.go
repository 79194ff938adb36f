package tools

import (
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
)

// pathNote ends the description of every tool's "path" argument, so all
// of them explain paths the same way.
const pathNote = " Relative paths are relative to the project root; " +
	"absolute paths must lie inside the project root or, for reading, an enabled skill folder."

// schemaOf is the JSON Schema of a tool's argument struct, generated from
// the struct so the two cannot drift: one property per JSON field,
// described by its jsonschema_description tag, required where tagged
// jsonschema:"required", no other properties allowed. It is inline (no
// $ref or $defs) and carries no $schema or $id, which tool-calling APIs
// do not need and some local servers' grammar converters reject.
func schemaOf(args any) json.RawMessage {
	return SchemaOf(args)
}

// SchemaOf is schemaOf for tools outside this package (the agent loop's
// task tool), so every tool's schema is made the same way.
func SchemaOf(args any) json.RawMessage {
	r := jsonschema.Reflector{Anonymous: true, DoNotReference: true, RequiredFromJSONSchemaTags: true}
	s := r.Reflect(args)
	s.Version = ""
	if p, ok := s.Properties.Get("path"); ok {
		p.Description += pathNote
	}
	b, err := json.Marshal(s)
	if err != nil {
		// Argument structs hold only strings, numbers and booleans, which
		// always marshal; reaching this is a bug.
		panic(fmt.Sprintf("marshal tool schema: %v", err))
	}
	return b
}
