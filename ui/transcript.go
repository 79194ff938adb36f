package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/agent"
	"github.com/agentdesk/agentdesk/agent/llm"
	"github.com/agentdesk/agentdesk/agent/safetext"
	"github.com/agentdesk/agentdesk/extensions/lsp"
	"github.com/agentdesk/agentdesk/ui/markdown"
)

// maxShownToolText bounds a tool result shown when expanded; the model
// got all of it.
const maxShownToolText = 16 << 10

// transcriptView is the virtualised list of a session's transcript. Only
// visible rows are built; each row's rendering is cached until its item
// changes, and row heights follow the rendered content at the list's
// width.
type transcriptView struct {
	c       *chatView
	session string
	items   []*item
	rounds  map[string]*item // child runs (Ralph rounds, delegated tasks) by child session
	live    *item            // the assistant message still streaming
	list    *widget.List
	hint    *secondaryLabel
	heights map[widget.ListItemID]float32
	width   float32
	owner   map[fyne.CanvasObject]*fyne.Container
	rowMin  float32 // the template row's height: the list's estimate for unmeasured rows
	// rendered is set once the list has built a row: before that it has
	// no scroller and cannot scroll, so endPending keeps the request.
	rendered, endPending bool
	// follow: new content scrolls into view (see following).
	// settleQueued: a scroll to the exact end waits for the current
	// layout pass to finish (see settle). autoOffset is where the view's
	// own scrolling left it: any other offset is the reader's doing.
	follow       bool
	settleQueued bool
	autoOffset   float32
	autoContent  float32 // the content height when autoOffset was taken
}

// item is one transcript row.
type item struct {
	entry  agent.Entry
	stream agent.Stream // for the live row
	open   map[int]bool // expanded parts
	child  []agent.Entry
	obj    fyne.CanvasObject
	md     *markdown.Stream // the live row's Markdown, kept across frames
}

func newTranscriptView(c *chatView) *transcriptView {
	t := &transcriptView{c: c, heights: map[widget.ListItemID]float32{}, owner: map[fyne.CanvasObject]*fyne.Container{}, follow: true}
	t.list = &widget.List{
		Length: t.length,
		// The template's height is the list's estimate for rows not yet
		// measured; a one-line label is a fair guess.
		CreateItem: func() fyne.CanvasObject { return container.NewStack(widget.NewLabel("")) },
		UpdateItem: t.update,
	}
	// As NewList does: without it a Resize that comes before the list's
	// first render is stored but never laid out, and the list shows no
	// rows until its size changes again.
	t.list.ExtendBaseWidget(t.list)
	t.hint = &secondaryLabel{Alignment: fyne.TextAlignCenter}
	t.hint.Wrapping, t.hint.Scroll = fyne.TextWrapWord, fyne.ScrollNone
	t.hint.ExtendBaseWidget(t.hint)
	t.rowMin = t.list.CreateItem().MinSize().Height
	return t
}

func (t *transcriptView) object() fyne.CanvasObject {
	hint := container.NewVBox(layout.NewSpacer(), container.NewPadded(t.hint), layout.NewSpacer())
	return container.New(&widthWatcher{onWidth: t.onWidth}, t.list, hint)
}

func (t *transcriptView) length() int {
	n := len(t.items)
	if t.live != nil {
		n++
	}
	return n
}

func (t *transcriptView) itemAt(id widget.ListItemID) *item {
	if id < len(t.items) {
		return t.items[id]
	}
	return t.live
}

// clear empties the transcript; noSession shows the first-prompt hint.
func (t *transcriptView) clear(noSession bool) {
	t.items, t.live, t.session = nil, nil, ""
	t.rounds = map[string]*item{}
	// The row boxes let go of the old transcript's renderings, and so does
	// owner: it kept every row ever shown, session after session.
	for _, box := range t.owner {
		box.Objects = nil
	}
	clear(t.owner)
	// t.heights stays: it mirrors the list's item heights, which the list
	// keeps (there is no way to clear them); rows are re-measured as they
	// show, and until then both use the same estimate.
	t.hint.SetText("")
	if noSession {
		t.hint.SetText("Ask anything about this project. The agent can read, search, edit and run commands here; edits and commands wait for your approval.")
	}
	t.list.Refresh()
	t.follow = true // an empty view is at its end
	t.mark()
}

func (t *transcriptView) setEntries(session string, entries []agent.Entry) {
	t.clear(false)
	t.session = session
	for _, e := range entries {
		t.addQuiet(e)
	}
	t.showHint()
	t.list.Refresh()
	t.scrollToBottom()
}

