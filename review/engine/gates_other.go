//go:build !unix

package engine

import (
	"context"
	"os/exec"
)

// shellCommand is command run by the system's shell.
func shellCommand(ctx context.Context, command string) *exec.Cmd {
	// reviewls:ignore security/shell-injection the gate is the user's own command from their trusted configuration
	return exec.CommandContext(ctx, "cmd", "/C", command)
}
