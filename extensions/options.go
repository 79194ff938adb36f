package extensions

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/extensions/manifest"
)

// OptionValue is one userConfig option of an extension with its state.
// A sensitive value is never returned: Set says whether one is stored.
type OptionValue struct {
	manifest.Option
	Value string `json:"value,omitempty"` // "" for sensitive options
	Set   bool   `json:"set"`             // a value (or a default) applies
}

// optionSetting is the settings key of a non-sensitive value.
func optionSetting(id, key string) string { return "extension." + id + ".option." + key }

// Options lists id's userConfig options, their values (sensitive ones
// masked) and where sensitive values are kept.
func (m *Manager) Options(ctx context.Context, id string) ([]OptionValue, string, error) {
	e, err := m.db.Extension(ctx, id)
	if err != nil {
		return nil, "", notInstalled(id, err)
	}
	pkg, _, err := m.version(ctx, id, e.ActiveCommit)
	if err != nil {
		return nil, "", err
	}
	return m.optionValues(ctx, id, pkg), m.secrets.Where(), nil
}

// optionValues are pkg's options with their values, sensitive ones masked.
func (m *Manager) optionValues(ctx context.Context, id string, pkg *manifest.Package) []OptionValue {
	var out []OptionValue
	for _, o := range pkg.UserConfig {
		value, ok := m.optionValue(ctx, id, o)
		if o.Sensitive {
			value = ""
		}
		out = append(out, OptionValue{Option: o, Value: value, Set: ok && (value != "" || o.Sensitive)})
	}
	return out
}

// optionValue is the stored value, else the default.
func (m *Manager) optionValue(ctx context.Context, id string, o manifest.Option) (string, bool) {
	if o.Sensitive {
		if v, ok := m.secrets.Get(account(id, o.Key)); ok {
			return v, true
		}
	} else if v, ok, err := m.db.Setting(ctx, optionSetting(id, o.Key)); err == nil && ok {
		return v, true
	}
	return o.Default, o.HasDefault
}

// SetOptions stores values for id's declared options (KEY → value); an
// empty value clears the stored one (the default applies again).
func (m *Manager) SetOptions(ctx context.Context, id string, values map[string]string) error {
	opts, _, err := m.Options(ctx, id)
	if err != nil {
		return err
	}
	byKey := map[string]manifest.Option{}
	for _, o := range opts {
		byKey[o.Key] = o.Option
	}
	for _, key := range sortedKeys(values) {
		o, ok := byKey[key]
		if !ok {
			return fmt.Errorf("%s declares no setting %q (it has: %s)", id, key, strings.Join(sortedKeys(byKey), ", "))
		}
		if err := m.setOption(ctx, id, o, values[key]); err != nil {
			return fmt.Errorf("%s setting %s: %w", id, key, err)
		}
	}
	return nil
}

func (m *Manager) setOption(ctx context.Context, id string, o manifest.Option, value string) error {
	if err := checkOptionType(o, value); err != nil {
		return err
	}
	if o.Sensitive { // in the keyring: no trigger sees it, so say it changed
		var err error
		if value == "" {
			err = m.secrets.Delete(account(id, o.Key))
		} else {
			err = m.secrets.Set(account(id, o.Key), value)
		}
		return errors.Join(err, m.db.BumpRegistryGeneration(ctx))
	}
	if value == "" {
		return m.db.DeleteSettings(ctx, optionSetting(id, o.Key))
	}
	return m.db.SetSetting(ctx, optionSetting(id, o.Key), value)
}

func checkOptionType(o manifest.Option, value string) error {
	if value == "" {
		return nil
	}
	switch o.Type {
	case "number":
		if _, err := strconv.ParseFloat(value, 64); err != nil {
			return fmt.Errorf("%q is not a number", value)
		}
	case "boolean":
		if _, err := strconv.ParseBool(value); err != nil {
			return fmt.Errorf("%q is not true or false", value)
		}
	}
	return nil
}

// hookOptions are the values hooks of id get: every one in the
// environment, the non-sensitive ones for ${user_config.KEY}; missing
// names the required options without a value.
func (m *Manager) hookOptions(ctx context.Context, id string, pkg *manifest.Package) (env, argv map[string]string, missing []string) {
	env, argv = map[string]string{}, map[string]string{}
	for _, o := range pkg.UserConfig {
		value, ok := m.optionValue(ctx, id, o)
		if !ok || value == "" && o.Required {
			if o.Required {
				missing = append(missing, o.Key)
			}
			continue
		}
		env[o.EnvName()] = value
		if !o.Sensitive {
			argv[o.Key] = value
		}
	}
	return env, argv, missing
}

// missingOptionsText is the card's and the CLI's sentence for required
// settings without a value.
func missingOptionsText(id string, keys []string) string {
	return fmt.Sprintf("needs a value for %s before its hooks run: set it on the card (Settings…) or with agentdesk ext enable %s --config %s=VALUE",
		strings.Join(keys, ", "), id, keys[0])
}

// forgetOptions removes id's stored values (uninstall).
func (m *Manager) forgetOptions(ctx context.Context, id string, pkg *manifest.Package) error {
	var errs []error
	for _, o := range pkg.UserConfig {
		if o.Sensitive {
			errs = append(errs, m.secrets.Delete(account(id, o.Key)))
		}
	}
	errs = append(errs, m.db.DeleteSettings(ctx, "extension."+id+".option."))
	return errors.Join(errs...)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
