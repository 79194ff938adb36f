package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"
)

// ErrChanged marks a package file that differs from what was reviewed;
// the extension goes back to "needs review" rather than running it.
var ErrChanged = errors.New("changed since it was reviewed")

// FileStamp records a package file a hook argv names, at install time.
type FileStamp struct {
	Path    string // package-relative, slash-separated
	Size    int64
	ModTime time.Time
	SHA256  string // hex
}

// stampHookFiles hashes every file any hook names, once each, by path.
func (l *loader) stampHookFiles() error {
	var paths []string
	for _, h := range l.pkg.Hooks {
		paths = append(paths, h.Files...)
	}
	for _, s := range l.pkg.MCPServers {
		paths = append(paths, s.Files...)
	}
	for _, s := range l.pkg.LSPServers {
		paths = append(paths, s.Files...)
	}
	slices.Sort(paths)
	sums := map[string]string{}
	for _, p := range slices.Compact(paths) {
		stamp, err := stampFile(filepath.Join(l.root.dir, filepath.FromSlash(p)), p)
		if err != nil {
			return err
		}
		l.pkg.Stamps = append(l.pkg.Stamps, stamp)
		sums[p] = stamp.SHA256
	}
	for i := range l.pkg.MCPServers {
		s := &l.pkg.MCPServers[i]
		s.FileSHA256 = nil
		for _, f := range s.Files {
			s.FileSHA256 = append(s.FileSHA256, sums[f])
		}
	}
	for i := range l.pkg.LSPServers {
		s := &l.pkg.LSPServers[i]
		s.FileSHA256 = nil
		for _, f := range s.Files {
			s.FileSHA256 = append(s.FileSHA256, sums[f])
		}
	}
	return nil
}

func stampFile(path, rel string) (FileStamp, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileStamp{}, fmt.Errorf("hash %s: %w", rel, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return FileStamp{}, fmt.Errorf("hash %s: %w", rel, err)
	}
	sum, err := hashReader(f)
	if err != nil {
		return FileStamp{}, fmt.Errorf("hash %s: %w", rel, err)
	}
	return FileStamp{Path: rel, Size: info.Size(), ModTime: info.ModTime(), SHA256: sum}, nil
}

func hashReader(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// CheckStamps verifies, before a hook runs, that every stamped file under
// root is unchanged. A different size fails without reading the file;
// otherwise the content is hashed, because a same-size edit with a
// restored mtime is exactly what a tamperer would do. Files are opened
// through os.Root, so a symlink swapped in to point outside fails too.
// The error names the first changed file and wraps ErrChanged.
func CheckStamps(root string, stamps []FileStamp) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("package folder %s %w: %w", root, ErrChanged, err)
	}
	defer r.Close()
	for _, want := range stamps {
		if err := checkStamp(r, want); err != nil {
			return err
		}
	}
	return nil
}

func checkStamp(r *os.Root, want FileStamp) error {
	f, err := r.Open(filepath.FromSlash(want.Path))
	if err != nil {
		return fmt.Errorf("%s %w: %w", want.Path, ErrChanged, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s %w: %w", want.Path, ErrChanged, err)
	}
	if info.Size() != want.Size {
		return fmt.Errorf("%s %w (size %d, was %d)", want.Path, ErrChanged, info.Size(), want.Size)
	}
	sum, err := hashReader(f)
	if err != nil {
		return fmt.Errorf("%s %w: %w", want.Path, ErrChanged, err)
	}
	if sum != want.SHA256 {
		return fmt.Errorf("%s %w (content differs, modified %s)", want.Path, ErrChanged, info.ModTime().Format(time.RFC3339))
	}
	return nil
}

func isRegularFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// Magic numbers of programs the OS can exec directly.
var (
	elfMagic   = [][]byte{{0x7f, 'E', 'L', 'F'}}
	machOMagic = [][]byte{{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe}, {0xca, 0xfe, 0xba, 0xbe}}
	peMagic    = [][]byte{{'M', 'Z'}}
	shebang    = []byte("#!")
)

// magicLength is the longest magic number above.
const magicLength = 4

// executableProblem says why the OS could not exec path directly, or ""
// when it can: an executable #! script or a native binary for this system.
func executableProblem(path string) string {
	info, err := os.Stat(path)
	if err != nil {
		return err.Error()
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o111 == 0 {
		return "no execute permission"
	}
	head, err := readHead(path)
	if err != nil {
		return err.Error()
	}
	if runtime.GOOS != "windows" && bytes.HasPrefix(head, shebang) || hasMagic(head, nativeMagic()) {
		return ""
	}
	return errNotProgram
}

// errNotProgram: an executable file that is neither a #! script nor a
// native binary; on POSIX systems /bin/sh runs it.
const errNotProgram = "neither a #! script nor a native binary"

func nativeMagic() [][]byte {
	switch runtime.GOOS {
	case "windows":
		return peMagic
	case "darwin", "ios":
		return machOMagic
	}
	return elfMagic
}

func hasMagic(head []byte, magics [][]byte) bool {
	return slices.ContainsFunc(magics, func(m []byte) bool { return bytes.HasPrefix(head, m) })
}

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, magicLength)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return head[:n], nil
}
