//go:build !unix

package main

import "github.com/agentdesk/agentdesk/ui"

// dumpOnSignal: there is no SIGUSR1 outside Unix.
func dumpOnSignal(*ui.UI, string) {}
