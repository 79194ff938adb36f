package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// An extension's output styles are listed by ext enable (skills-only
// trust: no dialog), ext show and --json, like its commands and agents.
func TestExtShowListsOutputStyles(t *testing.T) {
	r := gittest.NewRepo(t)
	r.Commit(t, "main", "v1", map[string]gittest.File{
		".claude-plugin/plugin.json": {Body: `{"name": "styled", "outputStyles": "extra"}`},
		"output-styles/terse.md":     {Body: "---\nname: terse\ndescription: Short answers\nkeep-coding-instructions: true\n---\nBe brief.\n"},
		"extra/writer.md":            {Body: "Write prose.\n"},
	})
	r.SetHEAD(t, "main")
	srv := gittest.Serve(t, map[string]*gittest.Repo{"styled": r})
	c := newCLI(t, "SSL_CERT_FILE="+srv.CAFile)
	c.ok("ext", "install", srv.URL+"/styled.git")
	out := c.ok("ext", "enable", "styled")
	if !strings.Contains(out, "It adds these output styles") || !strings.Contains(out, "terse, writer") || !strings.Contains(out, "2 output styles") {
		t.Fatalf("enable:\n%s", out)
	}
	out = c.ok("ext", "show", "styled")
	if !strings.Contains(out, "output style terse — Short answers\n        added to the coding instructions when chosen") ||
		!strings.Contains(out, "output style writer\n        replaces the coding instructions when chosen") {
		t.Fatalf("show:\n%s", out)
	}
	var raw struct {
		OutputStyles []map[string]any `json:"output_styles"`
	}
	if err := json.Unmarshal([]byte(c.ok("ext", "show", "styled", "--json")), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.OutputStyles) != 2 || raw.OutputStyles[0]["name"] != "terse" || raw.OutputStyles[0]["keep_coding_instructions"] != true ||
		raw.OutputStyles[1]["path"] != "extra/writer.md" || raw.OutputStyles[1]["keep_coding_instructions"] != false {
		t.Fatalf("output_styles JSON: %v", raw.OutputStyles)
	}
}
