package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions"
	"github.com/agentdesk/agentdesk/extensions/manifest"
	"github.com/agentdesk/agentdesk/extensions/project"
)

// extensionsPane is Preferences → Agent Extensions: an install row and one
// card per extension in installation order. Every operation runs off the
// UI goroutine and reports in place, on the install row or the card.
type extensionsPane struct {
	u *UI

	url        *widget.Entry
	ref        *widget.Entry
	urlHint    *widget.Label
	installBtn *widget.Button
	cancelBtn  *widget.Button
	phase      *secondaryLabel
	progress   *widget.ProgressBar
	installMsg *widget.Label
	catalog    *secondaryLabel // the catalog's size against the window's budget
	// checkShown: installMsg shows the update check's summary, which is
	// recounted from the cards on every render (an update or uninstall
	// since the check changes it).
	checkShown bool
	cancel     context.CancelFunc
	checkBtn   *widget.Button

	cards       *fyne.Container
	project     *project.Folder  // the open folder's own settings: the first card
	projectRuns []extensions.Run // and its hooks' newest runs
	// projectPending are its servers' tools withheld since they changed.
	projectPending []extensions.PendingTool
	infos          []extensions.Info
	here           string // the window's project when the cards were read: "Only this project"
	state          map[string]*cardState
	skills         map[string]string   // skill name → source that wins, for conflict markers
	fit            agent.CatalogFit    // the catalog's fit: each card's share of the budget
	onTrust        func(dialog.Dialog) // tests observe the trust dialog
	picker         dialog.Dialog       // the open marketplace picker, for tests

	// commandConflicts are the enabled extensions' command names that
	// only run namespaced, for conflict markers.
	commandConflicts []lifecycle.CommandConflict

	watching bool // watchMCP runs
}

// cardState is what a card shows besides the extension's Info.
type cardState struct {
	message string
	isError bool
	busy    bool
	open    bool
	// The last check for updates: its result, or why it failed.
	check    *extensions.UpdateCheck
	checkErr string
	// toolsOpen: the servers whose tool switches are unfolded.
	toolsOpen map[string]bool
}

func (st *cardState) openTools(server string, open bool) {
	if st.toolsOpen == nil {
		st.toolsOpen = map[string]bool{}
	}
	st.toolsOpen[server] = open
}

func newExtensionsPane(u *UI) *extensionsPane {
	return &extensionsPane{u: u, state: map[string]*cardState{}}
}

