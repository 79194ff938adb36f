package anthropic

import (
	"cmp"
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/agentdesk/agentdesk/agent/llm"
)

func (p *Provider) params(req llm.Request) (sdk.MessageNewParams, error) {
	tools, err := toolParams(req.Tools)
	if err != nil {
		return sdk.MessageNewParams{}, err
	}
	maxTokens := cmp.Or(req.MaxTokens, p.cfg.MaxTokens)
	params := sdk.MessageNewParams{
		Model:    p.model(req),
		Messages: messages(req.Messages),
		Tools:    tools,
	}
	if budget := p.cfg.ThinkingBudget; budget >= llm.MinThinkingBudget {
		params.Thinking = sdk.ThinkingConfigParamOfEnabled(int64(budget))
		// max_tokens must exceed the budget; the answer keeps its own
		// allowance on top of the thinking.
		maxTokens += budget
	}
	params.MaxTokens = int64(maxTokens)
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	return params, nil
}

// messages converts the conversation. Tool results travel as user
// messages; messages of roles the model does not know are left out.
func messages(msgs []llm.Message) []sdk.MessageParam {
	var out []sdk.MessageParam
	for _, m := range merged(msgs) {
		blocks := contentBlocks(m.Parts)
		switch m.Role {
		case llm.RoleUser:
			out = append(out, sdk.NewUserMessage(blocks...))
		case llm.RoleAssistant:
			out = append(out, sdk.NewAssistantMessage(blocks...))
		}
	}
	return out
}

// merged joins consecutive messages that go out with the same role, as
// the API demands alternation: tool results go out as a user message, so
// a tool-result message followed by a user prompt (after a cancelled
// turn) becomes one user message, in which the tool results must lead.
func merged(msgs []llm.Message) []llm.Message {
	out := llm.Alternate(msgs, func(r llm.Role) llm.Role {
		if r == llm.RoleTool {
			return llm.RoleUser
		}
		return r
	})
	for i := range out {
		if out[i].Role == llm.RoleUser {
			out[i].Parts = llm.Leading(out[i].Parts, llm.PartToolResult)
		}
	}
	return out
}

func contentBlocks(parts []llm.Part) []sdk.ContentBlockParamUnion {
	var blocks []sdk.ContentBlockParamUnion
	for _, p := range parts {
		switch p.Kind {
		case llm.PartContext:
			blocks = append(blocks, sdk.NewTextBlock(llm.ContextPartText(p)))
		case llm.PartText:
			// The API rejects empty text blocks.
			if p.Text != "" {
				blocks = append(blocks, sdk.NewTextBlock(p.Text))
			}
		case llm.PartReasoning:
			// Thinking goes back with its signature, which the API requires
			// to continue after tool use; unsigned reasoning (from another
			// provider) cannot be sent.
			switch {
			case p.Redacted != "":
				blocks = append(blocks, sdk.NewRedactedThinkingBlock(p.Redacted))
			case p.Signature != "":
				blocks = append(blocks, sdk.NewThinkingBlock(p.Signature, p.Text))
			}
		case llm.PartToolCall:
			blocks = append(blocks, sdk.NewToolUseBlock(p.CallID, toolInput(p.Args), p.Name))
		case llm.PartToolResult:
			blocks = append(blocks, toolResult(p))
		}
	}
	return blocks
}

// toolInput is a call's arguments as the input object. Arguments a model
// garbled go back as {}: the call already failed with a tool error, and
// an invalid input would make the API reject the whole conversation.
func toolInput(args string) json.RawMessage {
	var input map[string]any
	if json.Unmarshal([]byte(args), &input) != nil || input == nil {
		return json.RawMessage("{}")
	}
	return json.RawMessage(args)
}

// toolResult sends an empty result without content, as an empty text
// block would be rejected.
func toolResult(p llm.Part) sdk.ContentBlockParamUnion {
	if p.Text != "" {
		return sdk.NewToolResultBlock(p.CallID, p.Text, p.IsError)
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &sdk.ToolResultBlockParam{ToolUseID: p.CallID, IsError: sdk.Bool(p.IsError)}}
}

func toolParams(specs []llm.ToolSpec) ([]sdk.ToolUnionParam, error) {
	var out []sdk.ToolUnionParam
	for _, s := range specs {
		tool := sdk.ToolParam{Name: s.Name}
		if s.Description != "" {
			tool.Description = sdk.String(s.Description)
		}
		if len(s.Parameters) > 0 {
			var schema map[string]any
			if err := json.Unmarshal(s.Parameters, &schema); err != nil {
				return nil, fmt.Errorf("tool %s: parameters are not a JSON object: %w", s.Name, err)
			}
			// The schema goes out verbatim, not re-encoded field by field.
			tool.InputSchema = param.Override[sdk.ToolInputSchemaParam](s.Parameters)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: &tool})
	}
	return out, nil
}
