package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version returns the module version of the binary, or "devel".
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

func runVersion(_ context.Context, e *env, args []string) int {
	if len(args) > 0 {
		return e.errorf("version takes no arguments")
	}
	fmt.Fprintf(e.stdout, "reviewls %s (%s %s/%s)\n", version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return exitOK
}