func (p *extensionsPane) buildUI() fyne.CanvasObject {
	p.url = &widget.Entry{PlaceHolder: "https://github.com/owner/plugin", OnChanged: p.onURLChanged, OnSubmitted: func(string) { p.onInstall() }}
	p.ref = &widget.Entry{PlaceHolder: "branch, tag or commit (optional)"}
	p.urlHint = &widget.Label{Importance: widget.DangerImportance, Wrapping: fyne.TextWrapWord}
	p.urlHint.Hide()
	p.installBtn = &widget.Button{Text: "Install", Icon: theme.DownloadIcon(), Importance: widget.HighImportance, OnTapped: p.onInstall}
	p.cancelBtn = &widget.Button{Text: "Cancel", OnTapped: p.onCancelInstall}
	p.cancelBtn.Hide()
	p.phase = newSecondaryLabel("", fyne.TextWrapOff)
	p.progress = &widget.ProgressBar{}
	p.progress.Hide()
	p.installMsg = &widget.Label{Wrapping: fyne.TextWrapWord}
	p.installMsg.Hide()
	inputs := container.NewBorder(nil, nil, nil, container.NewHBox(p.installBtn, p.cancelBtn),
		container.NewGridWithColumns(2, p.url, p.ref))
	intro := newSecondaryLabel("Install Claude Code or Codex plugins from an HTTPS git URL. Nothing runs at install: an extension stays disabled until you review and trust its hook commands.",
		fyne.TextWrapWord)
	p.catalog = newSecondaryLabel("", fyne.TextWrapWord)
	install := container.NewVBox(intro, inputs, p.urlHint, container.NewBorder(nil, nil, p.phase, nil, p.progress), p.installMsg, p.catalog)
	p.cards = container.NewVBox()
	title := widget.NewLabelWithStyle(sectionExtensions, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.checkBtn = &widget.Button{Text: "Check for updates", Icon: theme.ViewRefreshIcon(), Importance: widget.LowImportance, OnTapped: p.onCheckUpdates}
	header := container.NewBorder(nil, nil, title, p.checkBtn)
	return container.NewBorder(container.NewVBox(header, install, widget.NewSeparator()), nil, nil, nil, container.NewVScroll(p.cards))
}

func (p *extensionsPane) shown() {
	p.reload()
	p.watchMCP()
	p.window().Canvas().Focus(p.url) // ready for a pasted URL
}

// mcpSettle gathers the state changes of servers that start together
// into one reload of the cards.
const mcpSettle = 150 * time.Millisecond

// watchMCP keeps the cards current while MCP and language servers
// start, become ready, fail or stop (a prompt in the main window starts
// them), from the first time the pane is shown until the app closes.
func (p *extensionsPane) watchMCP() {
	if p.watching {
		return
	}
	p.watching = true
	if p.u.d.Running == nil {
		return // nothing runs servers here
	}
	var hosts []interface{ Changed() <-chan struct{} }
	if h := p.u.d.Running.MCP(); h != nil {
		hosts = append(hosts, h)
	}
	if h := p.u.d.Running.LSP(); h != nil {
		hosts = append(hosts, h)
	}
	if len(hosts) == 0 {
		return
	}
	ctx := p.u.ctx
	chans := func() (a, b <-chan struct{}) { // a nil channel never fires
		a = hosts[0].Changed()
		if len(hosts) > 1 {
			b = hosts[1].Changed()
		}
		return a, b
	}
	mcpCh, lspCh := chans()
	p.u.goWork(func() {
		for {
			select {
			case <-mcpCh:
			case <-lspCh:
			case <-ctx.Done():
				return
			}
			select {
			case <-time.After(mcpSettle):
			case <-ctx.Done():
				return
			}
			mcpCh, lspCh = chans() // before the reload reads, so no change falls between
			p.u.d.Do(p.reload)
		}
	})
}

func (p *extensionsPane) close() {
	if p.cancel != nil {
		p.cancel()
	}
}

// validateURL is the inline check: HTTPS only, with the reason.
func validateURL(raw string) error {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return errors.New("enter the HTTPS URL of a git repository")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		if strings.Contains(raw, "@") && strings.Contains(raw, ":") {
			return errors.New("SSH addresses are not supported: use the repository's https:// URL")
		}
		return errors.New("not a URL: use the repository's https:// address")
	}
	if u.Scheme != "https" {
		return fmt.Errorf("only https:// URLs are supported (not %s://): plain HTTP and local paths could be tampered with", u.Scheme)
	}
	if u.User != nil {
		return errors.New("remove the user name and password from the URL: private repositories are not supported yet")
	}
	return nil
}

func (p *extensionsPane) onURLChanged(s string) {
	if strings.TrimSpace(s) == "" {
		p.urlHint.Hide()
		return
	}
	if err := validateURL(s); err != nil {
		p.urlHint.SetText(err.Error())
		p.urlHint.Show()
		return
	}
	p.urlHint.Hide()
}

func (p *extensionsPane) onInstall() {
	if p.cancel != nil {
		return
	}
	raw, ref := strings.TrimSpace(p.url.Text), strings.TrimSpace(p.ref.Text)
	if err := validateURL(raw); err != nil {
		p.urlHint.SetText(err.Error())
		p.urlHint.Show()
		return
	}
	p.startInstall([]extensions.Source{{URL: raw, Ref: ref}})
}

// startInstall installs srcs one after the other off the UI goroutine,
// with progress and Cancel.
func (p *extensionsPane) startInstall(srcs []extensions.Source) {
	ctx, cancel := context.WithCancel(p.u.ctx)
	p.cancel = cancel
	p.setInstalling(true)
	p.showInstallMessage("", false)
	progress := func(pr extensions.Progress) { p.u.d.Do(func() { p.showProgress(pr) }) }
	p.u.goWork(func() {
		var done []extensions.Info
		var err error
		if srcs[0].Plugin == "" {
			var info extensions.Info
			if info, err = p.u.d.Extensions.InstallFrom(ctx, srcs[0], progress); err == nil {
				done = append(done, info)
			}
		} else {
			done, err = p.installPlugins(ctx, srcs, progress)
		}
		p.u.d.Do(func() { p.installed(done, srcs[0], err, ctx.Err() != nil) })
	})
}