// following reports whether new content should scroll into view. The
// view follows until the reader scrolls up, by however little (a wheel
// notch is less than a streamed line, so a distance test alone would pull
// them back every frame), and again once they scroll down to the end.
//
// The offset also drops when content shrinks (a row re-measured smaller,
// a collapsed part) and the list clamps it: that is no reader's doing,
// and the view is then at its end anyway.
func (t *transcriptView) following() bool {
	off := t.list.GetScrollOffset()
	switch {
	case off == t.autoOffset: // nobody scrolled since the view did
	case off < t.autoOffset && t.contentHeight() >= t.autoContent:
		t.follow = false
		t.mark()
	case !t.settleQueued: // (while one is queued the heights are ahead of the offset: judge next time)
		t.follow = t.atBottom()
		t.mark()
	}
	return t.follow
}

// mark notes the offset (and content height) the view is at now, so a
// later change can be told to be the reader's.
func (t *transcriptView) mark() {
	t.autoOffset, t.autoContent = t.list.GetScrollOffset(), t.contentHeight()
}

// atBottom reports whether the reader is looking at the end of the
// transcript, within about a line, judged on the heights the list has
// now: following resumes when a reader scrolls back down to it.
func (t *transcriptView) atBottom() bool {
	view := t.list.Size().Height
	if view <= 0 {
		return true // not laid out yet
	}
	slack := theme.TextSize() * 2 // about a line: a near miss still counts as the end
	return t.list.GetScrollOffset()+view >= t.contentHeight()-slack
}

// contentHeight is the list's content height as the list computes it:
// measured rows at their height, the others at the template's, with the
// separator padding between rows.
func (t *transcriptView) contentHeight() float32 {
	n := t.length()
	if n == 0 {
		return 0
	}
	content := theme.Padding() * float32(n-1)
	for id := range n {
		if h, ok := t.heights[id]; ok {
			content += h
		} else {
			content += t.rowMin
		}
	}
	return content
}

func (t *transcriptView) showHint() {
	if len(t.items) == 0 {
		t.hint.SetText("Ask anything about this project. The agent can read, search, edit and run commands here; edits and commands wait for your approval.")
		t.hint.Show()
		return
	}
	t.hint.Hide()
}

// add appends a stored entry as it arrives from the bus.
func (t *transcriptView) add(e agent.Entry) {
	// The reader's own prompt always brings the end into view.
	follow := t.following() || (e.Role == llm.RoleUser && e.Session == t.session)
	if t.live != nil && e.Role == llm.RoleAssistant {
		t.live = nil
	}
	if !t.addQuiet(e) {
		return
	}
	t.showHint()
	t.list.Refresh()
	if follow {
		t.scrollToBottom()
	}
}

// addQuiet files an entry; false when it changed nothing visible.
func (t *transcriptView) addQuiet(e agent.Entry) bool {
	if e.Session != "" && t.session != "" && e.Session != t.session {
		return t.addChild(e)
	}
	if e.Host != nil && (e.Host.Kind == agent.HostRalph || e.Host.Kind == agent.HostAgent) && e.Host.Child != "" {
		if it, ok := t.rounds[e.Host.Child]; ok { // the child's status changed: update its row
			it.entry, it.obj = e, nil
			return true
		}
		it := &item{entry: e, open: map[int]bool{}}
		t.rounds[e.Host.Child] = it
		t.items = append(t.items, it)
		return true
	}
	t.items = append(t.items, &item{entry: e, open: map[int]bool{}})
	return true
}

// addChild files an entry of a child run under that child's row.
func (t *transcriptView) addChild(e agent.Entry) bool {
	it, ok := t.rounds[e.Session]
	if !ok {
		return false
	}
	it.child = append(it.child, e)
	it.obj = nil
	return true
}

// setStream shows the message being written (its completed blocks as
// Markdown, the open one as text; the stored entry replaces it at the end).
func (t *transcriptView) setStream(s agent.Stream) {
	if !s.Active {
		if t.live != nil {
			t.live = nil
			t.list.Refresh()
		}
		return
	}
	follow := t.following()
	if t.live == nil {
		t.live = &item{open: map[int]bool{}}
		t.hint.Hide()
	} else if t.live.stream.Version == s.Version {
		return
	}
	t.live.stream, t.live.obj = s, nil
	t.list.Refresh()
	if follow {
		t.scrollToBottom()
	}
}

