package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// colorNameSecondary is the colour of text of lesser weight: hints,
// captions, the status bar. Fyne's LowImportance labels use the disabled
// colour for this, which reads at about 1.5:1; this one meets WCAG AA.
const colorNameSecondary fyne.ThemeColorName = "agentdesk-secondary"

// minContrast is WCAG AA's ratio for normal-size text.
const minContrast = 4.5

// appTheme is Fyne's default theme with the text colours changed so all
// text is at least minContrast against the backgrounds it is drawn on, in
// both variants. Fyne's own red, green, orange and blue fall below 4.5:1
// on white (and white on them), and the user's primary colour choice
// could undo any fix, so primary is fixed here too. Disabled colours stay
// Fyne's: WCAG exempts inactive controls, and they must look inactive.
//
// variant, when set, overrides the system's light or dark choice (View ›
// Appearance).
type appTheme struct {
	fyne.Theme
	variant *fyne.ThemeVariant
}

// NewTheme returns AgentDesk's theme following the system's variant (New
// sets it on the application, with the user's choice).
func NewTheme() fyne.Theme { return appTheme{Theme: theme.DefaultTheme()} }

var (
	lightColors = map[fyne.ThemeColorName]color.Color{
		theme.ColorNameForeground:          rgb(0x3d, 0x3d, 0x3d),
		theme.ColorNamePlaceHolder:         rgb(0x6a, 0x6a, 0x6a),
		colorNameSecondary:                 rgb(0x62, 0x62, 0x62),
		theme.ColorNamePrimary:             rgb(0x15, 0x65, 0xc0),
		theme.ColorNameHyperlink:           rgb(0x15, 0x65, 0xc0),
		theme.ColorNameForegroundOnPrimary: rgb(0xff, 0xff, 0xff),
		theme.ColorNameError:               rgb(0xc6, 0x28, 0x28),
		theme.ColorNameSuccess:             rgb(0x2b, 0x6e, 0x2f),
		theme.ColorNameWarning:             rgb(0xa3, 0x52, 0x00),
		theme.ColorNameSelection:           color.NRGBA{R: 0x15, G: 0x65, B: 0xc0, A: 0x40},
		theme.ColorNameFocus:               color.NRGBA{R: 0x15, G: 0x65, B: 0xc0, A: 0x60},
	}
	darkColors = map[fyne.ThemeColorName]color.Color{
		colorNameSecondary:                 rgb(0xab, 0xab, 0xab),
		theme.ColorNamePrimary:             rgb(0x64, 0xa8, 0xf0),
		theme.ColorNameHyperlink:           rgb(0x64, 0xa8, 0xf0),
		theme.ColorNameForegroundOnPrimary: rgb(0x17, 0x17, 0x18),
		theme.ColorNameError:               rgb(0xff, 0x6b, 0x6b),
		theme.ColorNameSelection:           color.NRGBA{R: 0x64, G: 0xa8, B: 0xf0, A: 0x40},
		theme.ColorNameFocus:               color.NRGBA{R: 0x64, G: 0xa8, B: 0xf0, A: 0x60},
	}
)

func rgb(r, g, b uint8) color.NRGBA { return color.NRGBA{R: r, G: g, B: b, A: 0xff} }

// Color implements fyne.Theme.
func (t appTheme) Color(name fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.variant != nil {
		v = *t.variant
	}
	colors := darkColors
	if v == theme.VariantLight {
		colors = lightColors
	}
	if c, ok := colors[name]; ok {
		return c
	}
	return t.Theme.Color(name, v)
}

// secondaryStyle is the RichText style of secondary text.
var secondaryStyle = widget.RichTextStyle{Inline: true, ColorName: colorNameSecondary}

// secondaryLabel is a label in the secondary colour. It keeps Label's
// Text/SetText so it can stand in for a LowImportance label.
type secondaryLabel struct {
	widget.RichText
	Text      string
	Alignment fyne.TextAlign
}

func newSecondaryLabel(text string, wrapping fyne.TextWrap) *secondaryLabel {
	l := &secondaryLabel{}
	l.Wrapping = wrapping
	l.Scroll = fyne.ScrollNone
	l.ExtendBaseWidget(l)
	l.SetText(text)
	return l
}

// SetText replaces the label's text.
func (l *secondaryLabel) SetText(text string) {
	l.Text = text
	style := secondaryStyle
	style.Alignment = l.Alignment
	l.Segments = []widget.RichTextSegment{&widget.TextSegment{Text: text, Style: style}}
	l.Refresh()
}
