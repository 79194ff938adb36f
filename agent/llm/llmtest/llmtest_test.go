package llmtest

import (
	"bufio"
	"cmp"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// post sends a model request body and returns the response.
func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type sseEvent struct {
	name string
	data string
}

func readEvents(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var events []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			events = append(events, cur)
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("line %q is not SSE", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read stream: %v", err)
	}
	return events
}

const openAIBody = `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`

// openAIText streams one OpenAI reply and returns its concatenated text.
func openAIText(t *testing.T, s *Server) string {
	t.Helper()
	var text strings.Builder
	for _, ev := range readEvents(t, post(t, s.URL+"/chat/completions", openAIBody).Body) {
		var chunk oaChunk
		if ev.data == "[DONE]" || json.Unmarshal([]byte(ev.data), &chunk) != nil || len(chunk.Choices) == 0 {
			continue
		}
		if c := chunk.Choices[0].Delta.Content; c != nil {
			text.WriteString(*c)
		}
	}
	return text.String()
}

func TestOpenAIWireFormat(t *testing.T) {
	s := NewOpenAI(t)
	s.Push(Reply{Reasoning: "think", Text: "hello there", ToolCalls: []ToolCall{{Name: "read", Args: `{"path":"a.go"}`}}})
	resp := post(t, s.URL+"/chat/completions", openAIBody)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	events := readEvents(t, resp.Body)
	if last := events[len(events)-1]; last.data != "[DONE]" || last.name != "" {
		t.Fatalf("last event = %+v, want data: [DONE]", last)
	}
	w := summarize(t, events[:len(events)-1])
	ids, args, finish := w.ids, w.args, w.finish
	if ids[0] != "call_1" || slices.ContainsFunc(ids[1:], func(id string) bool { return id != "" }) {
		t.Errorf("tool call ids per chunk = %q, want the id on the first chunk only", ids)
	}
	if got := strings.Join(args, ""); got != `{"path":"a.go"}` || len(args) < 3 {
		t.Errorf("arguments %q in %d chunks", got, len(args))
	}
	if !slices.Equal(finish, []string{"tool_calls"}) || w.usage == nil {
		t.Errorf("finish reasons %q, usage chunk %v", finish, w.usage)
	}
}

// openAIStream is what a test reads from the chunks of an OpenAI stream.
type openAIStream struct {
	ids, args, finish []string // per tool-call fragment, per finish reason
	usage             *oaUsage
}

func summarize(t *testing.T, events []sseEvent) openAIStream {
	t.Helper()
	var w openAIStream
	for _, ev := range events {
		var chunk oaChunk
		if err := json.Unmarshal([]byte(ev.data), &chunk); err != nil || chunk.Object != "chat.completion.chunk" {
			t.Fatalf("event %q is not a chunk: %v", ev.data, err)
		}
		w.usage = cmp.Or(chunk.Usage, w.usage)
		for _, c := range chunk.Choices {
			for _, tc := range c.Delta.ToolCalls {
				w.ids = append(w.ids, tc.ID)
				w.args = append(w.args, tc.Function.Arguments)
			}
			if c.FinishReason != nil {
				w.finish = append(w.finish, *c.FinishReason)
			}
		}
	}
	return w
}

func TestAnthropicWireFormat(t *testing.T) {
	s := NewAnthropic(t)
	s.Push(Reply{Reasoning: "think", Text: "hello", ToolCalls: []ToolCall{{Name: "read", Args: `{"path":"a.go"}`}}})
	events := readEvents(t, post(t, s.URL+"/v1/messages", `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`).Body)
	var names, blockTypes []string
	for _, ev := range events {
		var data map[string]any
		if err := json.Unmarshal([]byte(ev.data), &data); err != nil || data["type"] != ev.name {
			t.Fatalf("event %q has data %q (%v)", ev.name, ev.data, err)
		}
		names = append(names, ev.name)
		if block, ok := data["content_block"].(map[string]any); ok {
			blockTypes = append(blockTypes, block["type"].(string))
		}
	}
	if names[0] != "message_start" || names[len(names)-2] != "message_delta" || names[len(names)-1] != "message_stop" {
		t.Errorf("events = %q", names)
	}
	if !slices.Equal(blockTypes, []string{"thinking", "text", "tool_use"}) {
		t.Errorf("content blocks = %q", blockTypes)
	}
}

func TestReplyOrder(t *testing.T) {
	s := NewOpenAI(t)
	s.Push(Reply{Text: "first"}, Reply{Text: "second"})
	s.Respond(func(r Request) Reply { return Reply{Text: "computed for " + r.Model} })
	for _, want := range []string{"first", "second", "computed for m"} {
		if got := openAIText(t, s); got != want {
			t.Errorf("reply = %q, want %q", got, want)
		}
	}
	if got := openAIText(t, NewOpenAI(t)); got != "ok" {
		t.Errorf("default reply = %q, want ok", got)
	}
}

func TestErrorReply(t *testing.T) {
	s := NewAnthropic(t)
	body := AnthropicError("overloaded_error", "Overloaded")
	s.Push(Reply{Status: 529, ErrorBody: body})
	resp := post(t, s.URL+"/v1/messages", `{"model":"m","messages":[]}`)
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 529 || string(got) != body || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("status %d, type %q, body %s", resp.StatusCode, resp.Header.Get("Content-Type"), got)
	}
}

