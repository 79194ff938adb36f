package agent

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/llmtest"
	"github.com/agentdesk/agentdesk/agent/llm/servers"
	"github.com/agentdesk/agentdesk/storage"
)

func TestContextWindowComesFromTheServerUnlessTheUserSetOne(t *testing.T) {
	said := servers.Info{Name: "ds4-server", ContextWindow: 32768, Source: "ds4-server GET /v1/models context_length", Answered: true}
	probes := 0
	si := &ServerInfo{known: map[[2]string]servers.Info{}, probe: func(context.Context, string, string, string) servers.Info {
		probes++
		return said
	}}
	ds4, _ := PresetSettings("ds4-server")
	cfg := ds4.Config(func(string) string { return "" })
	ctx := context.Background()

	if w := si.Window(ctx, ds4, cfg); w.Tokens != 32768 || w.Source != said.Source || w.Server != "ds4-server" {
		t.Fatalf("preset settings: %+v, want the server's window", w)
	}
	si.Window(ctx, ds4, cfg)
	if probes != 1 {
		t.Fatalf("the server was asked %d times, want once", probes)
	}
	own := ds4
	own.ContextWindow = 20000
	if w := si.Window(ctx, own, cfg); w.Tokens != 20000 || w.Source != "your setting" {
		t.Fatalf("the user's value must win: %+v", w)
	}
	said = servers.Info{Answered: true}
	si.Forget()
	if w := si.Window(ctx, ds4, cfg); w.Tokens != 32768 || w.Source != "the ds4-server preset (the server does not say)" {
		t.Fatalf("silent server: %+v, want the preset's assumption", w)
	}
}

// Earlier versions stored the preset's 131072 for ds4-server users: that
// value was never theirs, so the server's own must apply.
func TestAWindowCopiedFromAPresetIsNotAnOverride(t *testing.T) {
	db, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, tt := range []struct {
		preset string
		stored int
		want   int
	}{
		{"ds4-server", 131072, 0},
		{"ds4-server", 32768, 0},
		{"llama.cpp", 32768, 0},
		{"ds4-server", 65536, 65536},
		{"", 131072, 131072},
	} {
		if err := db.SetSettings(ctx, map[string]string{keyProviderPreset: tt.preset, keyProviderKind: llm.KindOpenAI,
			keyProviderURL: "http://127.0.0.1:8000/v1", keyProviderModel: "m", keyProviderWindow: strconv.Itoa(tt.stored)}); err != nil {
			t.Fatal(err)
		}
		ps, _, err := LoadProvider(ctx, db)
		if err != nil || ps.ContextWindow != tt.want {
			t.Errorf("preset %q stored %d: loaded %d (%v), want %d", tt.preset, tt.stored, ps.ContextWindow, err, tt.want)
		}
	}
}

func TestAutodetectNamesTheServerThatAnswered(t *testing.T) {
	ds4, _ := PresetSettings("ds4-server")
	ds4.Model = "Qwen/Qwen3-Coder"
	got := named(ds4, "vLLM")
	if got.Preset != "vLLM" || got.BaseURL != ds4.BaseURL || got.Model != "Qwen/Qwen3-Coder" {
		t.Fatalf("named = %+v", got)
	}
	if got := named(ds4, "ds4-server"); got != ds4 {
		t.Fatalf("a ds4-server must stay ds4-server: %+v", got)
	}
	if got := named(ds4, ""); got != ds4 {
		t.Fatalf("a server that does not say keeps the preset: %+v", got)
	}
}

// A server restarted with a smaller context states the new size; the
// overflow it reports makes the next call ask again.
func TestAnOverflowMakesTheServerBeAskedAgain(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.SetContextLength(32768)
	si := NewServerInfo()
	ps := ProviderSettings{Kind: llm.KindOpenAI, BaseURL: srv.URL, Model: llmtest.ModelName}
	cfg := srv.Config()
	ctx := context.Background()
	if w := si.Window(ctx, ps, cfg); w.Tokens != 32768 {
		t.Fatalf("window = %+v, want the server's 32768", w)
	}

	srv.SetContextLength(8192) // ds4-server restarted with --ctx 8192
	srv.Push(llmtest.Reply{Status: 400, ErrorBody: `{"error":{"message":"Prompt has 9000 tokens, but the configured context size is 8192 tokens","type":"invalid_request_error","param":"messages","code":"context_length_exceeded","n_prompt_tokens":9000,"n_ctx":8192}}`})
	if w := si.Window(ctx, ps, cfg); w.Tokens != 32768 {
		t.Fatalf("window = %+v, want the remembered 32768 before any overflow", w)
	}
	prov, err := NewProvider(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := si.Watch(prov, cfg).Stream(ctx, llm.Request{Model: cfg.Model, Messages: []llm.Message{{Role: llm.RoleUser, Parts: []llm.Part{{Kind: llm.PartText, Text: "hi"}}}}}, func(llm.Delta) {}); !llm.IsKind(err, llm.ErrContextOverflow) {
		t.Fatalf("err = %v, want the overflow", err)
	}
	if w := si.Window(ctx, ps, cfg); w.Tokens != 8192 {
		t.Fatalf("after the overflow, window = %+v, want the server's new 8192", w)
	}
}

func TestApplyTakesTheServersAnswerRoomUnlessTheUserSetOne(t *testing.T) {
	for _, tt := range []struct {
		name      string
		w         Window
		own, want int
	}{
		{"ds4-server states its room", Window{Tokens: 32768, MaxAnswer: 32768}, 0, 32768},
		{"the user's value wins", Window{Tokens: 32768, MaxAnswer: 32768}, 4000, 4000},
		{"a server that does not say keeps the default", Window{Tokens: 65536}, 0, llm.DefaultMaxTokens},
	} {
		cfg := llm.Config{MaxTokens: tt.own}
		tt.w.Apply(&cfg)
		if cfg = cfg.WithDefaults(); cfg.MaxTokens != tt.want || cfg.ContextWindow != tt.w.Tokens {
			t.Errorf("%s: max_tokens %d, window %d; want %d, %d", tt.name, cfg.MaxTokens, cfg.ContextWindow, tt.want, tt.w.Tokens)
		}
	}
}
