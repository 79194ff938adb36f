package agent

import (
	"context"
	"testing"
)

// The Preferences logic the views used to do themselves: the first-run
// probe saves only when nothing was ever saved, and picking a model
// changes only the model.
func TestSettingsFirstRunAndSetModel(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	st := e.agent.Settings()
	probed := 0
	probe := func(context.Context) (ProviderSettings, bool) {
		probed++
		p, _ := PresetSettings("llama.cpp")
		return p, true
	}
	if saved, err := st.FirstRun(ctx, probe); err != nil || !saved {
		t.Fatalf("first run: saved %v, %v", saved, err)
	}
	if saved, _ := st.FirstRun(ctx, probe); saved || probed != 1 {
		t.Fatalf("a second start must not probe again (probed %d)", probed)
	}
	p, _, _ := st.Provider(ctx)
	p.APIKey, p.MaxTokens = "sk-kept", 1024
	if err := st.SaveProvider(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := st.SetModel(ctx, "qwen3-coder-30b"); err != nil {
		t.Fatal(err)
	}
	got, _, _ := st.Provider(ctx)
	if got.Model != "qwen3-coder-30b" || got.APIKey != "sk-kept" || got.MaxTokens != 1024 || got.Preset != "llama.cpp" {
		t.Fatalf("after SetModel: %+v", got)
	}
	if err := st.SetModel(ctx, " "); err == nil {
		t.Fatal("an empty model must be refused, as in Preferences")
	}
	if err := st.SavePolicy(ctx, PolicyAutoEdits); err != nil || st.Policy(ctx) != PolicyAutoEdits {
		t.Fatalf("policy: %v %v", err, st.Policy(ctx))
	}
	if err := st.SaveRalphRounds(ctx, 7); err != nil || st.RalphRounds(ctx) != 7 {
		t.Fatalf("rounds: %v %d", err, st.RalphRounds(ctx))
	}
	if projects, err := e.agent.Projects(ctx); err != nil || len(projects) != 1 || projects[0].Path != e.project.Path {
		t.Fatalf("projects = %+v, %v", projects, err)
	}
}
