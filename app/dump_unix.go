//go:build unix

package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"fyne.io/fyne/v2"

	"github.com/agentdesk/agentdesk/ui"
)

// dumpOnSignal writes the text of the open windows to <state>/ui-dump.txt
// on SIGUSR1: a look at what the app shows without a screen reader, used
// by the Xvfb test to check a pane's text.
func dumpOnSignal(u *ui.UI, stateDir string) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	path := filepath.Join(stateDir, "ui-dump.txt")
	go func() {
		for range ch {
			var text string
			fyne.DoAndWait(func() { text = u.DumpText() })
			tmp := path + ".tmp"
			if os.WriteFile(tmp, []byte(text), 0o600) == nil {
				os.Rename(tmp, path)
			}
		}
	}()
}
