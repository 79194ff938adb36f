package gitfetch

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// A pack is compressed: a few megabytes can inflate to gigabytes (a file
// of zeros). go-git would inflate every object into memory before the
// tree's limits are checked, so countingStorage takes the pack itself
// (storer.PackfileWriter) and a checker reads each object's header as the
// pack streams in: an object whose inflated size (a full object's header,
// or the target size at the start of a delta) is over the per-file limit,
// or a running total over the inflated limit, stops the download before
// anything is inflated into memory. Only a pack that passes is parsed.

// inflatedLimit bounds the sum of a pack's inflated object sizes: what
// parsing it holds in memory. Twice the wire limit leaves room for the
// history a fallback fetch brings beside the tree.
func inflatedLimit(l Limits) int64 { return 2 * l.WireBytes }

// PackfileWriter makes countingStorage a storer.PackfileWriter: go-git
// hands it the raw pack instead of parsing it into memory itself.
func (s *countingStorage) PackfileWriter() (io.WriteCloser, error) {
	pr, pw := io.Pipe()
	w := &packWriter{s: s, pw: pw, checked: make(chan error, 1)}
	go func() {
		err := checkPack(pr, s.limits)
		if err != nil {
			pr.CloseWithError(err)
		} else {
			io.Copy(io.Discard, pr) // what follows the footer
		}
		w.checked <- err
	}()
	return w, nil
}

// packWriter keeps the raw pack (already bounded by the wire limit) while
// the checker reads it, then parses it into memory storage.
type packWriter struct {
	s       *countingStorage
	pw      *io.PipeWriter
	raw     bytes.Buffer
	checked chan error
}

func (w *packWriter) Write(p []byte) (int, error) {
	if _, err := w.pw.Write(p); err != nil {
		return 0, w.refuse(err)
	}
	return w.raw.Write(p)
}

func (w *packWriter) Close() error {
	w.pw.Close()
	if err := <-w.checked; err != nil {
		return w.refuse(err)
	}
	raw := w.raw.Bytes()
	w.raw = bytes.Buffer{}
	if len(raw) == 0 {
		return packfile.ErrEmptyPackfile
	}
	p, err := packfile.NewParserWithStorage(packfile.NewScanner(bytes.NewReader(raw)), w.s)
	if err != nil {
		return err
	}
	_, err = p.Parse()
	return err
}

// refuse records a limit the pack broke, which the fetch reports rather
// than go-git's account of the aborted copy.
func (w *packWriter) refuse(err error) error {
	if errors.Is(err, ErrTooLarge) && w.s.refused == nil {
		w.s.refused = err
	}
	return err
}

// checkPack reads a pack's object headers (and a delta's first bytes,
// where its target size is) and fails at the first object over the
// per-file limit or when the inflated total passes inflatedLimit. It
// inflates nothing into memory: skipped data streams through a
// decompressor into io.Discard.
func checkPack(r io.Reader, l Limits) error {
	scanner := packfile.NewScanner(r)
	_, count, err := scanner.Header()
	if err != nil {
		return err
	}
	kinds := map[int64]plumbing.ObjectType{} // by offset, for offset deltas
	var total int64
	for range count {
		oh, err := scanner.NextObjectHeader()
		if err != nil {
			return err
		}
		kind, size := oh.Type, oh.Length
		switch kind {
		case plumbing.OFSDeltaObject:
			if kind = kinds[oh.OffsetReference]; kind == plumbing.InvalidObject {
				kind = plumbing.AnyObject
			}
		case plumbing.REFDeltaObject:
			kind = plumbing.AnyObject
		}
		if oh.Type.IsDelta() {
			if size, err = deltaTargetSize(scanner); err != nil {
				return err
			}
		}
		kinds[oh.Offset] = kind
		if limit := objectLimit(kind, l); size > limit {
			return newError(ErrTooLarge, nil, "the repository holds %s of %d bytes, over the %d-byte limit for one file (refused before inflating it)", objectKind(kind), size, limit)
		}
		if total += size; total > inflatedLimit(l) {
			return newError(ErrTooLarge, nil, "the repository's objects inflate to more than %d bytes (refused before inflating them)", inflatedLimit(l))
		}
	}
	_, err = scanner.Checksum()
	return err
}

// objectLimit is the largest an object may inflate to: a file (blob) the
// per-file limit, a tree, commit or tag MaxFileBytes whatever the limits
// (a tree of MaxFiles entries is about a megabyte), and a delta whose
// base is not in the pack the smaller of the two.
func objectLimit(kind plumbing.ObjectType, l Limits) int64 {
	switch kind {
	case plumbing.BlobObject:
		return l.FileBytes
	case plumbing.AnyObject:
		return min(l.FileBytes, MaxFileBytes)
	}
	return MaxFileBytes
}

func objectKind(t plumbing.ObjectType) string {
	if t == plumbing.AnyObject {
		return "an object"
	}
	return "a " + t.String()
}

// deltaTargetSize reads the current delta object's header: the base size
// and the target size, two little-endian base-128 numbers.
func deltaTargetSize(s *packfile.Scanner) (int64, error) {
	var head prefixWriter
	if _, _, err := s.NextObject(&head); err != nil {
		return 0, err
	}
	r := bytes.NewReader(head.b)
	if _, err := readVarint(r); err != nil {
		return 0, err
	}
	return readVarint(r)
}

func readVarint(r io.ByteReader) (int64, error) {
	var v uint64
	for shift := uint(0); shift < 63; shift += 7 {
		b, err := r.ReadByte()
		if err != nil {
			return 0, packfile.ErrInvalidDelta
		}
		v |= uint64(b&0x7f) << shift
		if b&0x80 == 0 {
			return int64(v), nil
		}
	}
	return 0, packfile.ErrInvalidDelta
}

// prefixWriter keeps the first bytes written to it (two varints are at
// most 20 bytes) and discards the rest.
type prefixWriter struct{ b []byte }

func (w *prefixWriter) Write(p []byte) (int, error) {
	if room := 20 - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
