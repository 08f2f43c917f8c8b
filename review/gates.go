package review

import (
	"fmt"
	"strings"
	"time"
)

// Project gates (seed 003's quality gates): the commands a team runs
// before merging ("go test ./..."), listed under `gates:` in the
// configuration. They run the project's code, so they never run by
// default: only `reviewls review --gates` runs them, and only those of
// the user's own configuration or of a repository the user trusted.

// Gate is one project gate.
type Gate struct {
	// Name names the gate in the outputs; it defaults to the command.
	Name string
	// Command is run by the shell in the work tree.
	Command string
	// Timeout bounds it; 0 means [DefaultGateTimeout].
	Timeout time.Duration
}

// DefaultGateTimeout bounds a gate that sets no timeout: a project's
// whole test suite on a warm build cache takes minutes, and a gate that
// hangs must not hold the review for longer than a coffee break.
const DefaultGateTimeout = 10 * time.Minute

// EffectiveTimeout returns the gate's timeout.
func (g Gate) EffectiveTimeout() time.Duration {
	if g.Timeout > 0 {
		return g.Timeout
	}
	return DefaultGateTimeout
}

// GateResult is how one gate ran.
type GateResult struct {
	Name, Command string
	// ExitCode is the command's exit status (-1 when it did not start or
	// was killed).
	ExitCode int
	Duration time.Duration
	// TimedOut says the timeout killed it; Timeout is that timeout.
	TimedOut bool
	Timeout  time.Duration
	// Tail is the end of its combined output, redacted.
	Tail string
	// Err says why it could not start.
	Err string
}

// Passed reports whether the gate exited 0 within its timeout.
func (r GateResult) Passed() bool { return r.ExitCode == 0 && !r.TimedOut && r.Err == "" }

// GateRun is what a review knows of the project gates.
type GateRun struct {
	// Configured are the gates the configuration lists.
	Configured []Gate
	// Withheld says the repository lists gates that were withheld: the
	// user does not trust it.
	Withheld bool
	// Results are those of a run that ran them (--gates), in order.
	Results []GateResult
}

// Ran reports whether the gates ran; g may be nil.
func (g *GateRun) Ran() bool { return g != nil && len(g.Results) > 0 }

// Failed returns the gates that ran and failed (a timeout is a gap, not
// a failure); g may be nil.
func (g *GateRun) Failed() []GateResult {
	if g == nil {
		return nil
	}
	var out []GateResult
	for _, r := range g.Results {
		if !r.Passed() && !r.TimedOut {
			out = append(out, r)
		}
	}
	return out
}

// commands lists the configured gates' commands.
func (g GateRun) commands() string {
	var cs []string
	for _, c := range g.Configured {
		cs = append(cs, c.Command)
	}
	return strings.Join(cs, "; ")
}

// String says how the gate ran in one line: "gate \"tests\" passed in
// 1.2s", "... failed: exit 1", "... timed out after 10m0s".
func (r GateResult) String() string {
	switch {
	case r.Err != "":
		return fmt.Sprintf("gate %q did not start: %s", r.Name, r.Err)
	case r.TimedOut:
		return fmt.Sprintf("gate %q timed out after %s", r.Name, r.Timeout)
	case r.ExitCode != 0:
		return fmt.Sprintf("gate %q failed: exit %d after %s", r.Name, r.ExitCode, r.Duration)
	}
	return fmt.Sprintf("gate %q passed in %s", r.Name, r.Duration)
}
