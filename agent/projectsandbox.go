package agent

import (
	"context"
	"fmt"
	"strconv"
)

// ProjectSandbox are a project's sandbox settings, off by default. They
// live in the settings table under the project's id (no migration).
type ProjectSandbox struct {
	// NoNetwork refuses the project's commands TCP connect and bind
	// (Landlock ABI 4 and later); sessions opened afterwards use it.
	NoNetwork bool
	// ConfinedAutoAllow runs a run_command call the sandbox confines
	// without asking, unless a permission rule asks or denies or a hook
	// forces the question; running one unconfined still asks.
	ConfinedAutoAllow bool
}

func projectKey(id int64, name string) string { return fmt.Sprintf("project.%d.%s", id, name) }

// ProjectSandbox reads a project's sandbox settings.
func (a *Agent) ProjectSandbox(ctx context.Context, projectID int64) ProjectSandbox {
	flag := func(name string) bool {
		v, _, _ := a.cfg.DB.Setting(ctx, projectKey(projectID, name))
		b, _ := strconv.ParseBool(v)
		return b
	}
	return ProjectSandbox{NoNetwork: flag("commands_no_network"), ConfinedAutoAllow: flag("confined_commands_auto")}
}

// SetProjectSandbox stores them.
func (a *Agent) SetProjectSandbox(ctx context.Context, projectID int64, ps ProjectSandbox) error {
	return a.cfg.DB.SetSettings(ctx, map[string]string{
		projectKey(projectID, "commands_no_network"):    strconv.FormatBool(ps.NoNetwork),
		projectKey(projectID, "confined_commands_auto"): strconv.FormatBool(ps.ConfinedAutoAllow)})
}
