package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// table stacks one equal-width grid per row, with rules between rows.
// Each row grid is as tall as its tallest wrapped cell, and because every
// row divides the same width the columns line up. widget.Table was passed
// over: it needs fixed cell sizes set by hand, cannot size rows to wrapped
// text, and is itself a scroller that would swallow the transcript's wheel
// events.
func (b *builder) table(t *east.Table) fyne.CanvasObject {
	columns := max(1, len(t.Alignments))
	rows := make([]fyne.CanvasObject, 0, 2*t.ChildCount())
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		if len(rows) > 0 {
			rows = append(rows, widget.NewSeparator())
		}
		rows = append(rows, b.tableRow(row, t.Alignments, columns))
	}
	return container.NewVBox(rows...)
}

// tableRow renders exactly columns cells, padding short rows with blanks.
func (b *builder) tableRow(row ast.Node, alignments []east.Alignment, columns int) fyne.CanvasObject {
	_, header := row.(*east.TableHeader)
	cells := make([]fyne.CanvasObject, 0, columns)
	for cell := row.FirstChild(); cell != nil && len(cells) < columns; cell = cell.NextSibling() {
		cells = append(cells, b.tableCell(cell, header, alignmentAt(alignments, len(cells))))
	}
	for len(cells) < columns {
		cells = append(cells, wrappingText(nil))
	}
	return container.NewGridWithColumns(columns, cells...)
}

func (b *builder) tableCell(cell ast.Node, header bool, align fyne.TextAlign) fyne.CanvasObject {
	style := widget.RichTextStyleInline
	style.Alignment = align
	style.TextStyle.Bold = header
	return wrappingText(b.inlines(cell, inlineStyle{text: style}, nil))
}

func alignmentAt(alignments []east.Alignment, column int) fyne.TextAlign {
	if column >= len(alignments) {
		return fyne.TextAlignLeading
	}
	switch alignments[column] {
	case east.AlignCenter:
		return fyne.TextAlignCenter
	case east.AlignRight:
		return fyne.TextAlignTrailing
	}
	return fyne.TextAlignLeading
}
