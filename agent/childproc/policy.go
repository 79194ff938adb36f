package childproc

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/adrg/xdg"
)

// Sandbox is what a confined child may touch beyond reading the system.
// The zero value is the strictest: read and execute everything except the
// withheld folders, write only a private TMPDIR, the toolchain caches and
// the usual devices.
type Sandbox struct {
	// Unconfined runs the child with the user's full access. Only an
	// explicit choice of the user sets it: "Run unconfined" on one
	// command's approval, agentdesk run --unconfined, or an extension's
	// "Run unconfined…" (agentdesk ext sandbox ID off).
	Unconfined bool
	// Write are the folders (or files) the child may change: the project,
	// an extension's data folder. Withheld paths beneath them stay closed.
	Write []string
	// Read are folders or files it may read although they lie inside a
	// withheld folder: an extension's own version folder, the session's
	// transcript.
	Read []string
	// NoNetwork refuses TCP connect and bind (Landlock ABI 4 and later;
	// UDP, and so DNS, stays open).
	NoNetwork bool
}

// secretPaths are the user's credentials, relative to the home folder,
// that no child reads: the list of issue 31 and the obvious kin of its
// entries (more browsers, password stores, registry tokens).
var secretPaths = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube",
	".docker/config.json", ".netrc", ".git-credentials", ".config/gh",
	".local/share/keyrings", ".local/share/kwalletd", ".password-store", ".pki",
	".mozilla", ".thunderbird", ".librewolf",
	".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", ".config/vivaldi", ".config/op",
	".cargo/credentials", ".cargo/credentials.toml", ".pypirc", ".gem/credentials",
	".vault-token", ".pgpass", ".config/hub", ".terraform.d/credentials.tfrc.json",
}

// cachePaths are the home's toolchain caches a confined child may write.
var cachePaths = []string{".cache", "go/pkg/mod", ".npm", ".cargo/registry"}

// cacheVariables name caches the child's own environment points at; they
// are writable too unless they lie in a withheld folder.
var cacheVariables = []string{"GOCACHE", "GOMODCACHE", "XDG_CACHE_HOME", "npm_config_cache"}

// devices are what programs write to outside their folders.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/ptmx", "/dev/pts"}

// sharedMemory is where POSIX shared memory (Python's multiprocessing)
// lives.
const sharedMemory = "/dev/shm"

// policy is a Sandbox resolved for one start, as paths; the app turns it
// into the Landlock ruleset the re-exec enforces (policy.ruleset).
type policy struct {
	// Withheld paths are neither readable nor writable, unless Read or
	// Write name them or something inside them.
	Withheld []string
	// Read and Write are granted as such, minus withheld paths beneath
	// them.
	Read  []string
	Write []string
	// Devices may be written and take ioctls (terminals).
	Devices   []string
	NoNetwork bool
}

// grants are what the Landlock ruleset allows, path by path. List are
// the folders on the way to withheld paths: their entries may be listed
// (ls /, ls ~, and a sandbox nested in this one, which walks them too),
// which lists the names beneath as well, but no file in them is read.
type grants struct {
	Read, Write, Devices, List []string
}

// agentdeskPaths are AgentDesk's own data, state and cache folders,
// decided as storage.ResolvePaths decides them: both the AGENTDESK_HOME
// folder and the XDG ones, whichever this process uses.
func agentdeskPaths() []string {
	paths := []string{filepath.Join(xdg.DataHome, "agentdesk"), filepath.Join(xdg.StateHome, "agentdesk"),
		filepath.Join(xdg.CacheHome, "agentdesk"), filepath.Join(xdg.ConfigHome, "agentdesk")}
	if home := os.Getenv("AGENTDESK_HOME"); home != "" {
		paths = append(paths, filepath.Clean(home))
	}
	return paths
}

// newPolicy resolves s for a child whose private temporary folder is tmp
// and whose environment is env, for the user whose home is home, with
// own being AgentDesk's folders.
func newPolicy(s Sandbox, home, tmp string, own, env []string) policy {
	p := policy{Read: clean(s.Read), NoNetwork: s.NoNetwork, Devices: devices}
	for _, rel := range secretPaths {
		p.Withheld = append(p.Withheld, filepath.Join(home, rel))
	}
	p.Withheld = append(p.Withheld, clean(own)...)
	p.Write = append(clean(s.Write), tmp, sharedMemory)
	caches := make([]string, 0, len(cachePaths)+len(cacheVariables))
	for _, rel := range cachePaths {
		caches = append(caches, filepath.Join(home, rel))
	}
	for _, name := range cacheVariables {
		if v := envValue(env, name); filepath.IsAbs(v) {
			caches = append(caches, v)
		}
	}
	for _, c := range clean(caches) {
		// A cache is a default, never a reason to open a withheld folder.
		if !beneathAny(c, p.Withheld) && !slices.Contains(p.Write, c) {
			p.Write = append(p.Write, c)
		}
	}
	return p
}

// grants turns p into paths. Landlock only allows, so "everything but the
// withheld paths" is built by walking from / down to each withheld path
// and allowing every sibling on the way; whatever appears in those
// folders after the walk stays closed.
func (p policy) grants() grants {
	withheld, read, list := walkRoot(p.Withheld)
	g := grants{Devices: p.Devices, Read: read, List: list}
	for _, r := range p.Read {
		g.Read = append(g.Read, allBut(r, withheld, &g.List)...)
	}
	for _, w := range p.Write {
		g.Write = append(g.Write, allBut(w, withheld, &g.List)...)
	}
	return g
}

