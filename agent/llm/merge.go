package llm

import "slices"

// Alternate joins consecutive messages that go out with the same role,
// so APIs and chat templates demanding strict alternation (Anthropic,
// llama.cpp, vLLM) never see two in a row, as after a turn cancelled
// before the model answered. wireRole, if set, maps a role to the one it
// is sent as (Anthropic sends tool results as user messages). Each user
// message's context parts move ahead of its own text first, so merging
// keeps every prompt next to its context.
func Alternate(msgs []Message, wireRole func(Role) Role) []Message {
	var out []Message
	for _, m := range msgs {
		if wireRole != nil {
			m.Role = wireRole(m.Role)
		}
		if m.Role == RoleUser {
			m.Parts = Leading(m.Parts, PartContext)
		}
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out[n-1].Parts = append(slices.Clip(out[n-1].Parts), m.Parts...)
			continue
		}
		out = append(out, m)
	}
	return out
}

// Leading returns parts with those of the given kind moved to the front,
// both groups keeping their order.
func Leading(parts []Part, kind PartKind) []Part {
	out := make([]Part, 0, len(parts))
	for _, p := range parts {
		if p.Kind == kind {
			out = append(out, p)
		}
	}
	for _, p := range parts {
		if p.Kind != kind {
			out = append(out, p)
		}
	}
	return out
}
