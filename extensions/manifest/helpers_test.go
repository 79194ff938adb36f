package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths relative to root) and returns root.
// Paths ending in "*" are written executable, without the star.
func writeTree(t testing.TB, root string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, "*") {
			name, mode = strings.TrimSuffix(name, "*"), 0o755
		}
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\nBody.\n"
}

func mustLoad(t *testing.T, root string) *Package {
	t.Helper()
	pkg, err := Load(root)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return pkg
}

func hasDiagnostic(pkg *Package, substr string) bool {
	for _, d := range pkg.Diagnostics {
		if strings.Contains(d, substr) {
			return true
		}
	}
	return false
}
