package extensions

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/storage"
)

// Setting keys of Preferences → Advanced.
const (
	keyHookTimeout = "hooks.timeout_default_s"
	keyHookPATH    = "hooks.path"
)

// HookSettings are the user's hook preferences.
type HookSettings struct {
	DefaultTimeout time.Duration // for hooks whose manifest names none
	PATH           string        // "" = the detected login-shell PATH
}

// LoadHookSettings reads the hook preferences (defaults when unset).
func LoadHookSettings(ctx context.Context, db *storage.DB) HookSettings {
	s := HookSettings{DefaultTimeout: hookrun.DefaultTimeout}
	if v, ok, _ := db.Setting(ctx, keyHookTimeout); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && time.Duration(n)*time.Second <= hookrun.MaxTimeout {
			s.DefaultTimeout = time.Duration(n) * time.Second
		}
	}
	s.PATH, _, _ = db.Setting(ctx, keyHookPATH)
	return s
}

// SaveHookSettings validates and stores the hook preferences.
func SaveHookSettings(ctx context.Context, db *storage.DB, s HookSettings) error {
	max := int(hookrun.MaxTimeout / time.Second)
	secs := int(s.DefaultTimeout / time.Second)
	if secs < 1 || secs > max {
		return fmt.Errorf("the hook timeout must be from 1 to %d seconds", max)
	}
	return db.SetSettings(ctx, map[string]string{keyHookTimeout: strconv.Itoa(secs), keyHookPATH: strings.TrimSpace(s.PATH)})
}
