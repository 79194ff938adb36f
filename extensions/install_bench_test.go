//go:build unix

package extensions_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/extensions/gittest"
)

// benchBinaryEnv names the agentdesk binary BenchmarkInstallProcess5MB
// runs; packaging/bench.sh builds it.
const benchBinaryEnv = "AGENTDESK_BENCH_BIN"

const (
	benchFiles    = 500
	benchFileSize = 10 << 10 // 500 x 10 KiB ~ 5 MiB, as gitfetch's BenchmarkFetch5MB
)

// benchPluginFiles is a valid plugin carrying benchFiles files of random
// (incompressible) bytes spread over 25 directories.
func benchPluginFiles() map[string]gittest.File {
	rng := rand.New(rand.NewChaCha8([32]byte{1}))
	files := map[string]gittest.File{
		".codex-plugin/plugin.json": {Body: `{"name":"bench-5mb","version":"1.0.0","description":"5 MB benchmark plugin"}`},
	}
	for i := range benchFiles {
		body := make([]byte, benchFileSize)
		for j := range body {
			body[j] = byte(rng.Uint32())
		}
		files[fmt.Sprintf("pkg%02d/file%03d.bin", i%25, i)] = gittest.File{Body: string(body), Mode: 0o644}
	}
	return files
}

// BenchmarkInstallProcess5MB times `agentdesk ext install` as a whole
// process (start, database, fetch, validate, store, registry) for a
// 5 MB / 500-file plugin over loopback HTTPS, each op into a fresh
// AGENTDESK_HOME, alternately with `git clone --depth 1` of the same
// repository. ns/op covers both runs. With GNU time installed, one extra
// run of each before the timed ones reports its peak resident set (git's
// includes the helpers it waits for).
func BenchmarkInstallProcess5MB(b *testing.B) {
	bin := os.Getenv(benchBinaryEnv)
	if bin == "" {
		b.Skipf("set %s to an agentdesk binary (packaging/bench.sh builds one)", benchBinaryEnv)
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		b.Skipf("git binary not found: %v", err)
	}
	install, clone := installAndClone(b, bin, gitPath)
	gnuTime := findGNUTime()
	var installRSS, cloneRSS int64
	if gnuTime != "" {
		installRSS, cloneRSS = install.peakRSS(gnuTime), clone.peakRSS(gnuTime)
	}
	var p gittest.Paired
	for b.Loop() {
		p.Run(install.run, clone.run)
	}
	p.Report(b, "install", "clone")
	if gnuTime != "" {
		b.ReportMetric(float64(installRSS)/(1<<20), "install-maxrss-MiB")
		b.ReportMetric(float64(cloneRSS)/(1<<20), "clone-maxrss-MiB")
	}
}

// installAndClone serves the benchmark plugin and returns the two
// contenders: `agentdesk ext install` into a fresh AGENTDESK_HOME and
// `git clone --depth 1`, both trusting only the server's CA.
func installAndClone(b *testing.B, bin, gitPath string) (install, clone *process) {
	b.Helper()
	repo := gittest.NewRepo(b)
	repo.Commit(b, "main", "bench", benchPluginFiles())
	repo.SetHEAD(b, "main")
	srv := gittest.Serve(b, map[string]*gittest.Repo{"bench": repo})
	url := srv.URL + "/bench.git"
	path := "PATH=" + os.Getenv("PATH")
	install = &process{b: b, dir: b.TempDir(), argv: func(dir string) ([]string, []string) {
		return []string{bin, "ext", "install", url},
			[]string{"AGENTDESK_HOME=" + dir, "HOME=" + dir, "SSL_CERT_FILE=" + srv.CAFile, path}
	}}
	clone = &process{b: b, dir: b.TempDir(), argv: func(dir string) ([]string, []string) {
		return []string{gitPath, "clone", "--quiet", "--depth", "1", url, filepath.Join(dir, "clone")},
			[]string{"HOME=" + dir, "GIT_SSL_CAINFO=" + srv.CAFile, "GIT_CONFIG_NOSYSTEM=1",
				"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_TERMINAL_PROMPT=0", path}
	}}
	return install, clone
}

// process runs a command in a fresh folder under dir each time.
type process struct {
	b    *testing.B
	dir  string
	argv func(dir string) (argv, env []string)
	runs int
}

func (p *process) command(wrapper ...string) *exec.Cmd {
	p.runs++
	argv, env := p.argv(filepath.Join(p.dir, strconv.Itoa(p.runs)))
	argv = append(wrapper, argv...)
	cmd := exec.CommandContext(p.b.Context(), argv[0], argv[1:]...)
	cmd.Env = env
	return cmd
}

func (p *process) run() time.Duration {
	return p.runCmd(p.command())
}

