package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/agentdesk/agentdesk/extensions"
)

// optionsForm edits a plugin's settings (its userConfig): one field per
// option, masked for sensitive ones, which never show their value. values
// returns what the user typed (an untouched field is left out, so stored
// values and defaults stay).
func optionsForm(opts []extensions.OptionValue) (form *widget.Form, values func() map[string]string) {
	form = &widget.Form{}
	read := map[string]func() (string, bool){}
	for _, o := range opts {
		hint := o.Description
		if o.Required {
			hint = "Required. " + hint
		}
		if o.Type == "boolean" {
			check := &widget.Check{Text: o.Title, Checked: o.Value == "true" || !o.Set && o.Default == "true"}
			initial := check.Checked
			read[o.Key] = func() (string, bool) { return fmt.Sprint(check.Checked), check.Checked != initial }
			form.Items = append(form.Items, &widget.FormItem{Text: o.Key, Widget: check, HintText: hint})
			continue
		}
		entry := &widget.Entry{Password: o.Sensitive, PlaceHolder: placeholderFor(o)}
		if !o.Sensitive {
			entry.SetText(o.Value)
		}
		initial := entry.Text
		read[o.Key] = func() (string, bool) { return entry.Text, entry.Text != initial }
		form.Items = append(form.Items, &widget.FormItem{Text: o.Title, Widget: entry, HintText: hint})
	}
	return form, func() map[string]string {
		out := map[string]string{}
		for key, r := range read {
			if v, changed := r(); changed {
				out[key] = v
			}
		}
		return out
	}
}

func placeholderFor(o extensions.OptionValue) string {
	switch {
	case o.Sensitive && o.Set:
		return "set (type to replace)"
	case o.HasDefault:
		return "default: " + o.Default
	}
	return o.Type
}

// onSettings opens the card's Settings dialog.
func (p *extensionsPane) onSettings(info extensions.Info) {
	form, values := optionsForm(info.Options)
	d := dialog.NewCustomConfirm(info.Name+" settings", "Save", "Cancel", container.NewVScroll(form), func(ok bool) {
		if ok {
			p.saveOptions(info.ID, values(), "Settings saved.")
		}
	}, p.window())
	d.Resize(fyne.NewSize(560, 360))
	dialogKeys(p.window(), d, d.Confirm)
	d.Show()
}

func (p *extensionsPane) saveOptions(id string, values map[string]string, done string) {
	p.run(id, func(ctx context.Context) (string, error) {
		return done, p.u.d.Extensions.SetOptions(ctx, id, values)
	})
}