// scrollToBottom brings the end of the newest row into view; before the
// list's first frame (when it cannot scroll yet) it asks update to.
func (t *transcriptView) scrollToBottom() {
	if !t.rendered {
		t.endPending = true
		return
	}
	// Not ScrollTo(last): for a last row taller than the view it scrolls
	// to the row's top, which flickers while an answer streams.
	t.list.ScrollToBottom()
	t.follow = true
	t.mark()
	t.settle()
}

// settle refreshes the list once the layout pass under way is over and,
// if the view is following, scrolls to the very end. Rows are measured
// during the pass, and List.SetItemHeight leaves the list's content size
// stale until its next Refresh: scrolling from inside the pass would stop
// short of the end, and without the Refresh the reader could not scroll
// to the last lines either.
func (t *transcriptView) settle() {
	if t.settleQueued {
		return
	}
	t.settleQueued = true
	t.c.u.d.Do(func() {
		t.settleQueued = false
		follow := t.following() // false if the reader scrolled up meanwhile: the view is theirs
		t.list.Refresh()
		if follow {
			t.list.ScrollToBottom()
		}
		t.mark()
	})
}

// onWidth re-measures rows when the window width changes: wrapped text
// changes height.
func (t *transcriptView) onWidth(w float32) {
	if w == t.width {
		return
	}
	follow := t.following()
	t.width = w
	t.list.Refresh() // visible rows re-measure at the new width; others when they show
	if follow {
		t.scrollToBottom()
	}
}

func (t *transcriptView) update(id widget.ListItemID, o fyne.CanvasObject) {
	it := t.itemAt(id)
	if it == nil {
		return
	}
	t.rendered = true
	if t.endPending { // a session opened before the first frame shows its end
		t.endPending = false
		defer t.scrollToBottom()
	}
	box := o.(*fyne.Container)
	if it.obj == nil {
		it.obj = t.render(id, it)
	}
	if len(box.Objects) != 1 || box.Objects[0] != it.obj {
		if prev := t.owner[it.obj]; prev != nil && prev != box {
			prev.Objects = nil // a recycled row must not keep showing this rendering
		}
		if len(box.Objects) == 1 && t.owner[box.Objects[0]] == box {
			delete(t.owner, box.Objects[0]) // replaced: the live row's every frame, a recycled row
		}
		t.owner[it.obj] = box
		box.Objects = []fyne.CanvasObject{it.obj}
		box.Refresh()
	}
	width := t.width - theme.Padding()*4
	if width <= 0 {
		width = it.obj.MinSize().Width
	}
	it.obj.Resize(fyne.NewSize(width, it.obj.MinSize().Height))
	if h := it.obj.MinSize().Height; t.heights[id] != h {
		t.following() // judged before this row's new height counts
		t.heights[id] = h
		t.list.SetItemHeight(id, h)
		t.settle() // and when following, a row that grew at the end stays in view
	}
}

// rerender drops every row's rendering, so rows are built again (after a
// theme change: bubbles and panels hold the colours they were built with).
func (t *transcriptView) rerender() {
	for _, it := range t.items {
		it.obj = nil
	}
	if t.live != nil {
		t.live.obj, t.live.md = nil, nil
	}
	t.list.Refresh()
}

// toggle expands or collapses part of a row.
func (t *transcriptView) toggle(id widget.ListItemID, it *item, part int) {
	it.open[part] = !it.open[part]
	it.obj = nil
	t.list.RefreshItem(id)
}

func (t *transcriptView) render(id widget.ListItemID, it *item) fyne.CanvasObject {
	if it == t.live {
		return t.renderLive(id, it)
	}
	switch it.entry.Role {
	case llm.RoleUser:
		return t.renderUser(id, it)
	case llm.RoleAssistant:
		return t.renderAssistant(id, it)
	case llm.RoleTool:
		return t.renderTool(id, it)
	}
	return t.renderHost(id, it)
}

func (t *transcriptView) renderUser(id widget.ListItemID, it *item) fyne.CanvasObject {
	box := container.NewVBox()
	var text strings.Builder
	for i, p := range it.entry.Parts {
		switch p.Kind {
		case llm.PartContext:
			box.Add(t.expander(id, it, i, theme.InfoIcon(), fmt.Sprintf("%s added context (%s)", p.Source, p.Event), p.Text))
		case llm.PartText:
			text.WriteString(p.Text)
		}
	}
	if typed := it.entry.Typed; typed != "" { // a slash command: what was typed, its expansion on demand
		box.Add(t.expander(id, it, len(it.entry.Parts), theme.InfoIcon(), "Sent to the model as the command's text", text.String()))
		box.Add(bubble(typed))
		return box
	}
	if text.Len() > 0 { // a Stop hook's note to the model has only context
		box.Add(t.userText(id, it, text.String()))
	}
	return box
}

