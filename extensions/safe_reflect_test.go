package extensions

import (
	"reflect"
	"strings"
	"testing"
)

// hostile is written into every string a test can reach.
const hostile = "a\x1b[31mb\u202ec\x07d"

// fillStrings sets every string reachable from v (fields, slices, maps,
// pointers, recursively) to hostile, giving slices and maps one element
// so their contents are reached too.
func fillStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(hostile)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillStrings(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillStrings(v.Index(0))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillStrings(v.Elem())
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		key, val := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillStrings(key)
		fillStrings(val)
		m.SetMapIndex(key, val)
		v.Set(m)
	}
}

// dirtyStrings lists the paths of strings reachable from v that still
// hold an escape, a bidi override or a control character. A named string
// type (Status) is an enum AgentDesk sets, never a package's text.
func dirtyStrings(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == reflect.TypeFor[string]() && strings.ContainsAny(v.String(), "\x1b\u202e\x07") {
			*out = append(*out, path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				dirtyStrings(v.Field(i), path+"."+v.Type().Field(i).Name, out)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			dirtyStrings(v.Index(i), path+"[]", out)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			dirtyStrings(v.Elem(), path, out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			dirtyStrings(k, path+"{key}", out)
			dirtyStrings(v.MapIndex(k), path+"{}", out)
		}
	}
}

// TestForDisplayCleansEveryString fills every string field of Info (its
// Hooks, MCPServers, Agents, Skills, Commands, Options and runs included)
// by reflection, so a field added later cannot ship unsanitised.
func TestForDisplayCleansEveryString(t *testing.T) {
	var info Info
	fillStrings(reflect.ValueOf(&info).Elem())
	var dirty []string
	dirtyStrings(reflect.ValueOf(info.ForDisplay()), "Info", &dirty)
	for _, p := range dirty {
		t.Errorf("%s keeps escape or control characters after ForDisplay", p)
	}
}

// TestFillStringsReachesNestedFields keeps the test above honest: the
// filler must reach a hook's argv and a server's env.
func TestFillStringsReachesNestedFields(t *testing.T) {
	var info Info
	fillStrings(reflect.ValueOf(&info).Elem())
	var dirty []string
	dirtyStrings(reflect.ValueOf(info), "Info", &dirty)
	for _, want := range []string{"Info.Hooks[].Argv[]", "Info.MCPServers[].Env[]", "Info.Agents[].Tools[]", "Info.Name"} {
		found := false
		for _, p := range dirty {
			found = found || p == want
		}
		if !found {
			t.Errorf("filler did not reach %s", want)
		}
	}
}
