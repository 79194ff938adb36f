package ui

// licences names the licence of every module AgentDesk requires directly
// (go.mod's first require block; TestLicencesListEveryDirectModule keeps
// the two in step), for the About dialog. Read from each module's
// LICENSE file.
var licences = []struct{ module, licence string }{
	{"fyne.io/fyne/v2", "BSD-3-Clause"},
	{"github.com/adrg/xdg", "MIT"},
	{"github.com/alecthomas/chroma/v2", "MIT"},
	{"github.com/anthropics/anthropic-sdk-go/v2", "Apache-2.0"},
	{"github.com/aymanbagabas/go-udiff", "BSD-3-Clause"},
	{"github.com/bmatcuk/doublestar/v4", "MIT"},
	{"github.com/go-git/go-git/v5", "Apache-2.0"},
	{"github.com/google/jsonschema-go", "MIT"},
	{"github.com/google/shlex", "Apache-2.0"},
	{"github.com/invopop/jsonschema", "MIT"},
	{"github.com/landlock-lsm/go-landlock", "MIT"},
	{"github.com/mattn/go-sqlite3", "MIT"},
	{"github.com/modelcontextprotocol/go-sdk", "Apache-2.0 and MIT"},
	{"github.com/openai/openai-go/v3", "Apache-2.0"},
	{"github.com/yuin/goldmark", "MIT"},
	{"github.com/zalando/go-keyring", "MIT"},
	{"go.yaml.in/yaml/v3", "MIT and Apache-2.0"},
	{"golang.org/x/oauth2", "BSD-3-Clause"},
	{"golang.org/x/sys", "BSD-3-Clause"},
	{"mvdan.cc/sh/v3", "BSD-3-Clause"},
}
