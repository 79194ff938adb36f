// Package llmtest provides fake model servers for tests. They speak the
// real streaming wire formats — OpenAI Chat Completions and the Anthropic
// Messages API, as Server-Sent Events flushed chunk by chunk — so the
// providers under test run their production HTTP and parsing code, and
// tests of the agent loop get a model whose answers they script.
//
//	srv := llmtest.NewOpenAI(t)
//	srv.Push(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"a.go"}`}}})
//	srv.Push(llmtest.Reply{Text: "done"})
//	prov := openai.New(srv.Config())
//	...
//	req := srv.WaitRequests(t, 2)[1]
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/agent/llm"
)

// ModelName is the one model the fake servers list and answer as.
const ModelName = "llmtest-model"

// waitGuard bounds WaitRequests: long enough for any healthy test on a
// loaded machine, short enough that a missing request fails the test
// instead of hanging it.
const waitGuard = 30 * time.Second

// Reply scripts one answer of the fake server.
type Reply struct {
	Text      string     // streamed in several small chunks
	Reasoning string     // reasoning_content (OpenAI) / a thinking block (Anthropic)
	Signature string     // Anthropic thinking signature; defaults to DefaultSignature when Reasoning is set
	Redacted  string     // Anthropic only: the data of a redacted_thinking block sent after the thinking
	ToolCalls []ToolCall // each streamed with its arguments split across chunks

	Status    int    // non-zero: respond with this HTTP status and ErrorBody instead of a stream
	ErrorBody string // the error body, see OpenAIError and AnthropicError

	// CutAfter >0 breaks the connection after this many SSE events (pings
	// included), before the finish; a shorter stream is sent whole.
	CutAfter       int
	FirstByteDelay time.Duration // wait this long before the response headers
	// Hold, if set, pauses the stream after the first text chunk until it
	// is closed, the client goes away or the test ends.
	Hold <-chan struct{}

	Usage *llm.Usage // reported token counts; zero when nil

	// Finish, if set, is the finish reason sent instead of the natural one
	// ("stop"/"tool_calls", "end_turn"/"tool_use"): e.g. ds4-server's
	// "error" or "length" (OpenAI), "max_tokens" (Anthropic).
	Finish string
	// Keepalives, if positive, sends that many SSE comment lines
	// (": prefill", ds4-server's bytes while it reads a long prompt), one
	// every KeepaliveEvery, after the headers and before the first event.
	Keepalives     int
	KeepaliveEvery time.Duration

	// Unterminated ends the answer as ds4-server does when the model never
	// closes its last tool call: on OpenAI the arguments so far, then
	// finish_reason "error"; on Anthropic the last tool_use block never
	// gets its content_block_stop and stop_reason is "end_turn" (ds4-server
	// words every failure so on /v1/messages).
	Unterminated bool
	// ServerError, if set, is sent instead of the answer, after the
	// keepalives, as ds4-server's in-band error event ("event: error"):
	// what it sends when a prefill fails after the stream has begun.
	ServerError string
}

// DefaultSignature is the thinking signature the Anthropic fake sends when
// a Reply sets none.
const DefaultSignature = "llmtest-signature"

// ToolCall is one tool call of a Reply. An empty ID is filled in as
// "call_<n>" (OpenAI) or "toolu_<n>" (Anthropic), n counting from 1.
type ToolCall struct{ ID, Name, Args string }

// wire is one provider's wire format.
type wire interface {
	// baseURL is what llm.Config.BaseURL must be for the SDK to reach the
	// server's routes, given the server's root URL.
	baseURL(root string) string
	kind() string
	routes(s *Server, mux *http.ServeMux)
	parse(body map[string]any) Request
	// invalid is the error body a real server answers a request it
	// rejects with 400, or "" when the request is acceptable.
	invalid(body map[string]any) string
	stream(st *sseStream, r Request, reply Reply)
	// errorEvent is the data of an in-band "event: error" saying msg.
	errorEvent(msg string) []byte
}

// Server is a fake model server. Its zero value is not usable; create one
// with NewOpenAI or NewAnthropic.
type Server struct {
	// URL is the base URL to put in llm.Config.BaseURL ("…/v1" for OpenAI).
	URL string

	wire wire
	done chan struct{} // closed when the test ends, releasing held streams

	mu       sync.Mutex
	queue    []Reply
	respond  func(Request) Reply
	requests []Request
	arrived  chan struct{} // closed and replaced whenever a request is recorded
	models   []string      // what GET /v1/models lists
	window   int           // context_length GET /v1/models states; 0: none
}

// NewOpenAI starts a fake OpenAI-compatible server serving
// POST /v1/chat/completions and GET /v1/models. It stops when the test ends.
func NewOpenAI(t testing.TB) *Server { return start(t, openAIWire{}) }

