//go:build unix

package servers

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/lsp"
	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// oneLSP is a registry holding one enabled extension with one language
// server.
type oneLSP struct{ x extensions.Active }

func (r oneLSP) Active(context.Context) []extensions.Active          { return []extensions.Active{r.x} }
func (r oneLSP) StillActive(context.Context, string, string) bool    { return true }
func (r oneLSP) Lease(string) func()                                 { return func() {} }
func (r oneLSP) MarkForReview(context.Context, string, string) error { return nil }

// goplsHost is an LSP host running the real gopls on a two-file module,
// warm (one query answered).
func goplsHost(b *testing.B) (h *LSP, root, mainGo, mainText string) {
	gopls, err := filepath.Abs("../../bin/gopls")
	if _, serr := os.Stat(gopls); err != nil || serr != nil {
		b.Skip("bin/gopls not installed: run make test")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go not on PATH")
	}
	root = b.TempDir()
	mainText = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(greet(\"x\"))\n}\n"
	files := map[string]string{"go.mod": "module example.com/tiny\n\ngo 1.22\n", "main.go": mainText,
		"util.go": "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n"}
	for name, text := range files {
		os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
	}
	x := extensions.Active{ID: "gopls-lsp", Label: "gopls-lsp", Dir: b.TempDir(), Data: b.TempDir(),
		Pkg: &manifest.Package{LSPServers: []manifest.LSPServer{{Name: "gopls", Command: "gopls", Transport: manifest.LSPStdio,
			ExtensionToLanguage: []manifest.NameValue{{Name: ".go", Value: "go"}}}}}}
	home := b.TempDir()
	h = NewLSP(oneLSP{x}, LSPConfig{PATH: func() string { return filepath.Dir(gopls) + ":" + filepath.Dir(goBin) + ":/usr/bin:/bin" },
		Environ: func() []string { return []string{"HOME=" + home, "GOTOOLCHAIN=local", "GOPROXY=off"} }})
	b.Cleanup(h.Close)
	mainGo = filepath.Join(root, "main.go")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if res := h.Query(ctx, root, lifecycle.CodeQuery{Operation: lsp.OpDefinition, Path: mainGo, Text: mainText, Line: 6, Character: 14}); res.IsError {
		b.Fatal(res.Text)
	}
	return h, root, mainGo, mainText
}

// BenchmarkLSPToolOverhead times goToDefinition through the host (the
// lsp tool's path: find the server, sync the file, ask, format the
// answer with the target's line) against the same request sent straight
// to the server, alternately; it reports both medians and the overhead.
func BenchmarkLSPToolOverhead(b *testing.B) {
	h, root, mainGo, mainText := goplsHost(b)
	var srv *lsp.Server
	for _, st := range h.sup.Latest("gopls-lsp") {
		srv = st.Conn
	}
	ctx := context.Background()
	q := lifecycle.CodeQuery{Operation: lsp.OpDefinition, Path: mainGo, Text: mainText, Line: 6, Character: 14}
	pos := lsp.ToLSP(mainText, 6, 14)
	var host, direct []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := srv.Locations(ctx, "textDocument/definition", mainGo, pos); err != nil {
			b.Fatal(err)
		}
		direct = append(direct, time.Since(start))
		start = time.Now()
		if res := h.Query(ctx, root, q); res.IsError || !strings.Contains(res.Text, "util.go:3:6") {
			b.Fatal(res.Text)
		}
		host = append(host, time.Since(start))
	}
	mh, md := median(host), median(direct)
	b.ReportMetric(float64(mh.Microseconds())/1000, "host-ms")
	b.ReportMetric(float64(md.Microseconds())/1000, "server-ms")
	b.ReportMetric(float64((mh-md).Microseconds())/1000, "overhead-ms")
}

// BenchmarkLSPDiagnosticsWait times a write's result with a warm gopls:
// each op renames greet (breaking the caller) or back, and the result
// must hold the caller's error or none; it reports the median and the
// longest wait.
func BenchmarkLSPDiagnosticsWait(b *testing.B) {
	h, root, _, _ := goplsHost(b)
	util := filepath.Join(root, "util.go")
	good := "package main\n\nfunc greet(name string) string { return \"hi \" + name }\n"
	bad := strings.Replace(good, "func greet", "func hello", 1)
	var waits []time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		text := good
		if i%2 == 0 {
			text = bad
		}
		i++
		os.WriteFile(util, []byte(text), 0o644)
		start := time.Now()
		got := h.FileWritten(context.Background(), root, util, text)
		waits = append(waits, time.Since(start))
		if broken := strings.Contains(got, "undefined: greet"); broken != (text == bad) {
			b.Fatalf("write %d: result %q", i, got)
		}
	}
	b.ReportMetric(float64(median(waits).Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(slices.Max(waits).Microseconds())/1000, "max-ms")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
