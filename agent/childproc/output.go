package childproc

import (
	"fmt"
	"strings"
	"sync"
)

// HeadTail is an io.Writer that keeps the first and the last limit bytes
// written and counts the rest. It never blocks or fails, so a child's
// pipe is always drained. It is not safe for concurrent use; give each
// stream its own.
type HeadTail struct {
	limit int
	head  []byte
	tail  []byte // the newest bytes; trimmed back to limit as it grows
	total int64
}

// NewHeadTail keeps limit bytes of each end.
func NewHeadTail(limit int) *HeadTail {
	return &HeadTail{limit: limit}
}

func (h *HeadTail) Write(p []byte) (int, error) {
	h.total += int64(len(p))
	rest := p
	if room := h.limit - len(h.head); room > 0 {
		n := min(room, len(rest))
		h.head = append(h.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) == 0 {
		return len(p), nil
	}
	if len(rest) >= h.limit {
		h.tail = append(h.tail[:0], rest[len(rest)-h.limit:]...)
		return len(p), nil
	}
	h.tail = append(h.tail, rest...)
	if len(h.tail) > 2*h.limit {
		// Trim only when twice the limit, so each byte is copied O(1) times.
		h.tail = h.tail[:copy(h.tail, h.tail[len(h.tail)-h.limit:])]
	}
	return len(p), nil
}

// String is the kept output, with a marker where bytes were dropped.
func (h *HeadTail) String() string {
	tail := h.tail[max(len(h.tail)-h.limit, 0):]
	omitted := h.total - int64(len(h.head)) - int64(len(tail))
	var b strings.Builder
	b.Write(h.head)
	if omitted > 0 {
		fmt.Fprintf(&b, "\n[… %d bytes omitted …]\n", omitted)
	}
	b.Write(tail)
	return strings.ToValidUTF8(b.String(), "\uFFFD")
}

// Len is the number of bytes written in all.
func (h *HeadTail) Len() int64 {
	return h.total
}

// Head is an io.Writer that keeps the first limit bytes written and
// counts the rest. Like HeadTail it never refuses a write.
type Head struct {
	limit int
	kept  []byte
	total int64
}

// NewHead keeps the first limit bytes.
func NewHead(limit int) *Head {
	return &Head{limit: limit}
}

func (h *Head) Write(p []byte) (int, error) {
	h.total += int64(len(p))
	if room := h.limit - len(h.kept); room > 0 {
		h.kept = append(h.kept, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// Bytes is what was kept.
func (h *Head) Bytes() []byte {
	return h.kept
}

// Len is the number of bytes written in all.
func (h *Head) Len() int64 {
	return h.total
}

// SyncHeadTail is a HeadTail that a child's output copier writes while
// others read it (a server's stderr, shown on its card).
type SyncHeadTail struct {
	mu sync.Mutex
	h  *HeadTail
}

// NewSyncHeadTail keeps limit bytes of each end.
func NewSyncHeadTail(limit int) *SyncHeadTail { return &SyncHeadTail{h: NewHeadTail(limit)} }

func (s *SyncHeadTail) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.h.Write(p)
}

// String is the kept output, as HeadTail's.
func (s *SyncHeadTail) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.h.String()
}
