package engine

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/config"
)

// The project gates. They run the project's own commands, so nothing but
// an explicit request runs them: RunGates, which only the CLI's --gates
// calls (never the language server, never a hook the user did not write
// --gates into), and only the gates of the configuration in effect — the
// user's own, or those of a repository the user trusted: an untrusted
// repository's gates were dropped when the configuration was read
// (config.Resolve), and the result says so.

// gateTail is how much of a gate's output the review keeps: the end of a
// failing test run (the failure and the summary) fits in 4 KiB, and a
// chatty build does not fill the artifacts.
const gateTail = 4 << 10

// gateWaitDelay is how long a gate's output may stay open after its
// process ended or was killed (a grandchild holding the pipe).
const gateWaitDelay = 5 * time.Second

// projectGates returns what a run knows of the gates before any runs:
// those configured, and whether the repository's were withheld.
func (e *Engine) projectGates(cfg *review.Config) *review.GateRun {
	g := &review.GateRun{Withheld: slices.ContainsFunc(e.withheld, func(w config.Withheld) bool { return w.Key == "gates" })}
	if cfg != nil {
		g.Configured = cfg.Gates
	}
	return g
}

// RunGates runs the configured project gates of res's review one after
// another in the work tree, each within its timeout, records how each
// ran (command, exit code, duration, the redacted tail of its output)
// and decides the review again. It runs nothing when no gate is
// configured or the repository's gates were withheld. res must be a
// result of this engine's Run.
func (e *Engine) RunGates(ctx context.Context, res *review.Result) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if res.ProjectGates == nil || res.ChangeSet.Empty() {
		return
	}
	gates := res.ProjectGates
	gates.Results = nil
	for _, g := range gates.Configured {
		if ctx.Err() != nil {
			break
		}
		r := e.runGate(ctx, g, res.Redactor)
		e.logger.Info("gate", "name", g.Name, "exit", r.ExitCode, "elapsed", r.Duration, "timed_out", r.TimedOut)
		gates.Results = append(gates.Results, r)
	}
	decide(res)
}

// runGate runs one gate.
func (e *Engine) runGate(ctx context.Context, g review.Gate, red *review.Redactor) review.GateResult {
	timeout := g.EffectiveTimeout()
	gctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := shellCommand(gctx, g.Command)
	cmd.Dir = e.Root()
	out := &tailBuffer{max: gateTail}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = gateWaitDelay
	start := time.Now()
	err := cmd.Run()
	r := review.GateResult{Name: g.Name, Command: g.Command, Duration: time.Since(start).Round(time.Millisecond), Timeout: timeout,
		Tail: red.String(strings.ToValidUTF8(out.String(), "\uFFFD"))}
	var exit *exec.ExitError
	switch {
	case errors.Is(gctx.Err(), context.DeadlineExceeded):
		r.TimedOut, r.ExitCode = true, -1
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	case err != nil:
		r.ExitCode, r.Err = -1, red.String(err.Error())
	}
	return r
}

// tailBuffer keeps the last max bytes written to it, from a line start
// when it can.
type tailBuffer struct {
	max int
	buf []byte
	cut bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf, t.cut = append(t.buf[:0:0], t.buf[len(t.buf)-t.max:]...), true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	b := t.buf
	if len(b) > t.max {
		b, t.cut = b[len(b)-t.max:], true
	}
	if t.cut {
		if i := strings.IndexByte(string(b), '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
	}
	return string(b)
}