func (p *process) runCmd(cmd *exec.Cmd) time.Duration {
	began := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(began)
	if err != nil {
		p.b.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	return took
}

// peakRSS runs the command once under GNU time and returns the largest
// resident set it saw, in bytes. The child's own rusage would not do: Go
// starts children sharing its memory until they exec, so their maxrss
// never reads below this test process's.
func (p *process) peakRSS(gnuTime string) int64 {
	report := filepath.Join(p.b.TempDir(), "rss")
	p.runCmd(p.command(gnuTime, "-f", "%M", "-o", report))
	body, err := os.ReadFile(report)
	if err != nil {
		p.b.Fatal(err)
	}
	kib, err := strconv.ParseInt(strings.TrimSpace(string(body)), 10, 64)
	if err != nil {
		p.b.Fatalf("GNU time report %q: %v", body, err)
	}
	return kib << 10
}

// findGNUTime returns the path of GNU time (Debian's "time" package), or
// "" when there is none; other time programs cannot report memory.
func findGNUTime() string {
	path, err := exec.LookPath("time")
	if err != nil {
		return ""
	}
	if out, err := exec.Command(path, "--version").CombinedOutput(); err != nil || !strings.Contains(string(out), "GNU") {
		return ""
	}
	return path
}

// benchMarketPlugins is how many plugins wshobson/agents lets one install.
const benchMarketPlugins = 91

// benchMarketFiles is a marketplace of benchMarketPlugins plugins, each a
// folder of 15 files of 10 KiB random bytes (about 14 MB in all, the size
// of wshobson/agents) holding a skill and an agent.
func benchMarketFiles() (map[string]gittest.File, []string) {
	rng := rand.New(rand.NewChaCha8([32]byte{2}))
	files := map[string]gittest.File{}
	var entries, names []string
	for i := range benchMarketPlugins {
		name := fmt.Sprintf("p%03d", i)
		names = append(names, name)
		entries = append(entries, fmt.Sprintf(`{"name":%q,"description":"Plugin %d","source":"./plugins/%s"}`, name, i, name))
		dir := "plugins/" + name + "/"
		files[dir+".claude-plugin/plugin.json"] = gittest.File{Body: fmt.Sprintf(`{"name":%q,"version":"1.0.0"}`, name)}
		files[dir+"skills/s"+name+"/SKILL.md"] = gittest.File{Body: "---\nname: s" + name + "\ndescription: d\n---\nbody\n"}
		files[dir+"agents/a"+name+".md"] = gittest.File{Body: "---\nname: a" + name + "\ndescription: d\n---\nbody\n"}
		for j := range 15 {
			body := make([]byte, 10<<10)
			for k := range body {
				body[k] = byte(rng.Uint32())
			}
			files[fmt.Sprintf("%sskills/s%s/data%02d.bin", dir, name, j)] = gittest.File{Body: string(body)}
		}
	}
	files[".claude-plugin/marketplace.json"] = gittest.File{Body: `{"name":"bench","owner":{"name":"b"},"plugins":[` + strings.Join(entries, ",") + `]}`}
	return files, names
}

// BenchmarkInstallMarketplaceProcess times one `agentdesk ext install URL
// --plugin …` of all 91 plugins of a 14 MB marketplace, as a process into
// a fresh AGENTDESK_HOME, alternately with `git clone --depth 1` of the
// same repository. goal-ratio is the install's median over its goal, 1.5×
// the clone plus 20 ms per plugin (≤ 1 meets it).
func BenchmarkInstallMarketplaceProcess(b *testing.B) {
	bin := os.Getenv(benchBinaryEnv)
	if bin == "" {
		b.Skipf("set %s to an agentdesk binary (packaging/bench.sh builds one)", benchBinaryEnv)
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		b.Skipf("git binary not found: %v", err)
	}
	files, names := benchMarketFiles()
	repo := gittest.NewRepo(b)
	repo.Commit(b, "main", "bench", files)
	repo.SetHEAD(b, "main")
	srv := gittest.Serve(b, map[string]*gittest.Repo{"market": repo})
	url := srv.URL + "/market.git"
	path := "PATH=" + os.Getenv("PATH")
	argv := []string{bin, "ext", "install", url}
	for _, n := range names {
		argv = append(argv, "--plugin", n)
	}
	install := &process{b: b, dir: b.TempDir(), argv: func(dir string) ([]string, []string) {
		return argv, []string{"AGENTDESK_HOME=" + dir, "HOME=" + dir, "SSL_CERT_FILE=" + srv.CAFile, path}
	}}
	clone := &process{b: b, dir: b.TempDir(), argv: func(dir string) ([]string, []string) {
		return []string{gitPath, "clone", "--quiet", "--depth", "1", url, filepath.Join(dir, "clone")},
			[]string{"HOME=" + dir, "GIT_SSL_CAINFO=" + srv.CAFile, "GIT_CONFIG_NOSYSTEM=1",
				"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_TERMINAL_PROMPT=0", path}
	}}
	var p gittest.Paired
	var installs, clones []time.Duration
	for b.Loop() {
		p.Run(func() time.Duration { d := install.run(); installs = append(installs, d); return d },
			func() time.Duration { d := clone.run(); clones = append(clones, d); return d })
	}
	p.Report(b, "install", "clone")
	goal := 1.5*float64(medianOf(clones)) + float64(benchMarketPlugins*20*time.Millisecond)
	b.ReportMetric(goal/float64(time.Millisecond), "goal-ms")
	b.ReportMetric(float64(medianOf(installs))/goal, "goal-ratio")
}

func medianOf(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	slices.Sort(s)
	return s[len(s)/2]
}
