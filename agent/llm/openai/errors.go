package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/internal/httpcall"
)

// Bounds on error text: enough for any server's message, not a runaway
// HTML page in the user's face.
const (
	maxErrorBody = 64 << 10
)

// Phrases that, next to the word "model", say the model does not exist:
// OpenAI's "does not exist" / model_not_found, Ollama's "not found, try
// pulling it first", DeepSeek's "Model Not Exist".
var missingModelPhrases = []string{"not found", "not_found", "does not exist", "not exist"}

// attempt is what an error is reported against.
type attempt struct {
	url, model string
	dog        *httpcall.Watchdog // nil for calls without stream deadlines
	resp       *http.Response     // set by the SDK once response headers arrive
}

func (a *attempt) newError(kind llm.ErrorKind, detail string, err error) *llm.Error {
	return &llm.Error{Kind: kind, URL: a.url, Model: a.model, Detail: detail, Err: err}
}

// fail maps a failed call to the error the loop and the user see. A
// cancelled ctx is returned as itself, wrapped, so errors.Is finds
// context.Canceled; everything else becomes an *llm.Error.
func (a *attempt) fail(ctx context.Context, err error) error {
	switch ctxErr := ctx.Err(); {
	case errors.Is(ctxErr, context.DeadlineExceeded):
		return a.newError(llm.ErrTimeout, "", ctxErr)
	case ctxErr != nil:
		return fmt.Errorf("model request to %s: %w", a.url, ctxErr)
	}
	var e *llm.Error
	if errors.As(err, &e) {
		e.URL, e.Model = a.url, a.model
		return e
	}
	return a.classify(err)
}

func (a *attempt) classify(err error) *llm.Error {
	if cause, early := a.dog.Expired(); cause != nil {
		if early {
			return a.newError(llm.ErrTimeout, cause.Error(), err)
		}
		// Silence mid-answer means the stream died; retrying is the cure.
		return a.newError(llm.ErrStreamCut, cause.Error(), err)
	}
	var inBand *ssestream.StreamError
	switch {
	case errors.As(err, &inBand):
		info := parseErrorBody(inBand.Event.Data)
		e := a.newError(kindOf(info.status, info), info.message, nil)
		e.Status = info.status
		return e
	case a.resp != nil:
		return a.newError(llm.ErrStreamCut, "", err)
	case httpcall.Unreachable(err):
		return a.newError(llm.ErrUnreachable, "", err)
	}
	return a.newError(llm.ErrOther, "", err)
}

// statusError is an SDK middleware turning an HTTP error response into an
// *llm.Error before the SDK parses it. The SDK understands only OpenAI's
// {"error":{...}} body: of vLLM's top-level {"message":...} it keeps
// nothing, and for Ollama's {"error":"..."} or a proxy's plain text it
// returns a JSON decoding error that has lost even the status.
func statusError(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res.StatusCode < http.StatusBadRequest {
		return res, err
	}
	defer res.Body.Close()
	// A body cut short still names the status; keep what arrived.
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	info := parseErrorBody(body)
	return nil, &llm.Error{Kind: kindOf(res.StatusCode, info), Status: res.StatusCode, Detail: info.message}
}

// errorInfo is what an error body says.
type errorInfo struct {
	message string // the server's words, for the user
	code    string // machine-readable code and type, for classifying
	status  int    // a numeric code inside the body (in-band stream errors)
}

// parseErrorBody reads the error shapes in the wild: OpenAI's and
// llama.cpp's {"error":{"message","code","type"}}, vLLM's top-level
// {"message","code"}, Ollama's {"error":"..."}, FastAPI's {"detail":"..."}
// and plain text.
func parseErrorBody(body []byte) errorInfo {
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		return errorInfo{message: httpcall.Clip(string(body))}
	}
	fields := doc
	switch e := doc["error"].(type) {
	case map[string]any:
		fields = e
	case string:
		return errorInfo{message: httpcall.Clip(e)}
	}
	info := errorInfo{message: httpcall.Clip(firstString(fields["message"], fields["detail"]))}
	if info.message == "" {
		info.message = httpcall.Clip(string(body))
	}
	switch code := fields["code"].(type) {
	case string:
		info.code = code
	case float64:
		info.status = int(code)
	}
	info.code = strings.TrimSpace(info.code + " " + firstString(fields["type"]))
	return info
}

// kindOf classifies an error response by status, then by its words.
func kindOf(status int, info errorInfo) llm.ErrorKind {
	text := strings.ToLower(info.message + " " + info.code)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return llm.ErrAuth
	case status == http.StatusTooManyRequests:
		return llm.ErrRateLimited
	case status == http.StatusNotFound:
		return llm.ErrModelNotFound
	case httpcall.IsOverflow(text):
		return llm.ErrContextOverflow
	case strings.Contains(text, "model") && httpcall.ContainsAny(text, missingModelPhrases):
		return llm.ErrModelNotFound
	case status >= http.StatusInternalServerError:
		return llm.ErrServer
	}
	return llm.ErrOther
}

func firstString(values ...any) string {
	for _, v := range values {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	return ""
}
