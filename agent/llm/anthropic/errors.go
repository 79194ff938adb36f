package anthropic

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/llm/internal/httpcall"
)

// Anthropic error types and the statuses they come with. An error event
// mid-stream arrives after a 200 OK, so its status is read from its type.
var statusOfType = map[string]int{
	"invalid_request_error": http.StatusBadRequest,
	"authentication_error":  http.StatusUnauthorized,
	"permission_error":      http.StatusForbidden,
	"not_found_error":       http.StatusNotFound,
	"request_too_large":     http.StatusRequestEntityTooLarge,
	"rate_limit_error":      http.StatusTooManyRequests,
	"api_error":             http.StatusInternalServerError,
	"overloaded_error":      529,
}

// attempt is what an error is reported against.
type attempt struct {
	url, model string
	dog        *httpcall.Watchdog
	resp       *http.Response // set by the SDK once response headers arrive
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
	if cause, early := a.dog.Expired(); cause != nil {
		if early {
			return a.newError(llm.ErrTimeout, cause.Error(), err)
		}
		// Silence mid-answer means the stream died; retrying is the cure.
		return a.newError(llm.ErrStreamCut, cause.Error(), err)
	}
	var apiErr *sdk.Error
	switch {
	case errors.As(err, &apiErr):
		return a.apiError(apiErr)
	case a.resp != nil:
		return a.newError(llm.ErrStreamCut, "", err)
	case httpcall.Unreachable(err):
		return a.newError(llm.ErrUnreachable, "", err)
	}
	return a.newError(llm.ErrOther, "", err)
}

// apiError classifies an error response or error event; the SDK has
// parsed its type and message already.
func (a *attempt) apiError(apiErr *sdk.Error) *llm.Error {
	typ := string(apiErr.Type())
	status := apiErr.StatusCode
	if status < http.StatusBadRequest {
		status = statusOfType[typ]
	}
	detail := apiErr.Message
	if detail == "" {
		detail = apiErr.RawJSON()
	}
	e := a.newError(kindOf(status, typ, detail), httpcall.Clip(detail), nil)
	e.Status = status
	return e
}

func kindOf(status int, typ, message string) llm.ErrorKind {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return llm.ErrAuth
	case status == http.StatusTooManyRequests:
		return llm.ErrRateLimited
	case status == http.StatusNotFound:
		return llm.ErrModelNotFound
	case httpcall.IsOverflow(message):
		return llm.ErrContextOverflow
	case status >= http.StatusInternalServerError || typ == "overloaded_error":
		return llm.ErrServer
	}
	return llm.ErrOther
}