// userText is a prompt's bubble; a right click offers Copy and Select
// text, which shows the prompt as selectable text until Done.
func (t *transcriptView) userText(id widget.ListItemID, it *item, text string) fyne.CanvasObject {
	if !it.open[selectPart] {
		return newContextMenuArea(bubble(text), fyne.NewMenu("",
			fyne.NewMenuItem("Copy", func() { t.copy(text) }),
			fyne.NewMenuItem("Select text", func() { t.toggle(id, it, selectPart) }),
		))
	}
	copyBtn := markdown.NewCopyButton("", func() string { return text }, t.copy, t.c.u.d.Do)
	return container.NewVBox(newSelectableText(text, copyBtn.ShowCopied),
		container.NewHBox(copyBtn, t.selectButton(id, it, true)))
}

// selectPart is the open-map key of a message shown as selectable text.
const selectPart = -1

func (t *transcriptView) renderAssistant(id widget.ListItemID, it *item) fyne.CanvasObject {
	box := container.NewVBox()
	text := it.entry.Message().Text()
	var copyBtn *markdown.CopyButton
	if strings.TrimSpace(text) != "" {
		copyBtn = markdown.NewCopyButton("", func() string { return text }, t.copy, t.c.u.d.Do)
	}
	selecting := it.open[selectPart] && copyBtn != nil
	var selectable fyne.CanvasObject // the whole text, where its first part was
	if selecting {
		selectable = newSelectableText(safetext.Strip(text), copyBtn.ShowCopied)
	}
	for i, p := range it.entry.Parts {
		switch p.Kind {
		case llm.PartReasoning:
			if p.Text == "" && p.Redacted != "" {
				box.Add(newSecondaryLabel("Thinking (encrypted by the provider, not shown)", fyne.TextWrapOff))
				continue
			}
			box.Add(t.expander(id, it, i, theme.QuestionIcon(), "Thinking", p.Text))
		case llm.PartText:
			switch {
			case !selecting:
				box.Add(markdown.Render(safetext.Strip(p.Text), t.markdownOptions()))
			case selectable != nil:
				box.Add(selectable)
				selectable = nil
			}
		case llm.PartToolCall:
			box.Add(t.toolCall(id, it, i, p))
		}
	}
	if copyBtn != nil {
		// The whole answer as Markdown, as chat apps offer under each
		// reply, and a switch to its text for selecting part of it.
		box.Add(container.NewHBox(copyBtn, t.selectButton(id, it, selecting)))
	}
	return box
}

// selectButton switches a message between its rendering and selectable
// text.
func (t *transcriptView) selectButton(id widget.ListItemID, it *item, selecting bool) *widget.Button {
	label, icon := "Select text", theme.VisibilityIcon()
	if selecting {
		label, icon = "Done selecting", theme.ConfirmIcon()
	}
	return &widget.Button{Text: label, Icon: icon, Importance: widget.LowImportance, OnTapped: func() { t.toggle(id, it, selectPart) }}
}

func (t *transcriptView) renderTool(id widget.ListItemID, it *item) fyne.CanvasObject {
	box := container.NewVBox()
	for i, p := range it.entry.Parts {
		icon, label := theme.ConfirmIcon(), "result of "+toolName(p.Name)+": "+firstLine(p.Text, 90)
		if p.IsError {
			icon = theme.ErrorIcon()
		}
		text := p.Text
		if len(text) > maxShownToolText {
			text = text[:maxShownToolText] + fmt.Sprintf("\n[… %d more bytes not shown …]", len(p.Text)-maxShownToolText)
		}
		box.Add(t.expander(id, it, i, icon, label, text))
		if row := diagnosticsRow(p.Text); row != nil {
			box.Add(row)
		}
	}
	return box
}

