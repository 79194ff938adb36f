package extensions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/gitfetch"
	"github.com/agentdesk/agentdesk/extensions/marketplace"
)

// Source is what to install: the plugin at URL, or, when Plugin is set,
// that plugin of the marketplace at URL.
type Source struct {
	URL, Ref, Plugin string
}

// MarketplaceError is the answer to installing a marketplace without
// naming a plugin: the plugins it lists, to pick from.
type MarketplaceError struct {
	URL         string
	Marketplace *marketplace.Marketplace
}

func (e *MarketplaceError) Error() string {
	var names []string
	for _, p := range e.Marketplace.Plugins {
		names = append(names, p.Name)
	}
	return fmt.Sprintf("%s is a marketplace of %d plugins (%s): pick the ones to install", e.URL, len(names), strings.Join(names, ", "))
}

// manifestFiles are the plugin manifests (manifest.Load reads both).
var manifestFiles = []string{".claude-plugin/plugin.json", ".codex-plugin/plugin.json"}

func hasManifest(root string) bool {
	for _, f := range manifestFiles {
		if info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f))); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// fetched is a downloaded tree in staging, not yet validated.
type fetched struct {
	st     *staging
	commit string
	// fetch is what the download wrote, counted against the limits.
	fetch gitfetch.Result
	// from is where a marketplace entry pointed (Kind "" for a plain
	// plugin); notes are diagnostics about how the package was found.
	from  marketplace.Source
	notes []string
}

// fetchSource downloads src into staging: a plain plugin as it is, a
// marketplace's plugin from its folder or its own repository. A
// marketplace without a picked plugin is a *MarketplaceError.
func (m *Manager) fetchSource(ctx context.Context, src Source, progress func(Progress)) (*fetched, error) {
	f, err := m.fetchRepo(ctx, src.URL, src.Ref, progress)
	if err != nil {
		return nil, err
	}
	_, isMarket := marketplace.Find(f.st.dir)
	switch {
	case !isMarket && src.Plugin != "":
		f.st.discard()
		return nil, fmt.Errorf("%s is not a marketplace (it has no %s): install it without a plugin name", src.URL, marketplace.Paths[0])
	case !isMarket || (src.Plugin == "" && hasManifest(f.st.dir)):
		return f, nil
	}
	mkt, err := marketplace.Load(f.st.dir)
	if err != nil {
		f.st.discard()
		return nil, err
	}
	switch {
	case src.Plugin != "":
		return m.fetchEntry(ctx, f, mkt, src.Plugin, progress, false)
	case mkt.Self():
		return f, nil
	}
	f.st.discard()
	return nil, &MarketplaceError{URL: src.URL, Marketplace: mkt}
}

func (m *Manager) fetchRepo(ctx context.Context, url, ref string, progress func(Progress)) (*fetched, error) {
	st, err := m.store.newStaging()
	if err != nil {
		return nil, err
	}
	opts := append([]gitfetch.Option{}, m.fetch...)
	opts = append(opts, gitfetch.WithProgress(func(p Progress) {
		if p.Phase == gitfetch.PhaseWriting {
			failpoint("writing")
		}
		if progress != nil {
			progress(p)
		}
	}))
	res, err := gitfetch.Fetch(ctx, url, ref, st.dir, opts...)
	if err != nil {
		st.discard()
		return nil, err
	}
	return &fetched{st: st, commit: res.Commit, fetch: res}, nil
}

// fetchEntry turns the marketplace download f into the picked plugin's
// package: its folder of the same commit, or its own repository. f is
// used up (moved or discarded) unless shared: then the plugin's folder is
// copied out of it, and f stays for the next plugin of one install.
func (m *Manager) fetchEntry(ctx context.Context, f *fetched, mkt *marketplace.Marketplace, name string, progress func(Progress), shared bool) (*fetched, error) {
	drop := func() {
		if !shared {
			f.st.discard()
		}
	}
	entry, err := mkt.Plugin(name)
	if err == nil && entry.Unsupported != "" {
		err = fmt.Errorf("plugin %q: %s", name, entry.Unsupported)
	}
	if err != nil {
		drop()
		return nil, err
	}
	folder := entry.Source.Path
	switch {
	case entry.Source.Kind == marketplace.SourceGit:
		drop()
		if f, err = m.fetchRepo(ctx, entry.Source.URL, cmpOr(entry.Source.SHA, entry.Source.Ref), progress); err != nil {
			return nil, fmt.Errorf("plugin %q of the marketplace: %w", name, err)
		}
		err = m.narrow(f, folder)
	case shared:
		f, err = m.copyOut(f, folder)
	default:
		err = m.narrow(f, folder)
	}
	if err != nil {
		return nil, fmt.Errorf("plugin %q: %w", name, err)
	}
	f.from = entry.Source
	f.notes = append(f.notes, fmt.Sprintf("installed from the marketplace entry %q (%s)", name, entry.Source))
	// A strict:false entry is the plugin's manifest; so is any entry whose
	// plugin has no plugin.json, which Claude Code allows.
	if !hasManifest(f.st.dir) {
		if err := supplyManifest(f.st.dir, entry.Raw); err != nil {
			f.st.discard()
			return nil, err
		}
		f.notes = append(f.notes, "its manifest is the marketplace entry (the plugin has no plugin.json)")
	} else if len(entry.Manifest) > 0 {
		f.notes = append(f.notes, "the marketplace entry says strict: false, but the plugin has a plugin.json: that one applies")
	}
	return f, nil
}

