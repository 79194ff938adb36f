package llm

import (
	"errors"
	"fmt"
)

// ErrorKind classifies a provider failure so the loop and the UI can react
// (compact on ContextOverflow, suggest a fix for Unreachable, ...).
type ErrorKind int

const (
	ErrOther ErrorKind = iota
	ErrUnreachable
	ErrAuth
	ErrModelNotFound
	ErrContextOverflow
	ErrStreamCut
	ErrTimeout
	ErrRateLimited
	ErrServer
	// ErrGeneration: the stream ended with a finish reason saying the
	// server failed while writing the answer.
	ErrGeneration
)

// Error is a provider failure worded for the user.
type Error struct {
	Kind   ErrorKind
	Status int    // HTTP status, 0 when none was received
	URL    string // base URL of the provider
	Model  string
	Detail string // the server's own message, if any
	Err    error  // underlying cause
}

func (e *Error) Error() string {
	detail := ""
	if e.Detail != "" {
		detail = ": " + e.Detail
	}
	switch e.Kind {
	case ErrUnreachable:
		return fmt.Sprintf("no model server at %s. Start ds4-server, llama.cpp or Ollama, or choose a provider in Preferences", e.URL)
	case ErrAuth:
		return fmt.Sprintf("the server at %s refused the API key (HTTP %d)%s. Check the key in Preferences → Providers", e.URL, e.Status, detail)
	case ErrModelNotFound:
		return fmt.Sprintf("model %q is not available at %s%s. Pick a model the server lists in Preferences → Providers", e.Model, e.URL, detail)
	case ErrContextOverflow:
		return fmt.Sprintf("the conversation is longer than the model's context window%s. Use /compact or start a new session", detail)
	case ErrStreamCut:
		return fmt.Sprintf("the answer from %s stopped mid-stream%s. Send the prompt again to retry", e.URL, detail)
	case ErrTimeout:
		return fmt.Sprintf("%s did not answer in time%s. The server may be loading the model or overloaded", e.URL, detail)
	case ErrRateLimited:
		return fmt.Sprintf("%s is rate limiting requests (HTTP %d)%s. Wait a moment and retry", e.URL, e.Status, detail)
	case ErrServer:
		return fmt.Sprintf("%s failed (HTTP %d)%s", e.URL, e.Status, detail)
	case ErrGeneration:
		return fmt.Sprintf("the server at %s failed while writing the answer%s. Send the prompt again to retry", e.URL, detail)
	}
	if e.Status != 0 {
		return fmt.Sprintf("model request to %s failed (HTTP %d)%s", e.URL, e.Status, detail)
	}
	if e.Err != nil {
		return fmt.Sprintf("model request to %s failed: %v", e.URL, e.Err)
	}
	return fmt.Sprintf("model request to %s failed%s", e.URL, detail)
}

func (e *Error) Unwrap() error { return e.Err }

// IsKind reports whether err is an *Error of the given kind.
func IsKind(err error, kind ErrorKind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == kind
}
