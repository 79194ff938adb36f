package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// MaxMessageBytes bounds one incoming message (a workspace symbol answer
// of a large module stays far below).
const MaxMessageBytes = 64 << 20

// WriteMessage writes one JSON-RPC message with LSP's Content-Length
// framing.
func WriteMessage(w io.Writer, body []byte) error {
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}

// ReadMessage reads one framed message: headers up to the blank line
// (Content-Length required, Content-Type ignored), then the body.
func ReadMessage(r *bufio.Reader) ([]byte, error) {
	hdr, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		if errors.Is(err, io.EOF) && len(hdr) == 0 {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("lsp: reading headers: %w", err)
	}
	v := strings.TrimSpace(hdr.Get("Content-Length"))
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("lsp: bad Content-Length %q", v)
	}
	if n > MaxMessageBytes {
		return nil, fmt.Errorf("lsp: message of %d bytes exceeds %d", n, MaxMessageBytes)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("lsp: reading body: %w", err)
	}
	return body, nil
}

// message is any JSON-RPC 2.0 message.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error answer.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("lsp: %s (code %d)", e.Message, e.Code) }

// Handler answers the server's requests (result, or an error) and takes
// its notifications (the result is ignored).
type Handler func(method string, params json.RawMessage) (any, error)

// Conn is a JSON-RPC 2.0 connection over LSP framing: calls wait for
// their answer; the server's requests and notifications go to the
// handler, one at a time in arrival order.
type Conn struct {
	w       io.Writer
	handler Handler
	wmu     sync.Mutex
	mu      sync.Mutex
	next    int
	pending map[string]chan message
	done    chan struct{}
	err     error
}

// NewConn starts reading r; Done is closed when r ends.
func NewConn(r io.Reader, w io.Writer, h Handler) *Conn {
	c := &Conn{w: w, handler: h, pending: map[string]chan message{}, done: make(chan struct{})}
	go c.read(bufio.NewReader(r))
	return c
}

// Done is closed when the server's output ended; Err says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is why the connection ended (nil while it runs).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *Conn) send(m message) error {
	m.JSONRPC = "2.0"
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return WriteMessage(c.w, b)
}

// Call sends a request and decodes its result into out (nil: ignored).
func (c *Conn) Call(ctx context.Context, method string, params, out any) error {
	p, err := marshalParams(params)
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.next++
	id := strconv.Itoa(c.next)
	ch := make(chan message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() { c.mu.Lock(); delete(c.pending, id); c.mu.Unlock() }()
	if err := c.send(message{ID: json.RawMessage(id), Method: method, Params: p}); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if out == nil || len(m.Result) == 0 {
			return nil
		}
		return json.Unmarshal(m.Result, out)
	case <-c.done:
		return c.Err()
	case <-ctx.Done():
		c.send(message{Method: "$/cancelRequest", Params: json.RawMessage(`{"id":` + id + `}`)})
		return ctx.Err()
	}
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	p, err := marshalParams(params)
	if err != nil {
		return err
	}
	return c.send(message{Method: method, Params: p})
}

func (c *Conn) read(r *bufio.Reader) {
	var err error
	for {
		var body []byte
		if body, err = ReadMessage(r); err != nil {
			break
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue // not JSON-RPC: skipped
		}
		switch {
		case m.Method == "" && len(m.ID) > 0: // an answer
			c.mu.Lock()
			ch := c.pending[string(m.ID)]
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.Method != "":
			var res any
			var herr error
			if c.handler != nil {
				res, herr = c.handler(m.Method, m.Params)
			} else {
				herr = &RPCError{Code: -32601, Message: "method not found"}
			}
			if len(m.ID) == 0 {
				continue
			}
			reply := message{ID: m.ID}
			var re *RPCError
			switch {
			case errors.As(herr, &re):
				reply.Error = re
			case herr != nil:
				reply.Error = &RPCError{Code: -32603, Message: herr.Error()}
			default:
				reply.Result, _ = json.Marshal(res)
			}
			c.send(reply)
		}
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	c.mu.Lock()
	c.err = fmt.Errorf("lsp: server output ended: %w", err)
	c.mu.Unlock()
	close(c.done)
}

// marshalParams omits absent params (JSON-RPC allows no "params", not
// null).
func marshalParams(params any) (json.RawMessage, error) {
	if params == nil {
		return nil, nil
	}
	return json.Marshal(params)
}
