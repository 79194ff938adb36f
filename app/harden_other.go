//go:build !linux

package main

// hardenProcess: there is no /proc/<pid>/environ to close outside Linux
// (SECURITY.md says what other systems allow instead).
func hardenProcess() error { return nil }
