package ui

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Window state kept between runs in the settings table. Fyne can neither
// read nor set a window's position, so the window manager places it.
const (
	settingWidth      = "ui.window.width"
	settingHeight     = "ui.window.height"
	settingSidebar    = "ui.sidebar.offset"
	settingAppearance = "ui.appearance" // "", "light" or "dark"
)

// defaultSidebarOffset is the sidebar's share of the window's width until
// the user moves the divider.
const defaultSidebarOffset = 0.22

// defaultWindowSize is the main window's size on first start.
var defaultWindowSize = fyne.NewSize(1100, 720)

// settingsWait bounds the reads and writes of window state: a local
// database, read once before the window shows and written once at close.
const settingsWait = 2 * time.Second

// windowState is what the main window remembers.
type windowState struct {
	size       fyne.Size
	sidebar    float64
	appearance string
	// notifications: desktop notifications are on (Preferences › Approvals).
	notifications bool
}

// loadWindowState reads the saved window state; missing or bad values
// give the defaults. It runs in New, before the window is shown.
func (u *UI) loadWindowState() windowState {
	ctx, cancel := context.WithTimeout(context.Background(), settingsWait)
	defer cancel()
	st := windowState{size: defaultWindowSize, sidebar: defaultSidebarOffset}
	read := func(key string) (float64, bool) {
		v, ok, err := u.d.Prefs.Setting(ctx, key)
		if err != nil || !ok {
			return 0, false
		}
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	w, okW := read(settingWidth)
	h, okH := read(settingHeight)
	if okW && okH && w >= 400 && h >= 300 {
		st.size = fyne.NewSize(float32(w), float32(h))
	}
	if s, ok := read(settingSidebar); ok && s > 0.05 && s < 0.8 {
		st.sidebar = s
	}
	st.appearance, _, _ = u.d.Prefs.Setting(ctx, settingAppearance)
	st.notifications = notificationsOn(ctx, u.d.Prefs)
	return st
}

// saveWindowState writes the window's size and the sidebar's width; it
// runs at close, when they are final.
func (u *UI) saveWindowState() {
	ctx, cancel := context.WithTimeout(context.Background(), settingsWait)
	defer cancel()
	size := u.main.Canvas().Size()
	kv := map[string]string{settingSidebar: strconv.FormatFloat(u.chat.split.Offset, 'f', 4, 64)}
	if size.Width > 0 && size.Height > 0 {
		kv[settingWidth] = strconv.FormatFloat(float64(size.Width), 'f', 0, 32)
		kv[settingHeight] = strconv.FormatFloat(float64(size.Height), 'f', 0, 32)
	}
	if err := u.d.Prefs.SetSettings(ctx, kv); err != nil {
		slog.Warn("ui: window state not saved", "err", err)
	}
}

// applyAppearance sets the theme for an appearance choice: "light",
// "dark", or anything else for the system's.
func (u *UI) applyAppearance(appearance string) {
	t := appTheme{Theme: theme.DefaultTheme()}
	switch appearance {
	case "light":
		v := theme.VariantLight
		t.variant = &v
	case "dark":
		v := theme.VariantDark
		t.variant = &v
	}
	u.d.App.Settings().SetTheme(t)
}

// setAppearance applies and saves an appearance choice.
func (u *UI) setAppearance(appearance string) {
	u.applyAppearance(appearance)
	u.chat.transcript.rerender() // rows cache panels filled with the old colours
	u.appearance = appearance
	u.main.SetMainMenu(u.mainMenu()) // the check marks move
	background(u, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, u.d.Prefs.SetSetting(ctx, settingAppearance, appearance)
	}, func(_ struct{}, err error) {
		if err != nil {
			u.chat.setNote("Appearance not saved: " + err.Error())
		}
	})
}