func countText(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// diagnosticsRow is the line under a write's tool row that says what the
// language server found in the change, the first problem named; nil when
// it found nothing.
func diagnosticsRow(result string) fyne.CanvasObject {
	server, errs, warns, first, ok := lsp.Summary(result)
	if !ok {
		return nil
	}
	var counts []string
	if errs > 0 {
		counts = append(counts, countText(errs, "error"))
	}
	if warns > 0 {
		counts = append(counts, countText(warns, "warning"))
	}
	importance := widget.WarningImportance
	if errs > 0 {
		importance = widget.DangerImportance
	}
	text := safetext.Strip(fmt.Sprintf("%s from %s: %s", strings.Join(counts, ", "), server, first))
	return &widget.Label{Text: "⚠ " + firstLine(text, 160), Importance: importance, Truncation: fyne.TextTruncateEllipsis}
}

func (t *transcriptView) renderLive(id widget.ListItemID, it *item) fyne.CanvasObject {
	box := container.NewVBox()
	if it.stream.Reasoning != "" {
		box.Add(t.expander(id, it, 0, theme.QuestionIcon(), fmt.Sprintf("Thinking… (%d characters)", len(it.stream.Reasoning)), it.stream.Reasoning))
	}
	if it.stream.Text != "" {
		if it.md == nil {
			it.md = markdown.NewStream(t.markdownOptions())
		}
		it.md.Update(safetext.Strip(it.stream.Text))
		box.Add(it.md.Object())
	}
	return box
}

func (t *transcriptView) renderHost(id widget.ListItemID, it *item) fyne.CanvasObject {
	if it.entry.Host == nil {
		return widget.NewLabel("")
	}
	safe := it.entry.Host.ForDisplay()
	h := &safe
	switch h.Kind {
	case agent.HostStatus:
		return chip(h.Label + ": " + h.Text)
	case agent.HostContext:
		return t.expander(id, it, 0, theme.InfoIcon(), fmt.Sprintf("%s added context (%s)", h.Source, h.Event), h.Text)
	case agent.HostNotice:
		return t.notice(h)
	case agent.HostError:
		return &widget.Label{Text: "⚠ " + h.Text, Wrapping: fyne.TextWrapWord, Importance: widget.DangerImportance}
	case agent.HostCompaction:
		return container.NewVBox(widget.NewSeparator(), newSecondaryLabel("⇣ "+h.Text, fyne.TextWrapWord), widget.NewSeparator())
	case agent.HostRalph:
		return t.renderRound(id, it)
	case agent.HostAgent:
		return t.renderAgent(id, it)
	case agent.HostTruncated:
		return t.truncated(h)
	}
	return newSecondaryLabel(h.Text, fyne.TextWrapWord)
}

// truncated marks an answer cut at the output limit, with a Continue
// button that asks the model to go on.
func (t *transcriptView) truncated(h *agent.Host) fyne.CanvasObject {
	label := &widget.Label{Text: "✂ " + h.Text, Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance}
	cont := &widget.Button{Text: "Continue", Icon: theme.MediaPlayIcon(), OnTapped: func() { t.c.onSend(continuePrompt) }}
	return container.NewBorder(nil, nil, nil, cont, label)
}

// continuePrompt is what Continue sends after a truncated answer.
const continuePrompt = "Continue exactly where your last answer was cut off."

func (t *transcriptView) notice(h *agent.Host) fyne.CanvasObject {
	label := &widget.Label{Text: "⚠ " + h.Text, Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance}
	if !h.Extension {
		return label
	}
	open := &widget.Button{Text: "Open Agent Extensions", Importance: widget.LowImportance, OnTapped: func() { t.c.u.ShowPreferences(sectionExtensions) }}
	return container.NewBorder(nil, nil, nil, open, label)
}

func (t *transcriptView) renderRound(id widget.ListItemID, it *item) fyne.CanvasObject {
	h := it.entry.Host
	title := fmt.Sprintf("Ralph round %d/%d — %s", h.Round, h.Rounds, h.Status)
	if h.Status == agent.RalphFailed {
		title += ": " + firstLine(h.Text, 80)
	}
	var lines []string
	for _, e := range it.child {
		lines = append(lines, childLine(e))
	}
	if len(it.child) == 0 && it.open[0] {
		t.loadRound(id, it, h.Child)
	}
	return t.expander(id, it, 0, theme.MediaReplayIcon(), title, strings.Join(lines, "\n"))
}

// loadRound reads a finished round's transcript when it is expanded.
func (t *transcriptView) loadRound(id widget.ListItemID, it *item, child string) {
	background(t.c.u, func(ctx context.Context) ([]agent.Entry, error) {
		return t.c.u.d.Agent.Transcript(ctx, child)
	}, func(entries []agent.Entry, err error) {
		if err != nil || len(entries) == 0 || len(it.child) > 0 {
			return
		}
		it.child, it.obj = entries, nil
		t.list.RefreshItem(id)
	})
}

func childLine(e agent.Entry) string {
	switch e.Role {
	case llm.RoleUser:
		return "› " + firstLine(e.Message().Text(), 120)
	case llm.RoleAssistant:
		var parts []string
		if text := e.Message().Text(); text != "" {
			parts = append(parts, firstLine(text, 120))
		}
		for _, c := range e.Message().ToolCalls() {
			parts = append(parts, "tool: "+describeCall(c))
		}
		return "  " + strings.Join(parts, " · ")
	case llm.RoleTool:
		return "    ↳ " + fmt.Sprintf("%d result(s)", len(e.Parts))
	}
	return ""
}

// toolCall is a call's row: an edit or write expands to its diff, as it
// was approved, other calls to their arguments.
func (t *transcriptView) toolCall(id widget.ListItemID, it *item, part int, p llm.Part) fyne.CanvasObject {
	// The model wrote the call: shown exactly, escapes made visible.
	title := "tool: " + safetext.Visible(describeCall(p))
	if diff := editDiff(p.Name, p.Args); diff != "" {
		return t.expanderOf(id, it, part, theme.DocumentCreateIcon(), title, func() fyne.CanvasObject { return diffBlock(safetext.Visible(diff)) })
	}
	return t.expander(id, it, part, theme.ComputerIcon(), title, safetext.Visible(prettyArgs(p.Args)))
}

// expander is a collapsed one-line row that shows its body when tapped.
// Title and body come from the model, tools, hooks or servers (thinking,
// results, context): made safe to show.
func (t *transcriptView) expander(id widget.ListItemID, it *item, part int, icon fyne.Resource, title, body string) fyne.CanvasObject {
	body = safetext.Strip(body)
	if body == "" {
		return t.expanderOf(id, it, part, icon, title, nil)
	}
	return t.expanderOf(id, it, part, icon, title, func() fyne.CanvasObject { return monoBlock(body) })
}

// expanderOf is an expander whose body is built when it is open; nil: no
// body.
func (t *transcriptView) expanderOf(id widget.ListItemID, it *item, part int, icon fyne.Resource, title string, body func() fyne.CanvasObject) fyne.CanvasObject {
	open := it.open[part]
	arrow := "▸ "
	if open {
		arrow = "▾ "
	}
	btn := &widget.Button{Text: arrow + safetext.Strip(title), Icon: icon, Alignment: widget.ButtonAlignLeading, Importance: widget.LowImportance,
		OnTapped: func() { t.toggle(id, it, part) }}
	if !open || body == nil {
		return btn
	}
	return container.NewVBox(btn, body())
}

// markdownOptions connects rendered messages to the window: clipboard,
// links, the do seam, and the transcript's scroller for vertical wheel
// movement over code blocks (which scroll sideways).
func (t *transcriptView) markdownOptions() markdown.Options {
	return markdown.Options{Copy: t.copy, OpenURL: t.c.u.d.OpenURL, Do: t.c.u.d.Do, ScrollOn: t.scrollBy}
}

// scrollBy scrolls the transcript by a wheel event's vertical movement.
func (t *transcriptView) scrollBy(ev *fyne.ScrollEvent) {
	t.list.ScrollToOffset(t.list.GetScrollOffset() - ev.Scrolled.DY)
}

func (t *transcriptView) copy(text string) {
	t.c.u.d.App.Clipboard().SetContent(text)
}

func describeCall(p llm.Part) string {
	arg := primaryArg(p.Args)
	if _, _, mcp := mcpToolName(p.Name); mcp && arg == "" {
		arg = firstStringArg(p.Args) // an MCP tool's arguments have no names AgentDesk knows
	}
	return strings.TrimSpace(toolName(p.Name) + " " + arg)
}

// toolName words a tool's name for a row: an MCP tool's as Claude Code
// shows it, its server then its tool ("probe_fix - echo (MCP)"), not the
// model's mcp__plugin_probe_fix__echo.
func toolName(name string) string {
	if server, tool, ok := mcpToolName(name); ok {
		return server + " - " + tool + " (MCP)"
	}
	return name
}

// mcpToolName splits mcp__<server>__<tool>, where <server> is
// plugin_<plugin>_<server> for a plugin's server.
func mcpToolName(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, "mcp__")
	if !found {
		return "", "", false
	}
	i := strings.LastIndex(rest, "__")
	if i <= 0 || i+2 == len(rest) {
		return "", "", false
	}
	return strings.TrimPrefix(rest[:i], "plugin_"), rest[i+2:], true
}
