package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"

	"github.com/reviewls/reviewls/lsp"
	"github.com/reviewls/reviewls/review/engine"
)

// stdrwc joins the process's stdin and stdout into the stream the language
// server speaks on (efm-langserver's stdrwc).
type stdrwc struct {
	in  io.Reader
	out io.Writer
}

func (s stdrwc) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdrwc) Write(p []byte) (int, error) { return s.out.Write(p) }

func (s stdrwc) Close() error {
	var errs []error
	for _, c := range []any{s.in, s.out} {
		if cl, ok := c.(io.Closer); ok {
			errs = append(errs, cl.Close())
		}
	}
	return errors.Join(errs...)
}

func runServe(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: reviewls serve [flags]\n\nRuns the reviewls language server on stdin/stdout. Logs go to stderr (or\n--logfile), never to stdout.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	logfile := fs.String("logfile", "", "write logs to this file instead of stderr")
	level := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error (editors show stderr as errors: the default logs only what needs attention)")
	verbose := fs.Bool("v", false, "verbose: log at debug level")
	quiet := fs.Duration("quiet", 0, "quiet window before a review after a change (default 200ms)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the session to this file (performance work)")
	traceFile := fs.String("trace", "", "write an execution trace of the session to this file (go tool trace; performance work)")
	memprofile := fs.String("memprofile", "", "write a heap profile to this file when the session ends (performance work)")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return e.errorf("serve takes no arguments")
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(strings.ToUpper(*level))); err != nil {
		return e.errorf("--log-level: unknown level %q", *level)
	}
	if *verbose {
		lvl = slog.LevelDebug
	}
	var logOut io.Writer = e.stderr
	if *logfile != "" {
		f, err := os.OpenFile(*logfile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return e.errorf("--logfile: %v", err)
		}
		defer f.Close()
		logOut = redacting(f)
	}
	logger := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: lvl}))
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return e.errorf("--cpuprofile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return e.errorf("--cpuprofile: %v", err)
		}
		defer pprof.StopCPUProfile()
	}
	if *traceFile != "" {
		f, err := os.Create(*traceFile)
		if err != nil {
			return e.errorf("--trace: %v", err)
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return e.errorf("--trace: %v", err)
		}
		defer trace.Stop()
	}
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return e.errorf("--memprofile: %v", err)
		}
		defer func() {
			runtime.GC() // the profile then shows what is live at the end
			if err := pprof.WriteHeapProfile(f); err != nil {
				logger.Error("write the heap profile", "err", err)
			}
			f.Close()
		}()
	}
	err := lsp.Serve(ctx, stdrwc{in: e.stdin, out: e.stdout}, lsp.Options{
		Logger:           logger,
		Version:          version(),
		DiagnosticsDelay: *quiet,
		GitEnv:           engine.ProcessEnv(),
		UserDir:          engine.UserDir(os.Getenv),
	})
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, lsp.ErrExitWithoutShutdown):
		return 1
	}
	logger.Error("server stopped", "err", err)
	return 1
}
