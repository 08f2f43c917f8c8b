//go:build unix

package main

import (
	"bufio"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// openTTY returns the two ends of a pseudo-terminal: what the program
// writes to tty, the test reads from ptm.
func openTTY(t *testing.T) (ptm, tty *os.File) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptm.Close(); tty.Close() })
	return ptm, tty
}

// TestColorOnTerminal checks --color auto: colour on a terminal, not on a
// pipe or a dumb terminal, never under NO_COLOR.
func TestColorOnTerminal(t *testing.T) {
	_, tty := openTTY(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm-256color")
	for _, tc := range []struct {
		mode string
		out  *os.File
		want bool
	}{
		{"auto", tty, true},
		{"auto", w, false},
		{"never", tty, false},
		{"always", w, true},
	} {
		if got := useColor(tc.mode, redacting(tc.out)); got != tc.want {
			t.Errorf("--color %s on %s: colour %v, want %v", tc.mode, tc.out.Name(), got, tc.want)
		}
	}
	t.Setenv("TERM", "dumb")
	if useColor("auto", tty) {
		t.Error("--color auto on a dumb terminal: colour on")
	}
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "1")
	if useColor("auto", tty) || useColor("always", tty) {
		t.Error("NO_COLOR=1: colour on")
	}
}

// TestProgressSpinner checks the spinner on a terminal: it shows the
// current step and clears its line when stopped.
func TestProgressSpinner(t *testing.T) {
	ptm, tty := openTTY(t)
	p := &progress{w: tty, tty: true, label: make(chan string, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	p.run("reading the repository")
	rd := bufio.NewReader(ptm)
	readUntil := func(want string) string {
		t.Helper()
		var b strings.Builder
		for !strings.Contains(b.String(), want) {
			c, err := rd.ReadByte()
			if err != nil {
				t.Fatalf("read the terminal: %v (so far %q)", err, b.String())
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	readUntil("reading the repository…")
	p.Step("reviewing the changes")
	readUntil("reviewing the changes…")
	p.Stop()
	// After the last frame comes only the sequence that clears the line.
	tty.Close()
	rest, _ := io.ReadAll(rd) // EIO once the terminal's side is closed
	if !strings.HasSuffix(string(rest), "\r\x1b[K") {
		t.Errorf("spinner not cleared at the end: %q", rest)
	}
	p.Step("after the end") // must not block
}
