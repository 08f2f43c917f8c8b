package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// isTerminal reports whether w (behind the redacting writer) is a terminal.
func isTerminal(w io.Writer) bool {
	if rw, ok := w.(*redactWriter); ok {
		w = rw.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// colorModes lists the --color values.
var colorModes = []string{"auto", "always", "never"}

// useColor decides whether output to w is coloured under --color mode:
// never when NO_COLOR is set (https://no-color.org), whatever the flag;
// with auto, only on a terminal that is not "dumb".
func useColor(mode string, w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return isTerminal(w) && os.Getenv("TERM") != "dumb"
}

// relativeTo returns a function that prints a repository path relative to
// the working directory (as git status and compilers do, "../x.go" from a
// subdirectory), so that a terminal or an editor can open it; the
// repository path itself when the working directory is unknown.
func relativeTo(root string) func(string) string {
	wd, err := os.Getwd()
	if err != nil {
		return func(p string) string { return p }
	}
	if r, err := filepath.EvalSymlinks(wd); err == nil {
		wd = r
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	return func(p string) string {
		abs := p
		if !filepath.IsAbs(p) {
			abs = filepath.Join(root, filepath.FromSlash(p))
		}
		if rel, err := filepath.Rel(wd, abs); err == nil {
			return filepath.ToSlash(rel)
		}
		return p
	}
}

// progress shows what a long run is doing on stderr, so the first slow
// run on a big repository is not silent: on a terminal a spinner with
// the label after a moment; elsewhere nothing, unless forced (--progress),
// when each label is one line. Stop clears the spinner.
type progress struct {
	w      io.Writer
	tty    bool
	forced bool
	after  time.Duration

	label   chan string
	done    chan struct{}
	stopped chan struct{}
}

// startProgress starts reporting on w. after is how long a run may take
// before the spinner shows.
func startProgress(w io.Writer, forced bool, label string) *progress {
	if rw, ok := w.(*redactWriter); ok && !forced {
		w = rw.w // the spinner's frames hold no secret
	}
	p := &progress{w: w, tty: isTerminal(w), forced: forced, after: 300 * time.Millisecond,
		label: make(chan string, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	p.run(label)
	return p
}

func (p *progress) run(label string) {
	switch {
	case p.forced && !p.tty:
		go func() {
			defer close(p.stopped)
			fmt.Fprintf(p.w, "reviewls: %s…\n", label)
			for {
				select {
				case l := <-p.label:
					fmt.Fprintf(p.w, "reviewls: %s…\n", l)
				case <-p.done:
					return
				}
			}
		}()
	case p.tty:
		go p.spin(label)
	default:
		close(p.stopped)
	}
}

func (p *progress) spin(label string) {
	defer close(p.stopped)
	// Quick runs never show it.
	wait := time.NewTimer(p.after)
	defer wait.Stop()
	for waiting := true; waiting; {
		select {
		case <-p.done:
			return
		case l := <-p.label:
			label = l
		case <-wait.C:
			waiting = false
		}
	}
	frames := []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		fmt.Fprintf(p.w, "\r\x1b[K%c %s…", frames[i%len(frames)], label)
		select {
		case <-p.done:
			fmt.Fprint(p.w, "\r\x1b[K")
			return
		case l := <-p.label:
			label = l
		case <-tick.C:
		}
	}
}

// Step changes the label to what the run does now.
func (p *progress) Step(label string) {
	select {
	case <-p.stopped:
		return
	default:
	}
	select {
	case p.label <- strings.TrimSpace(label):
	case <-p.stopped:
	}
}

// Stop ends the report and waits until it is cleared.
func (p *progress) Stop() {
	select {
	case <-p.done:
	default:
		close(p.done)
	}
	<-p.stopped
}
