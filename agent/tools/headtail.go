package tools

import (
	"fmt"
	"strings"
)

// headTail is an io.Writer that keeps the first and the last limit bytes
// written and counts the rest. It never blocks or fails, so a command's
// pipe is always drained and a chatty child cannot hang on a full pipe.
// It is not safe for concurrent use; give each stream its own.
type headTail struct {
	limit int
	head  []byte
	tail  []byte // the newest bytes; trimmed back to limit as it grows
	total int64
}

func newHeadTail(limit int) *headTail {
	return &headTail{limit: limit}
}

func (h *headTail) Write(p []byte) (int, error) {
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
func (h *headTail) String() string {
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
func (h *headTail) Len() int64 {
	return h.total
}