// narrow makes the folder rel of f's tree the package root: it must be a
// folder inside the tree after symlinks. Its symlinks that leave it for
// elsewhere in the repository become copies of their targets; then it is
// moved into a staging folder of its own and the rest of the tree is
// dropped.
func (m *Manager) narrow(f *fetched, rel string) error {
	if rel == "" || rel == "." {
		return nil
	}
	err := m.narrowTo(f, rel)
	if err != nil {
		f.st.discard()
	}
	return err
}

func (m *Manager) narrowTo(f *fetched, rel string) error {
	folder, err := m.pluginFolder(f, rel)
	if err != nil {
		return err
	}
	return m.moveToOwnStaging(f, folder)
}

// copyOut copies the folder rel of f's tree (all of it for "" or ".")
// into a staging folder of its own, made self-contained as narrow makes
// it, and leaves f as it was apart from that folder's outward symlinks,
// which are now copies of their targets.
func (m *Manager) copyOut(f *fetched, rel string) (*fetched, error) {
	folder := f.st.dir
	if rel != "" && rel != "." {
		var err error
		if folder, err = m.pluginFolder(f, rel); err != nil {
			return nil, err
		}
	}
	if info, err := os.Stat(folder); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", filepath.Base(folder))
	}
	st, err := m.store.newStaging()
	if err != nil {
		return nil, err
	}
	if err := copyTree(folder, st.dir); err != nil {
		st.discard()
		return nil, fmt.Errorf("stage the plugin folder: %w", err)
	}
	return &fetched{st: st, commit: f.commit, fetch: f.fetch}, nil
}

// pluginFolder checks that rel is a folder inside f's tree after
// symlinks and makes it self-contained; it returns its real path.
func (m *Manager) pluginFolder(f *fetched, rel string) (string, error) {
	root, err := filepath.EvalSymlinks(f.st.dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("the folder %s does not exist in the repository", rel)
	case err != nil:
		return "", err
	case !within(root, real):
		return "", fmt.Errorf("the folder %s resolves outside the repository", rel)
	}
	if err := m.materialise(f, root, real); err != nil {
		return "", err
	}
	return real, nil
}

// copyTree copies the folder src to dst, which must not exist: folders,
// regular files with their executable bit, and symlinks as links (after
// materialise the ones left stay inside the folder, or dangle).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(to, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil // the fetch writes nothing else
	})
}

func copyFile(src, dst string) error {
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm()&0o755|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// materialise copies in what the plugin folder's symlinks name elsewhere
// in the repository, as Claude Code does when it caches a plugin.
func (m *Manager) materialise(f *fetched, root, folder string) error {
	rel, err := filepath.Rel(root, folder)
	if err != nil {
		return err
	}
	return gitfetch.Materialise(root, filepath.ToSlash(rel), f.fetch, m.fetch...)
}

func (m *Manager) moveToOwnStaging(f *fetched, dir string) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("%s is not a folder", filepath.Base(dir))
	}
	st, err := m.store.newStaging()
	if err != nil {
		return err
	}
	if err := os.Rename(dir, st.dir); err != nil {
		st.discard()
		return fmt.Errorf("stage the plugin folder: %w", err)
	}
	f.st.discard()
	f.st = st
	return nil
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// supplyManifest writes a strict:false entry as the package's Claude
// manifest, the form manifest.Load validates like any other.
func supplyManifest(root string, entry json.RawMessage) error {
	dir := filepath.Join(root, ".claude-plugin")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "plugin.json"), entry, 0o600)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sourceRecord is the registry's plugin_source for f.
func sourceRecord(from marketplace.Source) string {
	if from.Kind == "" {
		return ""
	}
	b, _ := json.Marshal(from)
	return string(b)
}

// decodeSource reads a registry plugin_source; false for a plain plugin.
func decodeSource(record string) (marketplace.Source, bool) {
	var src marketplace.Source
	if record == "" || json.Unmarshal([]byte(record), &src) != nil {
		return marketplace.Source{}, false
	}
	return src, true
}

// movedRepository reports whether a marketplace entry now points to
// another repository than when the installed version was fetched.
func movedRepository(oldRecord string, now marketplace.Source) (string, bool) {
	old, ok := decodeSource(oldRecord)
	if !ok {
		return "", false
	}
	if old.Kind == now.Kind && old.URL == now.URL {
		return "", false
	}
	return fmt.Sprintf("the marketplace entry now points to %s (it was %s)", now, old), true
}
