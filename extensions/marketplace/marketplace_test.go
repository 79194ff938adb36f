package marketplace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Shapes of real marketplaces: Claude Code's official one (relative
// folders, metadata), a github source with a ref, a url source with a sha,
// a git-subdir, Codex's local form, strict:false, and an npm source.
const realShapes = `{
  "name": "claude-code-plugins",
  "owner": {"name": "Anthropic", "email": "support@anthropic.com"},
  "metadata": {"description": "Bundled plugins", "version": "1.0.0", "pluginRoot": "./plugins"},
  "plugins": [
    {"name": "commit-commands", "description": "Git workflow commands", "version": "1.0.0", "source": "./plugins/commit-commands", "category": "productivity"},
    {"name": "bare", "source": "bare-name"},
    {"name": "superpowers", "description": "Skills library", "source": {"source": "github", "repo": "obra/superpowers", "ref": "v4.0.0"}},
    {"name": "pinned", "source": {"source": "url", "url": "https://gitlab.com/team/plugin.git", "sha": "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0"}},
    {"name": "sub", "source": {"source": "git-subdir", "url": "https://github.com/o/mono.git", "path": "plugins/sub", "ref": "main"}},
    {"name": "codex-local", "source": {"source": "local", "path": "./x"}},
    {"name": "inline", "source": "./inline", "strict": false, "description": "from the entry", "hooks": {"SessionStart": []}},
    {"name": "from-npm", "source": {"source": "npm", "package": "@acme/plugin"}},
    {"name": "over-ssh", "source": {"source": "url", "url": "git@github.com:o/r.git"}}
  ]
}`

func TestParseRealShapes(t *testing.T) {
	m, err := Parse([]byte(realShapes))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"commit-commands": "./plugins/commit-commands",
		"bare":            "./plugins/bare-name",
		"superpowers":     "https://github.com/obra/superpowers.git@v4.0.0",
		"pinned":          "https://gitlab.com/team/plugin.git@a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0",
		"sub":             "https://github.com/o/mono.git@main#plugins/sub",
		"codex-local":     "./x",
		"inline":          "./inline",
	}
	for _, p := range m.Plugins {
		if w, ok := want[p.Name]; ok {
			if p.Unsupported != "" || p.Source.String() != w {
				t.Errorf("%s: source %q (unsupported %q), want %q", p.Name, p.Source, p.Unsupported, w)
			}
		}
	}
	for name, reason := range map[string]string{"from-npm": `"npm"`, "over-ssh": "HTTPS only"} {
		p, _ := m.Plugin(name)
		if !strings.Contains(p.Unsupported, reason) {
			t.Errorf("%s: unsupported = %q, want it to mention %s", name, p.Unsupported, reason)
		}
	}
	if p, _ := m.Plugin("inline"); len(p.Manifest) == 0 {
		t.Error("a strict:false entry must carry itself as the manifest")
	}
	if p, _ := m.Plugin("commit-commands"); len(p.Manifest) != 0 {
		t.Error("a strict entry has no manifest of its own")
	}
	if _, err := m.Plugin("nope"); err == nil || !strings.Contains(err.Error(), "commit-commands") {
		t.Errorf("unknown plugin: %v", err)
	}
}

func TestHostileMarketplacesAreRefused(t *testing.T) {
	for name, body := range map[string]string{
		"escaping source": `{"plugins":[{"name":"a","source":"../outside"}]}`,
		"escaping clean":  `{"plugins":[{"name":"a","source":"./x/../../outside"}]}`,
		"absolute source": `{"plugins":[{"name":"a","source":"/etc"}]}`,
		"escaping subdir": `{"plugins":[{"name":"a","source":{"source":"git-subdir","url":"https://h/r.git","path":"../x"}}]}`,
		"duplicate names": `{"plugins":[{"name":"a","source":"./a"},{"name":"a","source":"./b"}]}`,
		"invalid name":    `{"plugins":[{"name":"Bad Name","source":"./a"}]}`,
		"no plugins":      `{"name":"empty","plugins":[]}`,
		"not json":        `{"plugins":`,
		"oversized":       `{"plugins":[{"name":"a","source":"./a","description":"` + strings.Repeat("x", 10<<20) + `"}]}`,
		"bad github repo": `{"plugins":[{"name":"a","source":{"source":"github","repo":"../../etc"}}]}`,
	} {
		if _, err := Parse([]byte(body)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestLoadFindsEitherFileAndBoundsIt(t *testing.T) {
	root := t.TempDir()
	if _, err := Load(root); err == nil {
		t.Fatal("a repository without a marketplace file loaded")
	}
	codex := filepath.Join(root, ".agents", "plugins", "marketplace.json")
	os.MkdirAll(filepath.Dir(codex), 0o755)
	os.WriteFile(codex, []byte(`{"name":"c","plugins":[{"name":"p","source":{"source":"local","path":"./p"}}]}`), 0o644)
	m, err := Load(root)
	if err != nil || m.Path != ".agents/plugins/marketplace.json" || m.Plugins[0].Source.Path != "p" {
		t.Fatalf("Load = %+v, %v", m, err)
	}
	os.WriteFile(codex, []byte(strings.Repeat(" ", MaxBytes+1)), 0o644)
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("oversized file: %v", err)
	}
}

func TestSelf(t *testing.T) {
	m, err := Parse([]byte(`{"plugins":[{"name":"me","source":"./"}]}`))
	if err != nil || !m.Self() {
		t.Fatalf("a marketplace listing only ./ is the plugin itself: %+v %v", m, err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(realShapes))
	f.Add([]byte(`{"plugins":[{"name":"a","source":"../x"}]}`))
	f.Add([]byte(`{"plugins":[{"name":"a","source":{"source":"git-subdir","url":"https://h/r.git","path":"a/../.."}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)
		if err != nil {
			return
		}
		for _, p := range m.Plugins {
			if p.Source.Kind == SourcePath && (strings.HasPrefix(p.Source.Path, "..") || filepath.IsAbs(p.Source.Path)) {
				t.Fatalf("escaping source accepted: %q", p.Source.Path)
			}
		}
		// Linear in the input: each entry is kept as written and as its
		// manifest, and encoding may escape a byte as \u00XX.
		encoded, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if limit := 32*len(data) + 4096; len(encoded) > limit {
			t.Fatalf("%d bytes parsed into a %d-byte marketplace", len(data), len(encoded))
		}
	})
}
