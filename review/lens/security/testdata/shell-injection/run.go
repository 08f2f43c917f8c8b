package run

import (
	"context"
	"fmt"
	osexec "os/exec"
)

const script = "git status --short"

func Log(ctx context.Context, ref string) error {
	cmd := osexec.Command("sh", "-c", "git log "+ref) // want "Shell command built from variable input"
	if err := cmd.Run(); err != nil {
		return err
	}
	c2 := osexec.CommandContext(ctx, "/bin/bash", "-lc", fmt.Sprintf("grep %s log.txt", ref)) // want "non-constant script"
	return c2.Run()
}

// Near misses: none of these is reported.
func Fine(ctx context.Context, ref string) error {
	_ = osexec.Command("sh", "-c", script)
	_ = osexec.Command("sh", "-c", "echo "+script)
	_ = osexec.Command("git", "log", ref)
	_ = osexec.CommandContext(ctx, "python3", "-c", ref)
	return nil
}
