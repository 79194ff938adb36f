package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// member is one key of a JSON object, kept in document order: hooks run in
// manifest order, and a Go map would lose it.
type member struct {
	key   string
	value json.RawMessage
}

var errNotObject = errors.New("must be a JSON object")

// parseObject checks data is one JSON object and returns its members in
// order. Syntax errors name the line and column.
func parseObject(data []byte) ([]member, error) {
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		return nil, syntaxError(data, err)
	}
	return orderedMembers(whole)
}

// orderedMembers splits an already valid JSON value into its members.
func orderedMembers(data json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errNotObject
	}
	var members []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // object keys are always strings in valid JSON
		if seen[key] {
			return nil, fmt.Errorf("%q appears twice", key)
		}
		seen[key] = true
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		members = append(members, member{key: key, value: value})
	}
	return members, nil
}

func syntaxError(data []byte, err error) error {
	var syn *json.SyntaxError
	if !errors.As(err, &syn) {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	line, col := lineColumn(data, syn.Offset)
	return fmt.Errorf("invalid JSON at line %d, column %d (byte %d): %w", line, col, syn.Offset, err)
}

// lineColumn converts the offset of a json.SyntaxError, which points just
// past the offending byte, into the 1-based line and column of that byte.
func lineColumn(data []byte, offset int64) (line, col int) {
	before := data[:min(max(offset-1, 0), int64(len(data)))]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// kind reports the JSON type of a raw value by its first byte.
func kind(v json.RawMessage) byte {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return 0
	}
	return v[0]
}

// decodeInto unmarshals a fragment, wording type mismatches for a plugin
// author ("command must be a string, not a number") instead of in Go terms.
func decodeInto(raw json.RawMessage, v any) error {
	err := json.Unmarshal(raw, v)
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) {
		return err
	}
	field := typeErr.Field
	if field == "" {
		field = "value"
	}
	return fmt.Errorf("%s must be %s, not %s", field, jsonTypeName(typeErr.Type), article(typeErr.Value))
}

func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return jsonTypeName(t.Elem())
	}
	return "a number"
}

func article(jsonKind string) string {
	if jsonKind == "object" || jsonKind == "array" {
		return "an " + jsonKind
	}
	return "a " + jsonKind
}

func isNull(v json.RawMessage) bool { return len(v) == 0 || kind(v) == 'n' }
