//go:build unix

package engine

import (
	"context"
	"os/exec"
	"syscall"
)

// shellCommand is command run by sh in its own process group, which a
// timeout kills whole: a test runner's children with it.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	// reviewls:ignore security/shell-injection the gate is the user's own command from their trusted configuration
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}
