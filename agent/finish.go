package agent

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// How the loop treats a call that ended other than by a natural stop or a
// request for tools, for both wire formats alike:
//   - StopError (ds4-server's finish_reason "error", a content filter):
//     the turn fails with the server's reason; the visible text written
//     so far is kept, its tool calls are dropped, never run.
//   - StopTruncated (OpenAI "length", Anthropic "max_tokens"): the text is
//     kept and marked truncated by a host entry right after it, which the
//     transcript shows with a Continue action and `run` prints; the tool
//     calls, possibly cut off mid-argument, are dropped, never run.

// finishFailed is the error a StopError ends the turn with.
func finishFailed(cfg llm.Config, req llm.Request, resp llm.Response) error {
	return &llm.Error{Kind: llm.ErrGeneration, URL: cfg.BaseURL, Model: req.Model,
		Detail: "finish_reason " + strconv.Quote(resp.StopReason)}
}

// withoutToolCalls is m less its tool calls.
func withoutToolCalls(m llm.Message) llm.Message {
	out := llm.Message{Role: m.Role}
	for _, p := range m.Parts {
		if p.Kind != llm.PartToolCall {
			out.Parts = append(out.Parts, p)
		}
	}
	return out
}

// truncatedNotice marks the assistant message just stored as cut short.
func (s *Session) truncatedNotice(ctx context.Context, cfg llm.Config, resp llm.Response, droppedCalls int) {
	text := fmt.Sprintf("The answer was truncated: it reached the output limit of %d tokens (%s).", cfg.MaxTokens, resp.StopReason)
	if droppedCalls > 0 {
		text += fmt.Sprintf(" %d unfinished tool call(s) were not run.", droppedCalls)
	}
	s.host(ctx, Host{Kind: HostTruncated, Text: text + " Continue asks the model to go on."})
}

// waitingStatus shows "prefilling… N s" while a server sends keepalives
// before its answer begins, at most once a second.
type waitingStatus struct {
	s       *Session
	th      *thread
	began   time.Time
	shown   time.Duration // the elapsed time last shown, to the second
	waiting bool
}

func (w *waitingStatus) keepalive() {
	elapsed := time.Since(w.began).Truncate(time.Second)
	if w.waiting && elapsed == w.shown {
		return
	}
	w.waiting, w.shown = true, elapsed
	w.s.status(w.th, fmt.Sprintf("prefilling… %d s", int(elapsed.Seconds())))
}

// answering clears the status once the answer begins.
func (w *waitingStatus) answering() {
	if w.waiting {
		w.waiting = false
		w.s.status(w.th, "")
	}
}

// tooLarge is why a request the loop estimates over the window is not
// sent even after compaction: the server would refuse it, or (Ollama)
// silently cut its beginning.
func tooLarge(estimate, window int) error {
	return fmt.Errorf("this turn needs about %d tokens (prompt, system prompt and tools), more than the model's context window of %d tokens, even after compaction; "+
		"shorten the prompt, start a new session, or raise the context window (Preferences → Providers, or the server's own setting)", estimate, window)
}
