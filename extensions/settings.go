package extensions

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/storage"
)

// Setting keys of Preferences → Advanced.
const (
	keyHookTimeout = "hooks.timeout_default_s"
	keyHookPATH    = "hooks.path"
	keyStopLimit   = "hooks.stop_limit"
	keyContextCap  = "hooks.context_cap_kib"
)

// Bounds of the per-turn extension context cap, in KiB.
const (
	DefaultContextCapKiB = 64
	MinContextCapKiB     = 4
	MaxContextCapKiB     = 1024
)

// HookSettings are the user's hook preferences.
type HookSettings struct {
	DefaultTimeout time.Duration // for hooks whose manifest names none
	PATH           string        // "" = the detected login-shell PATH
	// StopLimit is how many times Stop hooks may continue one turn
	// (0 to lifecycle.MaxStopHookLimit; 0: never).
	StopLimit int
	// ContextCapKiB bounds one turn's extension context
	// (MinContextCapKiB to MaxContextCapKiB).
	ContextCapKiB int
}

// LoadHookSettings reads the hook preferences (defaults when unset).
func LoadHookSettings(ctx context.Context, db *storage.DB) HookSettings {
	s := HookSettings{DefaultTimeout: hookrun.DefaultTimeout, StopLimit: lifecycle.DefaultStopHookLimit, ContextCapKiB: DefaultContextCapKiB}
	if v, ok, _ := db.Setting(ctx, keyHookTimeout); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && time.Duration(n)*time.Second <= hookrun.MaxTimeout {
			s.DefaultTimeout = time.Duration(n) * time.Second
		}
	}
	s.PATH, _, _ = db.Setting(ctx, keyHookPATH)
	if v, ok, _ := db.Setting(ctx, keyStopLimit); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= lifecycle.MaxStopHookLimit {
			s.StopLimit = n
		}
	}
	if v, ok, _ := db.Setting(ctx, keyContextCap); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= MinContextCapKiB && n <= MaxContextCapKiB {
			s.ContextCapKiB = n
		}
	}
	return s
}

// SaveHookSettings validates and stores the hook preferences.
func SaveHookSettings(ctx context.Context, db *storage.DB, s HookSettings) error {
	max := int(hookrun.MaxTimeout / time.Second)
	secs := int(s.DefaultTimeout / time.Second)
	if secs < 1 || secs > max {
		return fmt.Errorf("the hook timeout must be from 1 to %d seconds", max)
	}
	if s.StopLimit < 0 || s.StopLimit > lifecycle.MaxStopHookLimit {
		return fmt.Errorf("Stop hooks may continue a turn from 0 to %d times", lifecycle.MaxStopHookLimit)
	}
	if s.ContextCapKiB < MinContextCapKiB || s.ContextCapKiB > MaxContextCapKiB {
		return fmt.Errorf("the extension context per turn must be from %d to %d KiB", MinContextCapKiB, MaxContextCapKiB)
	}
	return db.SetSettings(ctx, map[string]string{keyHookTimeout: strconv.Itoa(secs), keyHookPATH: strings.TrimSpace(s.PATH),
		keyStopLimit: strconv.Itoa(s.StopLimit), keyContextCap: strconv.Itoa(s.ContextCapKiB)})
}

// HookSettings reads the hook preferences (Preferences → Advanced).
func (m *Manager) HookSettings(ctx context.Context) HookSettings { return LoadHookSettings(ctx, m.db) }

// SaveHookSettings validates and stores them.
func (m *Manager) SaveHookSettings(ctx context.Context, s HookSettings) error {
	return SaveHookSettings(ctx, m.db, s)
}
