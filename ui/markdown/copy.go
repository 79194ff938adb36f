package markdown

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CopiedFor is how long a copy button says "Copied" after a tap.
var CopiedFor = 1500 * time.Millisecond

// copiedText is what a copy button says after a tap.
const copiedText = "Copied"

// CopyButton is a copy button (icon, and label when not empty) that hands
// its text to a copy function when tapped and then says "Copied" for
// CopiedFor.
type CopyButton struct {
	widget.Button
	label  string
	do     func(func())
	revert *time.Timer
}

// NewCopyButton returns a copy button that copies text() with copyText.
// do runs the change back on the UI goroutine (nil: fyne.Do).
func NewCopyButton(label string, text func() string, copyText func(string), do func(func())) *CopyButton {
	if do == nil {
		do = fyne.Do
	}
	b := &CopyButton{label: label, do: do}
	b.Text, b.Icon, b.Importance = label, theme.ContentCopyIcon(), widget.LowImportance
	b.OnTapped = func() {
		copyText(text())
		b.ShowCopied()
	}
	b.ExtendBaseWidget(b)
	return b
}

// ShowCopied says "Copied" for CopiedFor: after a tap, or after a copy
// made another way (a keyboard shortcut in selected text).
func (b *CopyButton) ShowCopied() {
	b.SetText(copiedText)
	b.SetIcon(theme.ConfirmIcon())
	if b.revert != nil {
		b.revert.Stop()
	}
	b.revert = time.AfterFunc(CopiedFor, func() {
		b.do(func() {
			b.SetText(b.label)
			b.SetIcon(theme.ContentCopyIcon())
		})
	})
}

// codeScroll scrolls a code block sideways. Fyne gives a wheel event to
// the innermost scroller under the pointer and never passes it on, so a
// plain horizontal scroller would stall the transcript's vertical
// scrolling whenever the pointer crossed a code block: mostly vertical
// wheel movement goes to scrollOn (the transcript) instead.
type codeScroll struct {
	*container.Scroll
	scrollOn func(*fyne.ScrollEvent)
}

func newCodeScroll(content fyne.CanvasObject, scrollOn func(*fyne.ScrollEvent)) *codeScroll {
	s := &codeScroll{Scroll: &container.Scroll{Direction: container.ScrollHorizontalOnly, Content: content}, scrollOn: scrollOn}
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled implements fyne.Scrollable.
func (s *codeScroll) Scrolled(ev *fyne.ScrollEvent) {
	if abs(ev.Scrolled.DY) > abs(ev.Scrolled.DX) {
		if s.scrollOn != nil {
			s.scrollOn(ev)
		}
		return
	}
	s.Scroll.Scrolled(ev)
}

func abs(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}
