package ui

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/safetext"
)

const customPreset = "Custom"

var kindLabels = map[string]string{llm.KindOpenAI: "OpenAI-compatible", llm.KindAnthropic: "Anthropic"}

// providersPane edits the model provider and the default number of Ralph
// rounds (the approval policy has its own section, Approvals).
type providersPane struct {
	u       *UI
	form    *widget.Form
	keyItem *widget.FormItem // its hint says where the key is kept
	preset  *widget.Select
	kind    *widget.Select
	baseURL *widget.Entry
	model   *widget.Entry
	apiKey  *widget.Entry
	keyEnv  *widget.Entry
	window  *widget.Entry
	served  *secondaryLabel // the window the server states, and where it was read
	think   *widget.Entry
	answer  *widget.Entry // max tokens of one answer
	rounds  *widget.Entry
	aliases map[string]*widget.Entry // models for subagents: sonnet, opus, haiku
	style   *styleChoice
	status  *widget.Label
	loading bool
}

func newProvidersPane(u *UI) *providersPane { return &providersPane{u: u} }

func (p *providersPane) buildUI() fyne.CanvasObject {
	names := []string{}
	for _, pr := range llm.Presets {
		names = append(names, pr.Name)
	}
	p.preset = &widget.Select{Options: append(names, customPreset), OnChanged: p.onPreset}
	p.kind = &widget.Select{Options: []string{kindLabels[llm.KindOpenAI], kindLabels[llm.KindAnthropic]}}
	p.baseURL = &widget.Entry{PlaceHolder: "http://127.0.0.1:8000/v1"}
	p.model = &widget.Entry{PlaceHolder: "model name"}
	p.apiKey = &widget.Entry{Password: true, PlaceHolder: "not needed for local servers"}
	p.keyEnv = &widget.Entry{PlaceHolder: "or the name of an environment variable, e.g. OPENAI_API_KEY"}
	p.window = &widget.Entry{PlaceHolder: "empty: what the server states"}
	p.served = newSecondaryLabel("", fyne.TextWrapWord)
	p.think = &widget.Entry{PlaceHolder: "0"}
	p.answer = &widget.Entry{PlaceHolder: fmt.Sprintf("empty: ds4-server's room, else %d or a quarter of a smaller window", llm.DefaultMaxTokens)}
	p.rounds = &widget.Entry{PlaceHolder: fmt.Sprint(agent.DefaultRalphRounds)}
	p.style = newStyleChoice()
	p.status = &widget.Label{Wrapping: fyne.TextWrapWord}
	p.keyItem = &widget.FormItem{Text: "API key", Widget: p.apiKey, HintText: "kept in the system keyring, or else in a file only you can read"}
	form := &widget.Form{Items: []*widget.FormItem{
		{Text: "Preset", Widget: p.preset},
		{Text: "Kind", Widget: p.kind},
		{Text: "Base URL", Widget: p.baseURL},
		{Text: "Model", Widget: p.model},
		p.keyItem,
		{Text: "Key variable", Widget: p.keyEnv},
		{Text: "Context window", Widget: container.NewVBox(p.window, p.served), HintText: "tokens; compaction starts at 80% of it. A number here overrides the server's"},
		{Text: "Thinking budget", Widget: p.think, HintText: fmt.Sprintf("Anthropic: tokens the model may think before answering (0 = off, else at least %d); other servers think on their own", llm.MinThinkingBudget)},
		{Text: "Answer tokens", Widget: p.answer, HintText: "max_tokens of one answer; a longer answer is marked truncated with Continue"},
		{Text: "Ralph rounds", Widget: p.rounds, HintText: fmt.Sprintf("default for /ralph (1–%d)", agent.MaxRalphRounds)},
		{Text: "Output style", Widget: p.style.widget(), HintText: "how the model answers, from the next turn; enabled extensions add styles (output-styles/), and /output-style in a chat chooses too"},
	}}
	p.aliases = map[string]*widget.Entry{}
	for i, alias := range agent.SubagentAliases {
		p.aliases[alias] = &widget.Entry{PlaceHolder: "empty: the model above"}
		item := &widget.FormItem{Text: "Agents' " + alias, Widget: p.aliases[alias]}
		if i == 0 {
			item.HintText = "models for subagents: what an agent file's model: sonnet, opus or haiku runs on (same provider; inherit and other words use the model above)"
		}
		form.Items = append(form.Items, item)
	}
	buttons := container.NewHBox(
		&widget.Button{Text: "Test connection", OnTapped: p.onTest},
		&widget.Button{Text: "Save", Importance: widget.HighImportance, OnTapped: p.onSave},
	)
	p.form = form
	return container.NewBorder(widget.NewLabelWithStyle("Providers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewVBox(p.status, buttons), nil, nil, container.NewVScroll(form))
}

func (p *providersPane) shown() {
	project := p.u.chat.project.Path // the styles offered are the open project's session's
	background(p.u, func(ctx context.Context) (providerState, error) {
		ps, _, err := p.u.d.Agent.Settings().Provider(ctx)
		aliases := map[string]string{}
		for _, alias := range agent.SubagentAliases {
			aliases[alias] = p.u.d.Agent.Settings().SubagentModel(ctx, alias)
		}
		return providerState{ps, p.u.d.Agent.Settings().RalphRounds(ctx), p.u.d.Agent.Settings().SecretsWhere(), aliases,
			p.u.d.Agent.OutputStyles(ctx, project), p.u.d.Agent.Settings().OutputStyle(ctx)}, err
	}, func(s providerState, err error) {
		if err != nil {
			p.status.SetText(err.Error())
			return
		}
		p.fill(s.settings)
		p.keyItem.HintText = "kept in " + s.keysAt + ", never in the database"
		p.form.Refresh()
		p.showServedWindow()
		p.rounds.SetText(strconv.Itoa(s.rounds))
		for alias, model := range s.aliases {
			p.aliases[alias].SetText(model)
		}
		p.style.fill(s.styles, s.style)
	})
}

type providerState struct {
	settings agent.ProviderSettings
	rounds   int
	keysAt   string            // where API keys are kept
	aliases  map[string]string // subagent model aliases
	styles   []lifecycle.OutputStyle
	style    string // the chosen output style's name; "" is Default
}

func (p *providersPane) fill(s agent.ProviderSettings) {
	p.loading = true
	defer func() { p.loading = false }()
	if s.Preset == "" {
		s.Preset = customPreset
	}
	p.preset.SetSelected(s.Preset)
	p.kind.SetSelected(kindLabels[s.Kind])
	p.baseURL.SetText(s.BaseURL)
	p.model.SetText(s.Model)
	p.apiKey.SetText(s.APIKey)
	p.keyEnv.SetText(s.APIKeyEnv)
	p.window.SetText("")
	if s.ContextWindow > 0 {
		p.window.SetText(strconv.Itoa(s.ContextWindow))
	}
	p.think.SetText(strconv.Itoa(s.ThinkingBudget))
	p.answer.SetText("")
	if s.MaxTokens > 0 {
		p.answer.SetText(strconv.Itoa(s.MaxTokens))
	}
}

func (p *providersPane) onPreset(name string) {
	if p.loading {
		return
	}
	if s, ok := agent.PresetSettings(name); ok {
		s.APIKey = p.apiKey.Text
		p.fill(s)
	}
}

// read collects the form; errors name the field.
func (p *providersPane) read() (agent.ProviderSettings, error) {
	window, err := 0, error(nil)
	if text := strings.TrimSpace(p.window.Text); text != "" {
		if window, err = strconv.Atoi(text); err != nil {
			return agent.ProviderSettings{}, fmt.Errorf("the context window must be a number of tokens, or empty for the server's")
		}
	}
	think := 0
	if text := strings.TrimSpace(p.think.Text); text != "" {
		if think, err = strconv.Atoi(text); err != nil {
			return agent.ProviderSettings{}, fmt.Errorf("the thinking budget must be a number of tokens (0 = off)")
		}
	}
	answer := 0
	if text := strings.TrimSpace(p.answer.Text); text != "" {
		if answer, err = strconv.Atoi(text); err != nil {
			return agent.ProviderSettings{}, fmt.Errorf("the answer tokens must be a number, or empty for the default")
		}
	}
	kind := llm.KindOpenAI
	if p.kind.Selected == kindLabels[llm.KindAnthropic] {
		kind = llm.KindAnthropic
	}
	preset := p.preset.Selected
	if preset == customPreset {
		preset = ""
	}
	s := agent.ProviderSettings{Preset: preset, Kind: kind, BaseURL: strings.TrimSpace(p.baseURL.Text),
		Model: strings.TrimSpace(p.model.Text), APIKey: strings.TrimSpace(p.apiKey.Text),
		APIKeyEnv: strings.TrimSpace(p.keyEnv.Text), ContextWindow: window, ThinkingBudget: think, MaxTokens: answer}
	return s, s.Validate()
}

func (p *providersPane) onSave() {
	s, err := p.read()
	if err != nil {
		p.status.SetText("Not saved: " + err.Error())
		return
	}
	rounds, err := strconv.Atoi(strings.TrimSpace(p.rounds.Text))
	if err != nil {
		p.status.SetText(fmt.Sprintf("Not saved: Ralph rounds must be a number from 1 to %d", agent.MaxRalphRounds))
		return
	}
	aliases := map[string]string{}
	for alias, entry := range p.aliases {
		aliases[alias] = strings.TrimSpace(entry.Text)
	}
	style := p.style.chosen()
	background(p.u, func(ctx context.Context) (struct{}, error) {
		if err := p.u.d.Agent.Settings().SaveProvider(ctx, s); err != nil {
			return struct{}{}, err
		}
		if err := p.u.d.Agent.Settings().SaveOutputStyle(ctx, style); err != nil {
			return struct{}{}, err
		}
		for alias, entry := range aliases {
			if err := p.u.d.Agent.Settings().SaveSubagentModel(ctx, alias, entry); err != nil {
				return struct{}{}, err
			}
		}
		return struct{}{}, p.u.d.Agent.Settings().SaveRalphRounds(ctx, rounds)
	}, func(_ struct{}, err error) {
		if err != nil {
			p.status.SetText("Not saved: " + err.Error())
			return
		}
		p.status.SetText("Saved. The next turn uses these settings.")
		p.u.chat.updateModel()
		p.u.chat.checkProvider()
	})
}

func (p *providersPane) onTest() {
	s, err := p.read()
	if err != nil {
		p.status.SetText(err.Error())
		return
	}
	p.status.SetText("Connecting to " + s.BaseURL + "…")
	background(p.u, func(ctx context.Context) (string, error) {
		return testProvider(ctx, s)
	}, func(msg string, err error) {
		if err != nil {
			p.status.SetText(safetext.Strip(err.Error())) // may quote the server
			return
		}
		p.status.SetText(msg)
	})
}

// testProvider sends a one-word prompt, which proves URL, key and model
// together.
func testProvider(ctx context.Context, s agent.ProviderSettings) (string, error) {
	cfg := s.Config(os.Getenv)
	prov, err := agent.NewProvider(cfg)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.WithDefaults().ConnectTimeout*3)
	defer cancel()
	_, err = prov.Stream(ctx, llm.Request{Model: cfg.Model, MaxTokens: 8, Messages: []llm.Message{{Role: llm.RoleUser,
		Parts: []llm.Part{{Kind: llm.PartText, Text: "Reply with OK."}}}}}, func(llm.Delta) {})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s answered with model %s.", cfg.BaseURL, cfg.Model), nil
}

// showServedWindow says, below the context window field, which window the
// next turn uses and where it was read (asking the server, off the UI
// goroutine).
func (p *providersPane) showServedWindow() {
	if p.u.d.ContextWindow == nil {
		return
	}
	background(p.u, func(ctx context.Context) (agent.Window, error) {
		return p.u.d.ContextWindow(ctx), nil
	}, func(w agent.Window, _ error) {
		p.served.SetText(fmt.Sprintf("In use: %d tokens, from %s\n%s", w.Tokens, w.Source, p.u.d.Agent.MCPToolsSize(w.Tokens)))
	})
}
