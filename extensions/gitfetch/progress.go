package gitfetch

import (
	"regexp"
	"strconv"
	"sync"
	"time"
)

// progressInterval throttles callbacks to about 20 a second; phase changes
// and phase ends are always reported.
const progressInterval = 50 * time.Millisecond

// reporter keeps the current Progress and forwards it to the callback.
// The mutex also serialises callbacks, which may come from go-git's
// decoding and from the HTTP transport.
type reporter struct {
	fn func(Progress)

	mu   sync.Mutex
	cur  Progress
	last time.Time
}

func newReporter(fn func(Progress)) *reporter {
	return &reporter{fn: fn}
}

func (r *reporter) enabled() bool { return r.fn != nil }

// enter starts phase with no objects done out of total (0 if not yet
// known) and reports it.
func (r *reporter) enter(phase Phase, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cur = Progress{Phase: phase, TotalObjects: total, Bytes: r.cur.Bytes}
	r.emit()
}

// update applies change and reports the result unless a report went out
// less than progressInterval ago.
func (r *reporter) update(change func(*Progress)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	change(&r.cur)
	if time.Since(r.last) >= progressInterval {
		r.emit()
	}
}

// flush reports the current state unconditionally, so the last counts of
// a phase are always seen.
func (r *reporter) flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.emit()
}

func (r *reporter) emit() {
	if r.fn == nil {
		return
	}
	r.last = time.Now()
	r.fn(r.cur)
}

// maxProgressLine bounds how much of one server progress line is kept; the
// lines parsed are short, longer ones are not progress.
const maxProgressLine = 256

// serverProgress reads the remote's sideband progress text, as written by
// go-git to CloneOptions.Progress ("Counting objects:  40% (2/5)\r", ...),
// for the number of objects the server is about to send. Lines may arrive
// split across writes and end in \r (in-place updates) or \n.
type serverProgress struct {
	reporter *reporter
	line     []byte
}

var objectTotalPattern = regexp.MustCompile(
	`^(?:Enumerating objects: (\d+)|Counting objects: +\d+% \(\d+/(\d+)\)|Total (\d+))`)

func (s *serverProgress) Write(p []byte) (int, error) {
	for _, b := range p {
		switch {
		case b == '\r' || b == '\n':
			s.parse()
			s.line = s.line[:0]
		case len(s.line) < maxProgressLine:
			s.line = append(s.line, b)
		}
	}
	return len(p), nil
}

func (s *serverProgress) parse() {
	m := objectTotalPattern.FindSubmatch(s.line)
	if m == nil {
		return
	}
	for _, group := range m[1:] {
		if n, err := strconv.Atoi(string(group)); err == nil {
			s.reporter.update(func(p *Progress) { p.TotalObjects = n })
			return
		}
	}
}
