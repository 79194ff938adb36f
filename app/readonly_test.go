package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Commands that only show something (ext list, show, check, sessions) warn
// on stderr and go on when the log file cannot be opened; a command that
// changes something still refuses to run without its log.
func TestReadOnlyCommandsGoOnWithoutTheLog(t *testing.T) {
	for _, tc := range []struct {
		name  string
		block func(t *testing.T, logs string)
	}{
		// A folder where the log file should be: opening it fails even for root.
		{"log path is a folder", func(t *testing.T, logs string) {
			log := filepath.Join(logs, "agentdesk.log")
			if err := os.Remove(log); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(log, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"log folder read-only", func(t *testing.T, logs string) {
			if os.Geteuid() == 0 {
				t.Skip("root writes into a read-only folder")
			}
			if err := os.Chmod(logs, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(logs, 0o700) })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, url := cliWithRepo(t, "fixture", fixture(t))
			c.ok("ext", "install", url)
			tc.block(t, filepath.Join(c.home, "logs"))
			for _, args := range [][]string{{"ext", "list"}, {"ext", "show", "fixture"}, {"ext", "check"}, {"sessions", "--project", t.TempDir()}} {
				out, errOut, code := c.run("", args...)
				if code != 0 || !strings.Contains(errOut, "warning: open the log") || out == "" {
					t.Errorf("agentdesk %s: exit %d, stdout %q, stderr %q; want its output and a warning", strings.Join(args, " "), code, out, errOut)
				}
			}
			if _, errOut, code := c.run("", "ext", "disable", "fixture"); code == 0 || !strings.Contains(errOut, "open the log") {
				t.Errorf("ext disable without a log: exit %d, %q; want the log error", code, errOut)
			}
		})
	}
}
