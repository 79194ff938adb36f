package ui

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// textOn lists every colour AgentDesk draws text in with the surfaces it
// is drawn on. Translucent surfaces (hover, selection) are composited over
// the window background, as the renderer does.
var textOn = map[fyne.ThemeColorName][]fyne.ThemeColorName{
	theme.ColorNameForeground: {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameButton,
		theme.ColorNameMenuBackground, theme.ColorNameOverlayBackground, theme.ColorNameHeaderBackground,
		theme.ColorNameHover, theme.ColorNameSelection},
	colorNameSecondary:                 {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground},
	theme.ColorNamePlaceHolder:         {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground},
	theme.ColorNamePrimary:             {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground},
	theme.ColorNameHyperlink:           {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground},
	theme.ColorNameError:               {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground},
	theme.ColorNameSuccess:             {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground},
	theme.ColorNameWarning:             {theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground},
	theme.ColorNameForegroundOnPrimary: {theme.ColorNamePrimary},
	theme.ColorNameForegroundOnError:   {theme.ColorNameError},
	theme.ColorNameForegroundOnSuccess: {theme.ColorNameSuccess},
	theme.ColorNameForegroundOnWarning: {theme.ColorNameWarning},
}

func TestThemeContrast(t *testing.T) {
	th := NewTheme()
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		base := th.Color(theme.ColorNameBackground, v)
		for fg, bgs := range textOn {
			for _, bg := range bgs {
				c := contrast(th.Color(fg, v), over(th.Color(bg, v), base))
				if c < minContrast {
					t.Errorf("variant %d: %s on %s is %.2f:1, want ≥ %.1f:1", v, fg, bg, c, minContrast)
				}
			}
		}
	}
}

// TestBadgeContrast checks the extension status badges, whose fills are
// not surfaces textOn lists for every colour.
func TestBadgeContrast(t *testing.T) {
	th := NewTheme()
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for status, colors := range badgeColors {
			if c := contrast(th.Color(colors[1], v), th.Color(colors[0], v)); c < minContrast {
				t.Errorf("variant %d: the %s badge is %.2f:1", v, status, c)
			}
		}
	}
	if len(badgeColors) != len(statusText) {
		t.Errorf("%d badge colour pairs for %d statuses", len(badgeColors), len(statusText))
	}
}

// TestSecondaryTextIsNotDisabled: secondary text has its own colour, not
// the disabled one a LowImportance label would use.
func TestSecondaryTextIsNotDisabled(t *testing.T) {
	test.NewTempApp(t)
	l := newSecondaryLabel("hint", fyne.TextWrapWord)
	if got := l.Segments[0].(*widget.TextSegment).Style.ColorName; got != colorNameSecondary {
		t.Fatalf("secondary label colour = %q", got)
	}
	th := NewTheme()
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		if th.Color(colorNameSecondary, v) == th.Color(theme.ColorNameDisabled, v) {
			t.Errorf("variant %d: secondary text uses the disabled colour", v)
		}
	}
}

func TestContrastFormula(t *testing.T) {
	black, white := color.NRGBA{A: 0xff}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	if c := contrast(black, white); math.Abs(c-21) > 0.01 {
		t.Errorf("black on white = %.2f, want 21", c)
	}
	// Fyne's own disabled grey on its dark background: the 1.5:1.
	if c := contrast(color.NRGBA{R: 0x39, G: 0x39, B: 0x3a, A: 0xff}, color.NRGBA{R: 0x17, G: 0x17, B: 0x18, A: 0xff}); c > 1.7 || c < 1.3 {
		t.Errorf("Fyne's dark disabled = %.2f, want about 1.5", c)
	}
}

// contrast is WCAG 2's contrast ratio of two opaque colours.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c color.Color) float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(n.R) + 0.7152*lin(n.G) + 0.0722*lin(n.B)
}

// over composites c on an opaque base.
func over(c, base color.Color) color.Color {
	f := color.NRGBAModel.Convert(c).(color.NRGBA)
	b := color.NRGBAModel.Convert(base).(color.NRGBA)
	a := float64(f.A) / 255
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*a + float64(y)*(1-a))) }
	return color.NRGBA{R: mix(f.R, b.R), G: mix(f.G, b.G), B: mix(f.B, b.B), A: 0xff}
}
