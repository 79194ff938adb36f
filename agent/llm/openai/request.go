package openai

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strings"

	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// openAIHost is OpenAI's own API. Its reasoning models (gpt-5, o-series)
// reject max_tokens and want max_completion_tokens, a name DeepSeek and
// many local servers do not know, so only this host gets it.
const openAIHost = "api.openai.com"

func wantsCompletionTokens(baseURL string) bool {
	u, err := url.Parse(baseURL)
	return err == nil && u.Hostname() == openAIHost
}

// errorPrefix marks a failed tool result: Chat Completions has no error
// flag on tool messages, so the model reads it from the content.
const errorPrefix = "Error: "

func (p *Provider) params(req llm.Request) (oa.ChatCompletionNewParams, error) {
	tools, err := toolParams(req.Tools)
	if err != nil {
		return oa.ChatCompletionNewParams{}, err
	}
	params := oa.ChatCompletionNewParams{
		Model:         p.model(req),
		Messages:      messages(req.System, req.Messages, p.reasoning),
		Tools:         tools,
		StreamOptions: oa.ChatCompletionStreamOptionsParam{IncludeUsage: oa.Bool(true)},
	}
	maxTokens := oa.Int(int64(cmp.Or(req.MaxTokens, p.cfg.MaxTokens)))
	if p.completionTokens {
		params.MaxCompletionTokens = maxTokens
	} else {
		params.MaxTokens = maxTokens
	}
	return params, nil
}

// messages is the wire conversation: one leading system message, then the
// merged turns. Messages of roles the model does not know are left out.
// Assistant messages carry their reasoning where send says so.
func messages(system string, msgs []llm.Message, send string) []oa.ChatCompletionMessageParamUnion {
	var out []oa.ChatCompletionMessageParamUnion
	if system != "" {
		out = append(out, oa.SystemMessage(system))
	}
	merged := llm.Alternate(msgs, nil)
	lastUser := -1
	for i, m := range merged {
		if m.Role == llm.RoleUser {
			lastUser = i
		}
	}
	for i, m := range merged {
		switch m.Role {
		case llm.RoleUser:
			out = append(out, userMessage(m))
		case llm.RoleAssistant:
			withReasoning := send == llm.ReasoningAlways || (send == llm.ReasoningToolLoop && i > lastUser)
			out = append(out, assistantMessage(m, withReasoning))
		case llm.RoleTool:
			out = append(out, toolMessages(m)...)
		}
	}
	return out
}

// reasoningFor decides llm.ReasoningAuto by the server's host.
func reasoningFor(cfg llm.Config) string {
	if cfg.SendReasoning != llm.ReasoningAuto {
		return cfg.SendReasoning
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return llm.ReasoningNever
	}
	host := u.Hostname()
	switch {
	case host == deepSeekHost:
		return llm.ReasoningToolLoop
	case host == "localhost" || strings.HasSuffix(host, ".local"):
		return llm.ReasoningAlways
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast()) {
		return llm.ReasoningAlways
	}
	return llm.ReasoningNever
}

// deepSeekHost is the DeepSeek API: it wants reasoning_content back within
// a tool loop and rejects it on earlier turns.
const deepSeekHost = "api.deepseek.com"

// userMessage sends each context part wrapped by llm.ContextText and each
// of the user's own text parts unchanged, as separate content parts; a
// lone text part goes as a plain string, the form every server accepts.
func userMessage(m llm.Message) oa.ChatCompletionMessageParamUnion {
	var texts []string
	for _, p := range m.Parts {
		switch p.Kind {
		case llm.PartContext:
			texts = append(texts, llm.ContextPartText(p))
		case llm.PartText:
			texts = append(texts, p.Text)
		}
	}
	switch len(texts) {
	case 0:
		return oa.UserMessage("")
	case 1:
		return oa.UserMessage(texts[0])
	}
	parts := make([]oa.ChatCompletionContentPartUnionParam, len(texts))
	for i, t := range texts {
		parts[i] = oa.TextContentPart(t)
	}
	return oa.UserMessage(parts)
}

// assistantMessage sends text and tool calls, and the reasoning as
// reasoning_content (the field ds4-server, DeepSeek, llama.cpp and vLLM
// read back) when withReasoning is set.
func assistantMessage(m llm.Message, withReasoning bool) oa.ChatCompletionMessageParamUnion {
	var msg oa.ChatCompletionAssistantMessageParam
	for _, c := range m.ToolCalls() {
		msg.ToolCalls = append(msg.ToolCalls, oa.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &oa.ChatCompletionMessageFunctionToolCallParam{
				ID:       c.CallID,
				Function: oa.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: cmp.Or(c.Args, "{}")},
			},
		})
	}
	// Content may be left out only when there are tool calls.
	if text := m.Text(); text != "" || len(msg.ToolCalls) == 0 {
		msg.Content.OfString = oa.String(text)
	}
	if reasoning := reasoningText(m); withReasoning && reasoning != "" {
		msg.SetExtraFields(map[string]any{"reasoning_content": reasoning})
	}
	return oa.ChatCompletionMessageParamUnion{OfAssistant: &msg}
}

func reasoningText(m llm.Message) string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Kind == llm.PartReasoning {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// toolMessages sends one tool message per result.
func toolMessages(m llm.Message) []oa.ChatCompletionMessageParamUnion {
	var out []oa.ChatCompletionMessageParamUnion
	for _, p := range m.Parts {
		if p.Kind != llm.PartToolResult {
			continue
		}
		content := p.Text
		if p.IsError {
			content = errorPrefix + content
		}
		out = append(out, oa.ToolMessage(content, p.CallID))
	}
	return out
}

func toolParams(specs []llm.ToolSpec) ([]oa.ChatCompletionToolUnionParam, error) {
	var out []oa.ChatCompletionToolUnionParam
	for _, s := range specs {
		fn := shared.FunctionDefinitionParam{Name: s.Name}
		if s.Description != "" {
			fn.Description = oa.String(s.Description)
		}
		if len(s.Parameters) > 0 {
			if err := json.Unmarshal(s.Parameters, &fn.Parameters); err != nil {
				return nil, fmt.Errorf("tool %s: parameters are not a JSON object: %w", s.Name, err)
			}
		}
		out = append(out, oa.ChatCompletionFunctionTool(fn))
	}
	return out, nil
}
