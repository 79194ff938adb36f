//go:build screenshots

package ui

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
)

// The README's screenshots of the transcript: go test -tags
// 'migrated_fynedo screenshots' -run TestScreenshots ./ui/ writes them to
// docs/screenshots, rendered by Fyne's software painter (the menu and
// About come from the real app under Xvfb: app/xvfb_ux_test.go).

const screenshotAnswer = "## Retry with backoff\n\n" +
	"The client gave up on the first **transient** failure. `Retry` wraps one attempt:\n\n" +
	"```go\n" +
	"// Retry runs attempt until it succeeds or the attempts are used up.\n" +
	"func Retry(ctx context.Context, p Policy, attempt func(context.Context) error) error {\n" +
	"\tfor n := 1; n <= p.MaxAttempts; n++ {\n" +
	"\t\tif err := attempt(ctx); err == nil {\n" +
	"\t\t\treturn nil\n" +
	"\t\t}\n" +
	"\t\tif err := sleep(ctx, p.delay(n)); err != nil { return fmt.Errorf(\"attempt %d/%d: %w\", n, p.MaxAttempts, err) }\n" +
	"\t}\n" +
	"\treturn errors.New(\"out of attempts\")\n" +
	"}\n" +
	"```\n\n" +
	"1. Run `go test -race ./internal/sync/...`\n" +
	"2. Restart the proxy and watch the log.\n"

func TestScreenshots(t *testing.T) {
	server := llmtest.NewOpenAI(t)
	server.Push(llmtest.Reply{Text: screenshotAnswer})
	h := newHarness(t, harnessOptions{provider: fakeProvider(server)})
	u := h.open(true)
	u.main.Resize(fyne.NewSize(1100, 760))
	u.chat.projectBtn.SetText("project: ~/src/sync") // not the test's temporary folder
	u.chat.onSend("Why does sync drop batches, and how do we retry?")
	h.loop.waitFor(t, "the answer", func() bool { return strings.Contains(windowText(u.main), "Restart the proxy") })
	h.loop.waitFor(t, "the turn to end", func() bool { return u.chat.session != nil && !u.chat.session.Busy() })

	for _, appearance := range []string{"dark", "light"} {
		u.setAppearance(appearance)
		h.relayout(u.main)
		h.loop.runQueued()
		capture(t, u.main, "transcript-"+appearance+".png")
	}

	u.setAppearance("dark")
	test.Tap(findButton(u.chat.transcript.list, "Select text"))
	h.relayout(u.main)
	sel := findSelectable(u)
	u.main.Canvas().Focus(sel)
	sel.TypedShortcut(&fyne.ShortcutSelectAll{})
	sel.TypedShortcut(&fyne.ShortcutCopy{Clipboard: h.app.Clipboard()})
	h.relayout(u.main)
	capture(t, u.main, "selection.png")
}

func capture(t *testing.T, w fyne.Window, name string) {
	t.Helper()
	path := filepath.Join("..", "docs", "screenshots", name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