// installPlugins installs the picked plugins of one marketplace from one
// download, counting them off in the progress line; the error names each
// plugin that could not be installed, and why.
func (p *extensionsPane) installPlugins(ctx context.Context, srcs []extensions.Source, progress func(extensions.Progress)) ([]extensions.Info, error) {
	names := make([]string, len(srcs))
	for i, src := range srcs {
		names[i] = src.Plugin
	}
	var ended int
	results, err := p.u.d.Extensions.InstallPlugins(ctx, srcs[0].URL, srcs[0].Ref, names, progress, func(r extensions.PluginResult) {
		ended++
		text := fmt.Sprintf("%d of %d plugins done (%s)", ended, len(names), safetext.Strip(r.Plugin))
		p.u.d.Do(func() {
			if p.cancel != nil {
				p.phase.SetText(text)
			}
		})
	})
	if err != nil {
		return nil, err
	}
	var done []extensions.Info
	var failed []string
	for _, r := range results {
		if r.Err != nil {
			failed = append(failed, r.Plugin+": "+r.Err.Error())
			continue
		}
		done = append(done, r.Info)
	}
	if len(failed) > 0 {
		return done, fmt.Errorf("%d could not be installed: %s", len(failed), strings.Join(failed, "; "))
	}
	return done, nil
}

func (p *extensionsPane) onCancelInstall() {
	if p.cancel != nil {
		p.cancel()
		p.phase.SetText("cancelling…")
	}
}

func (p *extensionsPane) setInstalling(on bool) {
	if on {
		p.installBtn.Disable()
		p.cancelBtn.Show()
		p.progress.SetValue(0)
		p.progress.Show()
		p.phase.SetText("connecting…")
		return
	}
	p.cancel = nil
	p.installBtn.Enable()
	p.cancelBtn.Hide()
	p.progress.Hide()
	p.phase.SetText("")
}

func (p *extensionsPane) showProgress(pr extensions.Progress) {
	if p.cancel == nil {
		return
	}
	text := string(pr.Phase)
	if pr.TotalObjects > 0 {
		p.progress.SetValue(float64(pr.Objects) / float64(pr.TotalObjects))
		text += fmt.Sprintf(" %d/%d objects", pr.Objects, pr.TotalObjects)
	}
	if pr.Bytes > 0 {
		text += fmt.Sprintf(", %s", byteSize(pr.Bytes))
	}
	p.phase.SetText(text)
}

func (p *extensionsPane) installed(done []extensions.Info, src extensions.Source, err error, cancelled bool) {
	p.setInstalling(false)
	var mkt *extensions.MarketplaceError
	for _, info := range done {
		p.state[info.ID] = &cardState{open: true}
	}
	switch {
	case cancelled && len(done) == 0:
		p.showInstallMessage("Install cancelled; nothing was installed.", false)
	case cancelled:
		p.showInstallMessage(installedText(done)+"The rest was cancelled.", false)
	case errors.As(err, &mkt):
		p.pickPlugins(mkt, src.Ref)
	case err != nil:
		p.showInstallMessage(installedText(done)+sentence(err), true)
	default:
		p.url.SetText("")
		p.ref.SetText("")
		p.showInstallMessage(installedText(done)+"Disabled until you review its hooks and enable it below.", false)
	}
	p.reload()
}

// installedText names what an install added, if anything.
func installedText(done []extensions.Info) string {
	var names []string
	for _, info := range done {
		info = info.ForDisplay()
		names = append(names, strings.TrimSpace(info.Name+" "+info.Version))
	}
	if len(names) == 0 {
		return ""
	}
	return "Installed " + strings.Join(names, ", ") + ". "
}

// checkOutcome is one extension's check for updates.
type checkOutcome struct {
	id    string
	check extensions.UpdateCheck
	err   error
}