// rootWalk keeps the last walk from / (the same for every child of one
// withheld list) while none of the folders it walked through changed:
// an entry added, removed or renamed in one changes its modification
// time, and the walk is done again.
var rootWalk struct {
	mu         sync.Mutex
	key        string
	withheld   []string // resolved
	read, list []string
	stamps     []time.Time // of list
}

// walkRoot is the withheld paths resolved and the grants of / without
// them, from rootWalk when it still holds. The slices are the caller's.
func walkRoot(paths []string) (withheld, read, list []string) {
	key := strings.Join(paths, "\x00")
	w := &rootWalk
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.key != key || !unchanged(w.list, w.stamps) {
		w.withheld = resolved(paths)
		w.list = nil
		w.read = allBut("/", w.withheld, &w.list)
		w.key, w.stamps = key, stamps(w.list)
	}
	return slices.Clone(w.withheld), slices.Clone(w.read), slices.Clone(w.list)
}

func stamps(dirs []string) []time.Time {
	out := make([]time.Time, len(dirs))
	for i, d := range dirs {
		if info, err := os.Lstat(d); err == nil {
			out[i] = info.ModTime()
		}
	}
	return out
}

func unchanged(dirs []string, was []time.Time) bool {
	return slices.EqualFunc(stamps(dirs), was, time.Time.Equal)
}

// allBut returns paths that together cover root except the withheld
// paths strictly beneath it. root itself may lie in a withheld folder:
// it was named on purpose. The folders it walks through go to list.
func allBut(root string, withheld []string, list *[]string) []string {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		// Missing: nothing to grant. Landlock rules attach to what exists.
		return nil
	}
	var inside []string
	for _, w := range withheld {
		if strictlyBeneath(w, real) {
			inside = append(inside, w)
		}
	}
	if len(inside) == 0 {
		return []string{real}
	}
	return walk(real, inside, list)
}

// walk lists dir's entries that hold no withheld path, and descends into
// those that do. A symbolic link is granted only if its target holds no
// withheld path and lies in none: Landlock would follow it.
func walk(dir string, withheld []string, list *[]string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	*list = append(*list, dir)
	var out []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case slices.Contains(withheld, path):
		case e.Type()&fs.ModeSymlink != 0:
			if target, err := filepath.EvalSymlinks(path); err == nil && !touches(target, withheld) {
				out = append(out, path)
			}
		case holdsAny(path, withheld):
			if e.IsDir() {
				out = append(out, walk(path, withheld, list)...)
			}
		default:
			out = append(out, path)
		}
	}
	return out
}

// resolved is paths and, for those whose folders go through symbolic
// links, their real locations too, which is what a walk of real folders
// meets.
func resolved(paths []string) []string {
	out := clean(paths)
	for _, p := range paths {
		if real, err := realPrefix(p); err == nil && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// realPrefix resolves the longest existing prefix of path, so a withheld
// path that does not exist yet still has its real location.
func realPrefix(path string) (string, error) {
	path = filepath.Clean(path)
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(path)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		parent := filepath.Dir(path)
		if parent == path {
			return "", err
		}
		rest = append([]string{filepath.Base(path)}, rest...)
		path = parent
	}
}

func touches(path string, withheld []string) bool {
	return beneathAny(path, withheld) || holdsAny(path, withheld)
}

// beneathAny reports whether path is one of roots or lies inside one.
func beneathAny(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || strictlyBeneath(path, r) {
			return true
		}
	}
	return false
}

// holdsAny reports whether one of paths lies strictly inside dir.
func holdsAny(dir string, paths []string) bool {
	for _, p := range paths {
		if strictlyBeneath(p, dir) {
			return true
		}
	}
	return false
}

func strictlyBeneath(path, dir string) bool {
	if dir == string(filepath.Separator) {
		return path != dir && filepath.IsAbs(path)
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

func clean(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != "" {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// denialMarkers are how programs word EACCES and EPERM.
var denialMarkers = []string{"Permission denied", "Operation not permitted", "EACCES", "EPERM"}

// DenialNote explains a confined child's failure to reach a path the
// sandbox withholds, given its output, or returns "" when no line of it
// reports a denied withheld path.
func DenialNote(output string) string {
	home, _ := os.UserHomeDir()
	for _, line := range strings.Split(output, "\n") {
		if !slices.ContainsFunc(denialMarkers, func(m string) bool { return strings.Contains(line, m) }) {
			continue
		}
		if name := withheldIn(line, home); name != "" {
			return "the sandbox kept " + name + " from this command; allow it in Preferences → Advanced or approve it to run unconfined"
		}
		if home != "" && (strings.Contains(line, home+"/") || strings.Contains(line, "~/")) {
			return "the sandbox lets a command write only the project, its TMPDIR and the toolchain caches, not the rest of the home folder; approve it to run unconfined if it must"
		}
	}
	return ""
}

// withheldIn names the withheld path line mentions, as the user knows it.
func withheldIn(line, home string) string {
	for _, rel := range secretPaths {
		if (home != "" && strings.Contains(line, filepath.Join(home, rel))) || strings.Contains(line, "~/"+rel) {
			return "~/" + rel
		}
	}
	for _, own := range agentdeskPaths() {
		if strings.Contains(line, own) {
			return "AgentDesk's own data (" + own + ")"
		}
	}
	return ""
}

// Withholds reports whether dir (clean and absolute) is, holds or lies
// inside a folder no child may read: the user's credentials under home
// and AgentDesk's own data. A project's additionalDirectories naming one
// are not opened to the file tools either.
func Withholds(dir, home string) bool {
	withheld := make([]string, 0, len(secretPaths)+4)
	for _, rel := range secretPaths {
		withheld = append(withheld, filepath.Join(home, rel))
	}
	withheld = append(withheld, agentdeskPaths()...)
	return touches(filepath.Clean(dir), withheld)
}
