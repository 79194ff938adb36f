package childproc

import (
	"strings"
	"testing"
)

func TestHeadTail(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"short", []string{"abc"}, "abc"},
		{"exactly twice the limit", []string{"abcd", "efgh"}, "abcdefgh"},
		{"one big write", []string{"abcdefghij"}, "abcd\n[… 2 bytes omitted …]\nghij"},
		{"many small writes", strings.Split("abcdefghijklmnopqrstuvwxyz", ""), "abcd\n[… 18 bytes omitted …]\nwxyz"},
		{"big write after small", []string{"ab", "cdefghijklmn"}, "abcd\n[… 6 bytes omitted …]\nklmn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHeadTail(4)
			total := writeAll(t, h, tt.writes)
			if got := h.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if h.Len() != int64(total) {
				t.Errorf("Len() = %d, want %d", h.Len(), total)
			}
		})
	}
}

func TestHead(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"nothing", nil, ""},
		{"short", []string{"abc"}, "abc"},
		{"exactly the limit", []string{"ab", "cd"}, "abcd"},
		{"one big write", []string{"abcdefghij"}, "abcd"},
		{"writes past the limit", []string{"abc", "def", "ghi"}, "abcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHead(4)
			total := writeAll(t, h, tt.writes)
			if got := string(h.Bytes()); got != tt.want {
				t.Errorf("Bytes() = %q, want %q", got, tt.want)
			}
			if h.Len() != int64(total) {
				t.Errorf("Len() = %d, want %d", h.Len(), total)
			}
		})
	}
}

// writeAll writes each string, requiring that every write is taken whole.
func writeAll(t *testing.T, w interface{ Write([]byte) (int, error) }, writes []string) int {
	t.Helper()
	total := 0
	for _, s := range writes {
		n, err := w.Write([]byte(s))
		if err != nil || n != len(s) {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
		total += n
	}
	return total
}