// NewAnthropic starts a fake Anthropic server serving POST /v1/messages
// and GET /v1/models. It stops when the test ends.
func NewAnthropic(t testing.TB) *Server { return start(t, anthropicWire{}) }

func start(t testing.TB, w wire) *Server {
	t.Helper()
	s := &Server{wire: w, done: make(chan struct{}), arrived: make(chan struct{}), models: []string{ModelName}}
	mux := http.NewServeMux()
	w.routes(s, mux)
	srv := httptest.NewServer(mux)
	s.URL = w.baseURL(srv.URL)
	t.Cleanup(func() {
		close(s.done)
		srv.CloseClientConnections()
		srv.Close()
	})
	return s
}

// Config is a provider configuration pointing at the server.
func (s *Server) Config() llm.Config {
	return llm.Config{Kind: s.wire.kind(), BaseURL: s.URL, Model: ModelName, APIKey: "llmtest-key"}
}

// SetModels sets the ids GET /v1/models lists, in order (default:
// ModelName alone).
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
}

// SetContextLength makes GET /v1/models state context_length for every
// model, as ds4-server does.
func (s *Server) SetContextLength(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = n
}

func (s *Server) contextLength() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.window
}

func (s *Server) modelIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}

// Push queues replies, served in order. When the queue is empty the server
// asks the Respond function, or else answers with Text "ok".
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Respond sets a function computing the reply from the request, used once
// the queue is empty. It is called from the server's goroutines.
func (s *Server) Respond(f func(r Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = f
}

// Requests returns every model request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// WaitRequests blocks until at least n model requests have arrived and
// returns them all. It fails the test if they do not arrive in time.
func (s *Server) WaitRequests(t testing.TB, n int) []Request {
	t.Helper()
	guard := time.NewTimer(waitGuard)
	defer guard.Stop()
	for {
		s.mu.Lock()
		got, arrived := len(s.requests), s.arrived
		s.mu.Unlock()
		if got >= n {
			return s.Requests()
		}
		select {
		case <-arrived:
		case <-guard.C:
			t.Fatalf("llmtest: waited %v for %d model requests, got %d", waitGuard, n, got)
			return nil
		}
	}
}

// record stores a request, wakes WaitRequests and picks the reply. The
// Respond function runs unlocked so it may call Requests.
func (s *Server) record(r Request) Reply {
	s.arrive(r)
	s.mu.Lock()
	if len(s.queue) > 0 {
		reply := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return reply
	}
	respond := s.respond
	s.mu.Unlock()
	if respond != nil {
		return respond(r)
	}
	return Reply{Text: "ok"}
}

// arrive records a request and wakes WaitRequests.
func (s *Server) arrive(r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
	close(s.arrived)
	s.arrived = make(chan struct{})
}

// serveModel handles one model request in the server's wire format.
func (s *Server) serveModel(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, "llmtest: request body is not JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := s.wire.parse(body)
	req.Raw, req.Body, req.Header = raw, body, r.Header.Clone()
	if msg := s.wire.invalid(body); msg != "" {
		s.arrive(req)
		writeError(w, http.StatusBadRequest, msg) // a rejected request takes no scripted reply
		return
	}
	reply := s.record(req)
	if !s.pause(r, reply.FirstByteDelay, nil) {
		return
	}
	if reply.Status != 0 {
		writeError(w, reply.Status, reply.ErrorBody)
		return
	}
	st := newSSEStream(s, w, r, reply)
	if !st.keepalives(reply.Keepalives, reply.KeepaliveEvery) {
		return
	}
	if reply.ServerError != "" {
		st.event("error", s.wire.errorEvent(reply.ServerError))
		return
	}
	s.wire.stream(st, req, reply)
}

// pause waits for d (when positive) or hold (when non-nil) and reports
// false when the client or the test went away first.
func (s *Server) pause(r *http.Request, d time.Duration, hold <-chan struct{}) bool {
	var timeout <-chan time.Time
	if d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		timeout = timer.C
	} else if hold == nil {
		return true
	}
	select {
	case <-timeout:
	case <-hold:
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
	return true
}

func writeError(w http.ResponseWriter, status int, body string) {
	if json.Valid([]byte(body)) {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// UnreachableURL returns a base URL nothing listens on: the address of a
// listener that was opened and closed again, so connecting is refused.
func UnreachableURL(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: listen: %v", err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatalf("llmtest: close listener: %v", err)
	}
	return "http://" + addr + "/v1"
}

// mustJSON marshals values the package builds itself, which cannot fail.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("llmtest: marshal %T: %v", v, err))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
