package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

func TestFraming(t *testing.T) {
	var buf bytes.Buffer
	WriteMessage(&buf, []byte(`{"a":"é"}`))
	if got := buf.String(); got != "Content-Length: 10\r\n\r\n{\"a\":\"é\"}" {
		t.Fatalf("framed %q", got)
	}
	in := "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}" + buf.String()
	r := bufio.NewReader(strings.NewReader(in))
	for _, want := range []string{`{}`, `{"a":"é"}`} {
		got, err := ReadMessage(r)
		if err != nil || string(got) != want {
			t.Fatalf("read %q %v, want %q", got, err, want)
		}
	}
	if _, err := ReadMessage(r); err != io.EOF {
		t.Errorf("at the end: %v, want EOF", err)
	}
	for _, bad := range []string{"Content-Length: x\r\n\r\n", "Content-Length: 99999999999\r\n\r\n", "Content-Length: 5\r\n\r\n{}"} {
		if _, err := ReadMessage(bufio.NewReader(strings.NewReader(bad))); err == nil || err == io.EOF {
			t.Errorf("%q read without error (%v)", bad, err)
		}
	}
}

// A fake server: answers a call, asks workspace/configuration (answered
// from the settings' section), publishes diagnostics.
func TestConnCallsAndServerRequests(t *testing.T) {
	toServer, fromClient := io.Pipe()
	fromServer, toClient := io.Pipe()
	c := NewClient(fromServer, fromClient, json.RawMessage(`{"gopls":{"staticcheck":true}}`))
	got := make(chan string, 1)
	go func() {
		r := bufio.NewReader(toServer)
		req, _ := ReadMessage(r)
		var m message
		json.Unmarshal(req, &m)
		WriteMessage(toClient, []byte(`{"jsonrpc":"2.0","id":7,"method":"workspace/configuration","params":{"items":[{"section":"gopls"},{"section":"none"}]}}`))
		ans, _ := ReadMessage(r)
		got <- string(ans)
		WriteMessage(toClient, []byte(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///p/a.go","version":1,"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":1,"message":"boom"}]}}`))
		WriteMessage(toClient, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"ok":true}}`))
	}()
	var res struct{ OK bool }
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Conn().Call(ctx, "initialize", map[string]any{}, &res); err != nil || !res.OK {
		t.Fatalf("call: %v %+v", err, res)
	}
	if a := <-got; a != `{"jsonrpc":"2.0","id":7,"result":[{"staticcheck":true},null]}` {
		t.Errorf("configuration answer %s", a)
	}
	if !c.WaitDiagnostics(ctx, "/p/a.go", 1, time.Time{}) || c.Diagnostics("/p/a.go")[0].Message != "boom" {
		t.Errorf("diagnostics %+v", c.Diagnostics("/p/a.go"))
	}
	toClient.Close()
	select {
	case <-c.Conn().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("conn did not end with the server's output")
	}
	if err := c.Conn().Call(ctx, "x", nil, nil); err == nil {
		t.Error("call after the end succeeded")
	}
}