func TestHeldStreamEndsWithTheTest(t *testing.T) {
	var body io.ReadCloser
	t.Run("holder", func(t *testing.T) {
		s := NewOpenAI(t)
		s.Push(Reply{Text: "held forever, or until the test ends", Hold: make(chan struct{})})
		resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(openAIBody))
		if err != nil {
			t.Fatal(err)
		}
		body = resp.Body
		r := bufio.NewReader(body)
		for line := ""; !strings.Contains(line, `"content":"held"`); {
			if line, err = r.ReadString('\n'); err != nil {
				t.Fatalf("stream ended before the first text chunk: %v", err)
			}
		}
	})
	defer body.Close()
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, body)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitGuard):
		t.Fatal("a held stream outlived its test")
	}
}

func TestWaitRequests(t *testing.T) {
	s := NewOpenAI(t)
	go func() {
		for range 2 {
			resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(openAIBody))
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	}()
	if got := s.WaitRequests(t, 2); len(got) != 2 || got[1].Model != "m" {
		t.Errorf("WaitRequests = %+v", got)
	}
}

func TestModels(t *testing.T) {
	s := NewOpenAI(t)
	resp, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct{ ID string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Data) != 1 || list.Data[0].ID != ModelName {
		t.Errorf("models = %+v, %v", list, err)
	}
}

func TestUnreachableURL(t *testing.T) {
	url := UnreachableURL(t)
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/v1")
	if conn, err := net.Dial("tcp", host); err == nil {
		conn.Close()
		t.Errorf("%s accepted a connection", url)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		wire wire
		body string
		want Request
	}{
		{
			name: "openai",
			wire: openAIWire{},
			body: `{"model":"m","tools":[{"type":"function","function":{"name":"read"}}],"messages":[
				{"role":"system","content":"a"},{"role":"system","content":[{"type":"text","text":"b"}]},
				{"role":"user","content":[{"type":"text","text":"ctx"},{"type":"text","text":"hi"}]},
				{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},
				{"role":"tool","tool_call_id":"c1","content":"data"}]}`,
			want: Request{Model: "m", System: "a\n\nb", SystemMessages: 2, Tools: []string{"read"}, Messages: []Msg{
				{Role: "user", Texts: []string{"ctx", "hi"}},
				{Role: "assistant", ToolCallIDs: []string{"c1"}},
				{Role: "tool", ToolCallIDs: []string{"c1"}, ToolResults: []string{"data"}},
			}},
		},
		{
			name: "anthropic",
			wire: anthropicWire{},
			body: `{"model":"m","system":[{"type":"text","text":"sys"}],"tools":[{"name":"read","input_schema":{"type":"object"}}],"messages":[
				{"role":"user","content":"hi"},
				{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"t1","name":"read","input":{}}]},
				{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"data"}]},{"type":"text","text":"more"}]}]}`,
			want: Request{Model: "m", System: "sys", SystemMessages: 1, Tools: []string{"read"}, Messages: []Msg{
				{Role: "user", Texts: []string{"hi"}},
				{Role: "assistant", ToolCallIDs: []string{"t1"}},
				{Role: "user", Texts: []string{"more"}, ToolCallIDs: []string{"t1"}, ToolResults: []string{"data"}},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body map[string]any
			if err := json.Unmarshal([]byte(tt.body), &body); err != nil {
				t.Fatal(err)
			}
			if got := tt.wire.parse(body); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parse =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}
