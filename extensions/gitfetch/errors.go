package gitfetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Sentinel errors for errors.Is. Returned errors wrap one of them with a
// sentence naming the host, ref, path or limit involved.
var (
	ErrNotHTTPS         = errors.New("only https:// git URLs are supported")
	ErrCredentialsInURL = errors.New("credentials in the URL are not supported")
	ErrUnreachable      = errors.New("host unreachable")
	ErrTLS              = errors.New("TLS certificate not trusted")
	ErrAuthRequired     = errors.New("repository requires authentication")
	ErrNotFound         = errors.New("repository not found")
	ErrEmptyRepository  = errors.New("repository is empty")
	ErrRefNotFound      = errors.New("ref not found")
	ErrAmbiguousRef     = errors.New("ambiguous short commit")
	ErrTooLarge         = errors.New("repository exceeds a size limit")
	ErrUnsafePath       = errors.New("unsafe path in repository")
	ErrSubmodule        = errors.New("submodules are not supported")
)

// detailError carries a user-facing sentence while staying errors.Is-able
// against its sentinel and errors.As-able against its cause.
type detailError struct {
	kind  error
	msg   string
	cause error
}

func (e *detailError) Error() string {
	if e.cause == nil {
		return e.msg
	}
	return e.msg + ": " + e.cause.Error()
}

func (e *detailError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

func newError(kind, cause error, format string, args ...any) error {
	return &detailError{kind: kind, msg: fmt.Sprintf(format, args...), cause: cause}
}

// classify turns a go-git or network failure into one of the sentinels.
// Errors it does not recognise are returned wrapped with the URL.
func classify(err error, rawURL, host string) error {
	for _, cause := range causes(err) {
		if typed := classifyOne(cause, rawURL, host); typed != nil {
			return typed
		}
	}
	return fmt.Errorf("fetch %s: %w", rawURL, err)
}

func classifyOne(cause error, rawURL, host string) error {
	switch cause {
	case context.Canceled, context.DeadlineExceeded:
		return fmt.Errorf("fetch %s: %w", rawURL, cause)
	case transport.ErrAuthenticationRequired, transport.ErrAuthorizationFailed:
		return newError(ErrAuthRequired, nil,
			"%s requires authentication; private repositories are not supported yet", rawURL)
	case transport.ErrRepositoryNotFound:
		return newError(ErrNotFound, nil, "repository %s not found", rawURL)
	case transport.ErrEmptyRemoteRepository:
		return newError(ErrEmptyRepository, nil, "repository %s is empty", rawURL)
	}
	if cert := certificateError(cause); cert != nil {
		return newError(ErrTLS, cert, "TLS certificate for %s not trusted", host)
	}
	var record tls.RecordHeaderError
	if errors.As(cause, &record) {
		return newError(ErrTLS, record, "TLS handshake with %s failed", host)
	}
	if netErr := unreachableError(cause); netErr != nil {
		return newError(ErrUnreachable, netErr, "cannot reach host %s", host)
	}
	return nil
}

// certificateError finds a certificate verification failure in err's
// chain, so the message can quote it without the request around it.
func certificateError(err error) error {
	var (
		verify    *tls.CertificateVerificationError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
	)
	switch {
	case errors.As(err, &verify):
		return verify
	case errors.As(err, &authority):
		return authority
	case errors.As(err, &hostname):
		return hostname
	case errors.As(err, &invalid):
		return invalid
	}
	return nil
}

// unreachableError finds a name-resolution or connection failure in err's
// chain.
func unreachableError(err error) error {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return op
	}
	for _, errno := range []syscall.Errno{syscall.ECONNREFUSED, syscall.EHOSTUNREACH, syscall.ENETUNREACH} {
		if errors.Is(err, errno) {
			return errno
		}
	}
	return nil
}

// causes lists err and everything it wraps. go-git's UnexpectedError and
// PermanentError hold a cause without an Unwrap method, so errors.Is and
// errors.As cannot see through them on their own.
func causes(err error) []error {
	var out []error
	pending := []error{err}
	for len(pending) > 0 {
		e := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if e == nil {
			continue
		}
		out = append(out, e)
		switch w := e.(type) {
		case *plumbing.UnexpectedError:
			pending = append(pending, w.Err)
		case *plumbing.PermanentError:
			pending = append(pending, w.Err)
		case interface{ Unwrap() error }:
			pending = append(pending, w.Unwrap())
		case interface{ Unwrap() []error }:
			pending = append(pending, w.Unwrap()...)
		}
	}
	return out
}
