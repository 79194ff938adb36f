package llmtest

import (
	"net/http"
	"time"
)

// Sizes of the streamed pieces: small, so every answer spans several
// chunks and clients must reassemble text and tool arguments.
const (
	textChunkRunes = 4
	argsChunkRunes = 5
)

// sseStream writes Server-Sent Events, flushing each one so the client
// sees real streaming, and enacts a Reply's CutAfter and Hold.
type sseStream struct {
	srv      *Server
	w        http.ResponseWriter
	rc       *http.ResponseController
	req      *http.Request
	cutAfter int
	hold     <-chan struct{}

	sent int
	gone bool // the client or the test went away; later events are dropped
}

func newSSEStream(s *Server, w http.ResponseWriter, r *http.Request, reply Reply) *sseStream {
	st := &sseStream{srv: s, w: w, rc: http.NewResponseController(w), req: r, cutAfter: reply.CutAfter, hold: reply.Hold}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	st.flush()
	return st
}

// event writes one SSE event; name may be empty (OpenAI sends data only).
// Once CutAfter events are out, the next one breaks the connection
// instead: the client sees the body end mid-stream, as when a server
// crashes.
func (st *sseStream) event(name string, data []byte) {
	if st.gone {
		return
	}
	if st.cutAfter > 0 && st.sent >= st.cutAfter {
		// The documented way to make net/http drop the connection
		// without the terminating chunk.
		panic(http.ErrAbortHandler)
	}
	var b []byte
	if name != "" {
		b = append(append(append(b, "event: "...), name...), '\n')
	}
	b = append(append(append(b, "data: "...), data...), "\n\n"...)
	if _, err := st.w.Write(b); err != nil {
		st.gone = true
		return
	}
	st.flush()
	st.sent++
}

// holdOnce pauses the stream the first time it is called, if the Reply
// has a Hold channel.
func (st *sseStream) holdOnce() {
	if st.hold == nil || st.gone {
		return
	}
	hold := st.hold
	st.hold = nil
	if !st.srv.pause(st.req, 0, hold) {
		st.gone = true
	}
}

func (st *sseStream) flush() {
	if err := st.rc.Flush(); err != nil {
		st.gone = true
	}
}

// pieces splits s into runs of at most n runes; empty s gives no pieces.
func pieces(s string, n int) []string {
	var out []string
	runes := []rune(s)
	for len(runes) > 0 {
		k := min(n, len(runes))
		out = append(out, string(runes[:k]))
		runes = runes[k:]
	}
	return out
}

// keepalives sends n SSE comments, every d, as ds4-server does while it
// prefills (": prefill\n\n"); clients must ignore them. It reports false
// when the client or the test went away.
func (st *sseStream) keepalives(n int, d time.Duration) bool {
	for range n {
		if !st.srv.pause(st.req, d, nil) {
			return false
		}
		if _, err := st.w.Write([]byte(": prefill\n\n")); err != nil {
			return false
		}
		st.flush()
	}
	return !st.gone
}
