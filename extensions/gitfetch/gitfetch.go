// Package gitfetch materialises one commit of an HTTPS git repository into
// a folder using go-git alone: no git binary, no hooks, no submodules,
// nothing from the repository executed. The objects are fetched into memory
// (shallow where the server allows it), the commit's tree is validated
// against path-safety rules and size limits, and only then written through
// an os.Root so nothing can land outside the destination.
//
// Fetch and Resolve are safe to call concurrently; each call keeps its own
// HTTP transport, limits and progress state.
package gitfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
)

// Default limits. MaxFiles, MaxTreeBytes and MaxFileBytes bound what is
// checked out (docs/extensions.md, "Marketplaces"). MaxWireBytes bounds what is
// downloaded: twice the checked-out limit, because a fallback fetch of a
// commit that is not a branch or tag tip has to download history as well
// as the tree, while still stopping a hostile or mistaken URL long before
// it exhausts memory (the pack is held in memory while it is parsed).
const (
	MaxFiles     = 20_000
	MaxTreeBytes = 100 << 20
	MaxFileBytes = 20 << 20
	MaxWireBytes = 200 << 20
)

// MaxPathBytes bounds one checked-out path; deeper trees are refused
// rather than walked, since path length grows with every level.
const MaxPathBytes = 4096

// Limits overrides the default limits; a zero field keeps its default.
type Limits struct {
	Files     int
	TreeBytes int64
	FileBytes int64
	WireBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.Files <= 0 {
		l.Files = MaxFiles
	}
	if l.TreeBytes <= 0 {
		l.TreeBytes = MaxTreeBytes
	}
	if l.FileBytes <= 0 {
		l.FileBytes = MaxFileBytes
	}
	if l.WireBytes <= 0 {
		l.WireBytes = MaxWireBytes
	}
	return l
}

// Phase names a stage of Fetch for progress display.
type Phase string

// Phases reported by Fetch, in order. Installers add their own later
// stages (validating, activating).
const (
	PhaseConnecting Phase = "connecting"
	PhaseReceiving  Phase = "receiving"
	PhaseWriting    Phase = "writing"
)

// Progress is a snapshot of a running Fetch. While receiving, Objects
// counts objects decoded so far and TotalObjects is the count the server
// announced (0 until known); while writing, they count files. Bytes is the
// running total of bytes received from the network.
type Progress struct {
	Phase        Phase
	Objects      int
	TotalObjects int
	Bytes        int64
}

// Result identifies what Fetch wrote.
type Result struct {
	// Commit is the full hex hash of the commit written.
	Commit string
	// Ref is what the requested ref resolved to: a full ref name such as
	// refs/heads/main or refs/tags/v1 (tags peeled to their commit), or the
	// full commit hash when a commit was requested.
	Ref string
	// DefaultBranch reports that the remote's default branch (HEAD) was
	// used because no ref was requested.
	DefaultBranch bool
	// Files and Bytes are what the written tree counts against the limits
	// (files and symlinks; their sizes), so Materialise can go on counting.
	Files int
	Bytes int64
}

type options struct {
	progress func(Progress)
	client   *http.Client
	limits   Limits
}

// Option configures Fetch and Resolve.
type Option func(*options)

// WithProgress reports progress to fn, at most about 20 times a second plus
// once at the start and end of each phase. fn is called serially from the
// fetching goroutine and should return quickly; it may cancel the Fetch's
// context.
func WithProgress(fn func(Progress)) Option {
	return func(o *options) { o.progress = fn }
}

// WithHTTPClient makes requests through c's Transport instead of
// http.DefaultTransport (whose system roots honour SSL_CERT_FILE). Only the
// Transport is used: go-git wraps it in its own client to enforce its
// redirect policy, and deadlines come from the context.
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) { o.client = c }
}

// WithLimits replaces the default size limits; zero fields keep defaults.
func WithLimits(l Limits) Option {
	return func(o *options) { o.limits = l }
}

func newOptions(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	o.limits = o.limits.withDefaults()
	return o
}

func (o options) transport() http.RoundTripper {
	if o.client != nil && o.client.Transport != nil {
		return o.client.Transport
	}
	return http.DefaultTransport
}

// Fetch writes the tree of ref's commit in the repository at rawURL into
// dest, which must not exist or be an empty directory. ref may be empty
// (the remote's default branch), a branch, a tag, a full ref name, or a
// full or abbreviated (at least 7 hex digits, unique) commit hash.
//
// On failure or cancellation dest may hold a partial tree; the caller
// deletes it (installers write into a staging directory they sweep).
func Fetch(ctx context.Context, rawURL, ref, dest string, opts ...Option) (Result, error) {
	o := newOptions(opts)
	host, err := checkURL(rawURL)
	if err != nil {
		return Result{}, err
	}
	if err := checkDest(dest); err != nil {
		return Result{}, err
	}
	c := newCall(ctx, rawURL, host, o)
	c.progress.enter(PhaseConnecting, 0)
	tgt, err := c.resolve(ref)
	if err != nil {
		return Result{}, err
	}
	snap, err := c.fetch(tgt)
	if err != nil {
		return Result{}, err
	}
	plan, err := c.write(snap, dest)
	if err != nil {
		return Result{}, err
	}
	result := snap.result
	result.Commit = snap.commit.Hash.String()
	result.Files, result.Bytes = len(plan.entries), plan.bytes
	return result, nil
}

// Resolve reports the commit ref currently names, from the remote's
// advertised refs alone, so an update can say "already up to date" without
// downloading anything. A full commit hash is returned as given; an
// abbreviated one must match a branch or tag tip, since finding it deeper
// in history needs the download Fetch does.
func Resolve(ctx context.Context, rawURL, ref string, opts ...Option) (string, error) {
	o := newOptions(opts)
	host, err := checkURL(rawURL)
	if err != nil {
		return "", err
	}
	c := newCall(ctx, rawURL, host, o)
	c.progress.enter(PhaseConnecting, 0)
	tgt, err := c.resolve(ref)
	if err != nil {
		return "", err
	}
	if tgt.commit.IsZero() {
		return "", newError(ErrRefNotFound, nil,
			"short commit %q is not a branch or tag tip of %s; use the full commit hash", ref, rawURL)
	}
	return tgt.commit.String(), nil
}

// checkURL accepts only https:// URLs with a host and returns the host.
// Everything else (http, file, ssh, scp-like user@host:path, local paths)
// is refused before any network access.
func checkURL(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return "", newError(ErrNotHTTPS, nil, "%s: only https:// git URLs are supported", rawURL)
	}
	if u.User != nil { // it would be stored in the registry and shown as the source
		return "", newError(ErrCredentialsInURL, nil, "https://%s%s: remove the user name and password from the URL; private repositories are not supported yet", u.Host, u.Path)
	}
	return u.Host, nil
}

// checkDest fails early, before any download, if dest is unusable.
func checkDest(dest string) error {
	d, err := os.Open(dest)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("destination %s: %w", dest, err)
	}
	defer d.Close()
	if _, err := d.Readdirnames(1); !errors.Is(err, io.EOF) {
		if err == nil {
			return fmt.Errorf("destination %s is not empty", dest)
		}
		return fmt.Errorf("destination %s: %w", dest, err)
	}
	return nil
}
