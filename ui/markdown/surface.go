package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// surface is a rectangle filled with a theme colour. It is a widget rather
// than a bare canvas.Rectangle so the fill is looked up again on Refresh and
// follows a switch between light and dark themes.
type surface struct {
	widget.BaseWidget
	color   fyne.ThemeColorName
	radius  fyne.ThemeSizeName // empty for square corners
	minSize fyne.Size
}

func newSurface(color fyne.ThemeColorName, radius fyne.ThemeSizeName, minSize fyne.Size) *surface {
	s := &surface{color: color, radius: radius, minSize: minSize}
	s.ExtendBaseWidget(s)
	return s
}

// CreateRenderer implements fyne.Widget.
func (s *surface) CreateRenderer() fyne.WidgetRenderer {
	r := &surfaceRenderer{owner: s, rect: &canvas.Rectangle{}}
	r.Refresh()
	return r
}

type surfaceRenderer struct {
	owner *surface
	rect  *canvas.Rectangle
}

func (r *surfaceRenderer) Layout(size fyne.Size) { r.rect.Resize(size) }

func (r *surfaceRenderer) MinSize() fyne.Size { return r.owner.minSize }

func (r *surfaceRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.rect} }

func (r *surfaceRenderer) Destroy() {}

func (r *surfaceRenderer) Refresh() {
	r.rect.FillColor = theme.ColorForWidget(r.owner.color, r.owner)
	r.rect.CornerRadius = 0
	if r.owner.radius != "" {
		r.rect.CornerRadius = theme.SizeForWidget(r.owner.radius, r.owner)
	}
	r.rect.Refresh()
}