// onCheckUpdates asks every extension's remote for a newer commit
// (reading refs only: nothing is installed) and marks the cards.
func (p *extensionsPane) onCheckUpdates() {
	var ids []string
	for _, info := range p.infos {
		ids = append(ids, info.ID)
	}
	if len(ids) == 0 {
		p.showInstallMessage("No extensions to check.", false)
		return
	}
	p.checkBtn.Disable()
	p.checkBtn.SetText("Checking…")
	background(p.u, func(ctx context.Context) ([]checkOutcome, error) {
		out := make([]checkOutcome, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids { // remotes are independent: ask them at once
			wg.Go(func() {
				c, err := p.u.d.Extensions.CheckUpdate(ctx, id)
				out[i] = checkOutcome{id, c, err}
			})
		}
		wg.Wait()
		return out, nil
	}, func(outcomes []checkOutcome, _ error) {
		p.checkBtn.Enable()
		p.checkBtn.SetText("Check for updates")
		for _, o := range outcomes {
			st := p.cardFor(o.id)
			st.check, st.checkErr = nil, ""
			if o.err != nil {
				st.checkErr = sentence(o.err)
				continue
			}
			st.check = &o.check
		}
		p.checkShown = true
		p.render()
	})
}

// showCheckSummary counts the updates still available and the checks
// that failed on the cards shown now.
func (p *extensionsPane) showCheckSummary() {
	checked, available, failed := 0, 0, 0
	for _, info := range p.infos {
		st := p.cardFor(info.ID)
		switch {
		case st.checkErr != "":
			checked++
			failed++
		case st.check != nil:
			checked++
			if st.check.Available {
				available++
			}
		}
	}
	if checked == 0 {
		p.showInstallMessage("", false)
		return
	}
	p.showInstallMessage(checkSummary(checked, available, failed), failed > 0)
	p.checkShown = true
}

func checkSummary(checked, available, failed int) string {
	var s string
	switch available {
	case 0:
		s = "No updates available."
	case 1:
		s = "1 update available: Update on its card installs it."
	default:
		s = fmt.Sprintf("%d updates available: Update on each card installs it.", available)
	}
	if failed > 0 {
		s += fmt.Sprintf(" %d of %d could not be checked (see the cards).", failed, checked)
	}
	return s
}

func (p *extensionsPane) showInstallMessage(text string, isError bool) {
	p.checkShown = false
	if text == "" {
		p.installMsg.Hide()
		return
	}
	p.installMsg.Importance = widget.MediumImportance
	if isError {
		p.installMsg.Importance = widget.DangerImportance
	}
	p.installMsg.SetText(text)
	p.installMsg.Show()
}

// paneData is what a reload reads in the background.
type paneData struct {
	project        *project.Folder // the open folder's own settings, when it has any
	projectRuns    []extensions.Run
	projectPending []extensions.PendingTool
	infos          []extensions.Info
	winners        map[string]string
	conflicts      []lifecycle.CommandConflict
	catalog        agent.CatalogFit // the catalog against the window's budget, and each extension's share
}

// reload re-reads the registry and redraws the cards.
func (p *extensionsPane) reload() {
	var project string
	if p.u.chat != nil {
		project = p.u.chat.project.Path
	}
	p.reloadFor(project)
}

// reloadFor reads the cards again for the window's project, given by the
// chat view as it opens a folder (u.chat is not set yet while it opens
// the first one).
func (p *extensionsPane) reloadFor(project string) {
	if p.cards == nil {
		return // not built yet: building it reads the cards
	}
	background(p.u, func(ctx context.Context) (paneData, error) {
		infos, err := p.u.d.Extensions.List(ctx)
		if err != nil {
			return paneData{}, err
		}
		for i := range infos {
			if full, err := p.u.d.Extensions.Show(ctx, infos[i].ID); err == nil {
				infos[i] = full
			}
			if p.u.d.Running != nil {
				p.u.d.Running.AddState(&infos[i])
			}
		}
		winners := map[string]string{}
		for _, s := range p.u.d.Agent.Catalog(project).Skills {
			winners[s.Name] = s.Source
		}
		d := paneData{infos: infos, winners: winners, conflicts: p.u.d.Agent.Commands().Conflicts, catalog: p.u.d.Agent.CatalogFit(project)}
		if f, ok := p.projectFolder(ctx, project); ok {
			d.project = &f
			d.projectRuns, _ = p.u.d.Extensions.ProjectHookRuns(ctx, f.Dir)
			d.projectPending, _ = p.u.d.Extensions.PendingTools(ctx, extensions.PinOwner(manifest.ProjectID, f.Dir))
		}
		return d, nil
	}, func(d paneData, err error) {
		if err != nil {
			p.showInstallMessage(sentence(err), true)
			return
		}
		p.project, p.projectRuns, p.projectPending, p.infos, p.skills, p.commandConflicts, p.fit = d.project, d.projectRuns, d.projectPending, d.infos, d.winners, d.conflicts, d.catalog
		p.here = project
		p.catalog.SetText("What the model is told: " + d.catalog.Text)
		for i := range p.infos {
			p.infos[i] = p.infos[i].ForDisplay()
		}
		p.render()
	})
}

func (p *extensionsPane) render() {
	p.cards.Objects = nil
	if p.project != nil {
		p.cards.Add(p.projectCard(*p.project))
	}
	if len(p.infos) == 0 {
		p.cards.Add(newSecondaryLabel("No extensions installed yet. Paste a plugin's git URL above, for example https://github.com/DietrichGebert/ponytail.",
			fyne.TextWrapWord))
	}
	for _, info := range p.infos {
		p.cards.Add(p.card(info))
	}
	p.cards.Refresh()
	if p.checkShown {
		p.showCheckSummary()
	}
}

func (p *extensionsPane) cardFor(id string) *cardState {
	s, ok := p.state[id]
	if !ok {
		s = &cardState{}
		p.state[id] = s
	}
	return s
}

// sentence words err for a label; it may quote a package or a server, so
// it is made safe first.
func sentence(err error) string {
	s := safetext.Strip(err.Error())
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
