package gitfetch

import (
	"fmt"
	"io"
	"os"
	"path"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// write validates snap's tree and writes it into dest.
func (c *call) write(snap snapshot, dest string) (*treePlan, error) {
	if err := c.ctx.Err(); err != nil {
		return nil, c.fail(err)
	}
	plan, err := planTree(snap.objects, snap.commit, c.limits, c.url)
	if err != nil {
		return nil, err
	}
	return plan, c.writePlan(snap, plan, dest)
}

// writePlan writes the validated plan's entries into dest.
func (c *call) writePlan(snap snapshot, plan *treePlan, dest string) error {
	c.progress.enter(PhaseWriting, len(plan.entries))
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dest, err)
	}
	root, err := os.OpenRoot(dest)
	if err != nil {
		return fmt.Errorf("open %s: %w", dest, err)
	}
	defer root.Close()
	w := treeWriter{root: root, objects: snap.objects, dirs: map[string]bool{".": true}}
	for i, e := range plan.entries {
		if err := c.ctx.Err(); err != nil {
			return c.fail(err)
		}
		if err := w.write(e); err != nil {
			return fmt.Errorf("write %s into %s: %w", e.path, dest, err)
		}
		c.progress.update(func(p *Progress) { p.Objects = i + 1 })
	}
	c.progress.flush()
	return nil
}

// treeWriter writes entries through an os.Root, which refuses any path or
// link that would resolve outside dest even if validation missed one.
type treeWriter struct {
	root    *os.Root
	objects storer.EncodedObjectStorer
	dirs    map[string]bool
}

func (w *treeWriter) write(e treeEntry) error {
	if err := w.mkdirParent(e.path); err != nil {
		return err
	}
	if e.mode == filemode.Symlink {
		return w.root.Symlink(e.target, e.path)
	}
	return w.writeFile(e)
}

func (w *treeWriter) mkdirParent(name string) error {
	dir := path.Dir(name)
	if w.dirs[dir] {
		return nil
	}
	if err := w.root.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	w.dirs[dir] = true
	return nil
}

func (w *treeWriter) writeFile(e treeEntry) (err error) {
	blob, err := object.GetBlob(w.objects, e.blob)
	if err != nil {
		return err
	}
	r, err := blob.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	perm := os.FileMode(0o644)
	if e.mode == filemode.Executable {
		perm = 0o755
	}
	f, err := w.root.OpenFile(e.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(f, r)
	return err
}
