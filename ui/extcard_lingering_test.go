package ui

import "testing"

func TestLingeringLine(t *testing.T) {
	tests := []struct {
		pids []int
		want string
	}{
		{[]int{42}, "Its hooks left a process group running (pid 42); stopped when you disable, update or uninstall it, or quit."},
		{[]int{7, 42}, "Its hooks left 2 process groups running (pid 7, 42); stopped when you disable, update or uninstall it, or quit."},
	}
	for _, tt := range tests {
		if got := lingeringLine(tt.pids); got != tt.want {
			t.Errorf("lingeringLine(%v) = %q, want %q", tt.pids, got, tt.want)
		}
	}
}
