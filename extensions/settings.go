package extensions

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/agent/lifecycle"
	"github.com/agentdesk/agentdesk/extensions/hookrun"
	"github.com/agentdesk/agentdesk/extensions/mcp"
	"github.com/agentdesk/agentdesk/storage"
)

// Setting keys of Preferences → Advanced.
const (
	keyHookTimeout = "hooks.timeout_default_s"
	keyHookPATH    = "hooks.path"
	keyStopLimit   = "hooks.stop_limit"
	keyContextCap  = "hooks.context_cap_kib"
	keyMCPStart    = "mcp.start_timeout_s"
	keyMCPCall     = "mcp.call_timeout_s"
	keyMCPShare    = "mcp.tool_share_pct"
)

// Bounds of the MCP timeouts (Preferences → Advanced).
const (
	MaxMCPStartTimeout = 5 * time.Minute
	MaxMCPCallTimeout  = time.Hour
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
	// MCPStartTimeout bounds an MCP server's start (1 s to
	// MaxMCPStartTimeout), MCPCallTimeout one MCP tool call (1 s to
	// MaxMCPCallTimeout); zero saves the default.
	MCPStartTimeout, MCPCallTimeout time.Duration
	// MCPToolShare is the percentage of the model's context window the
	// MCP tool definitions of one request may take (1 to
	// lifecycle.MaxMCPToolShare; zero saves the default); the others wait
	// for tool_search.
	MCPToolShare int
}

// LoadHookSettings reads the hook preferences (defaults when unset).
func LoadHookSettings(ctx context.Context, db *storage.DB) HookSettings {
	s := HookSettings{DefaultTimeout: hookrun.DefaultTimeout, StopLimit: lifecycle.DefaultStopHookLimit, ContextCapKiB: DefaultContextCapKiB,
		MCPStartTimeout: mcp.DefaultStartTimeout, MCPCallTimeout: mcp.DefaultCallTimeout, MCPToolShare: lifecycle.DefaultMCPToolShare}
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
	s.MCPStartTimeout = secondsSetting(ctx, db, keyMCPStart, s.MCPStartTimeout, MaxMCPStartTimeout)
	s.MCPCallTimeout = secondsSetting(ctx, db, keyMCPCall, s.MCPCallTimeout, MaxMCPCallTimeout)
	if v, ok, _ := db.Setting(ctx, keyMCPShare); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= lifecycle.MaxMCPToolShare {
			s.MCPToolShare = n
		}
	}
	return s
}

func secondsSetting(ctx context.Context, db *storage.DB, key string, def, max time.Duration) time.Duration {
	if v, ok, _ := db.Setting(ctx, key); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && time.Duration(n)*time.Second <= max {
			return time.Duration(n) * time.Second
		}
	}
	return def
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
	start, call := s.MCPStartTimeout, s.MCPCallTimeout
	if start == 0 {
		start = mcp.DefaultStartTimeout
	}
	if call == 0 {
		call = mcp.DefaultCallTimeout
	}
	share := s.MCPToolShare
	if share == 0 {
		share = lifecycle.DefaultMCPToolShare
	}
	if share < 1 || share > lifecycle.MaxMCPToolShare {
		return fmt.Errorf("the MCP tools' share of the context window must be from 1 to %d%%", lifecycle.MaxMCPToolShare)
	}
	if start < time.Second || start > MaxMCPStartTimeout {
		return fmt.Errorf("the MCP server start timeout must be from 1 to %d seconds", int(MaxMCPStartTimeout/time.Second))
	}
	if call < time.Second || call > MaxMCPCallTimeout {
		return fmt.Errorf("the MCP tool call timeout must be from 1 to %d seconds", int(MaxMCPCallTimeout/time.Second))
	}
	return db.SetSettings(ctx, map[string]string{keyHookTimeout: strconv.Itoa(secs), keyHookPATH: strings.TrimSpace(s.PATH),
		keyStopLimit: strconv.Itoa(s.StopLimit), keyContextCap: strconv.Itoa(s.ContextCapKiB),
		keyMCPStart: strconv.Itoa(int(start / time.Second)), keyMCPCall: strconv.Itoa(int(call / time.Second)),
		keyMCPShare: strconv.Itoa(share)})
}

// HookSettings reads the hook preferences (Preferences → Advanced).
func (m *Manager) HookSettings(ctx context.Context) HookSettings { return LoadHookSettings(ctx, m.db) }

// SaveHookSettings validates and stores them.
func (m *Manager) SaveHookSettings(ctx context.Context, s HookSettings) error {
	return SaveHookSettings(ctx, m.db, s)
}
