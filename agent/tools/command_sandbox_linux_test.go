package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/agent/childproc"
	"github.com/agentdesk/agentdesk/agent/childproc/childproctest"
)

// plantKey makes a fake home with a private key and AgentDesk's database,
// and points HOME and AGENTDESK_HOME at it.
func plantKey(t *testing.T) string {
	t.Helper()
	home := childproctest.PlantHome(t, map[string]string{".ssh/id_ed25519": "PRIVATE KEY BYTES", "ad/agentdesk.db": "SQLite format 3"})
	t.Setenv("AGENTDESK_HOME", filepath.Join(home, "ad"))
	return home
}

// An approved command cannot read the key or the database; the model is
// told why, and nothing of either reaches it. The project stays writable.
func TestRunCommandIsConfined(t *testing.T) {
	if confined, why := childproc.SandboxStatus(); !confined {
		t.Skip(why)
	}
	home := plantKey(t)
	s, _ := newTestSet(t, nil, Options{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}})
	for _, c := range []struct{ command, note string }{
		{"cat ~/.ssh/id_ed25519", "the sandbox kept ~/.ssh from this command"},
		{"cat " + filepath.Join(home, "ad/agentdesk.db"), "the sandbox kept AgentDesk's own data"},
		{"echo x > ~/planted", "the sandbox lets a command write only the project"},
	} {
		res := run(t, s, "run_command", map[string]any{"command": c.command})
		if !res.IsError || !strings.Contains(res.Text, "--- note ---\n"+c.note) {
			t.Errorf("%s: %s", c.command, res.Text)
		}
		if strings.Contains(res.Text, "PRIVATE KEY") || strings.Contains(res.Text, "SQLite") {
			t.Errorf("%s: a secret reached the model: %s", c.command, res.Text)
		}
	}
	checkResult(t, run(t, s, "run_command", map[string]any{"command": "echo x > made && cat made"}), false, "x")
}

// run --unconfined lifts the sandbox from run_command.
func TestRunCommandUnconfined(t *testing.T) {
	home := plantKey(t)
	s, _ := newTestSet(t, nil, Options{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, Unconfined: true})
	checkResult(t, run(t, s, "run_command", map[string]any{"command": "cat ~/.ssh/id_ed25519"}), false, "PRIVATE KEY")
}
