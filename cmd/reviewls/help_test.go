package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// internalWords are terms of the implementation and of the protocol it
// follows that a user of the CLI never meets: help says what a command
// does in the user's words.
var internalWords = regexp.MustCompile(`(?i)register[- ]?[12]|\bregister\b|hve|\bseeds?\b|subagent|\blanes?\b`)

// TestHelp asks every command for its help: it is the output (stdout,
// exit 0, nothing on stderr), and it uses no internal term.
func TestHelp(t *testing.T) {
	for _, c := range append(commands(), command{name: "help"}) {
		args := []string{c.name, "-h"}
		if c.name == "help" {
			args = []string{"-h"}
		}
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr); code != exitOK {
				t.Fatalf("reviewls %s: exit %d, want 0; stderr:\n%s", strings.Join(args, " "), code, stderr.String())
			}
			if !strings.HasPrefix(stdout.String(), "Usage: reviewls") || stderr.Len() > 0 {
				t.Errorf("reviewls %s: want the usage on stdout and nothing on stderr, got stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), stdout.String(), stderr.String())
			}
			if w := internalWords.FindString(stdout.String()); w != "" {
				t.Errorf("reviewls %s uses the internal term %q:\n%s", strings.Join(args, " "), w, stdout.String())
			}
		})
	}
}

// TestUsageColumns checks that the command list of reviewls -h starts
// every summary at the same column, whatever the longest name.
func TestUsageColumns(t *testing.T) {
	var b bytes.Buffer
	usage(&b)
	_, list, ok := strings.Cut(b.String(), "Commands:\n")
	if !ok {
		t.Fatalf("no command list in:\n%s", b.String())
	}
	list, _, _ = strings.Cut(list, "\n\n")
	col := -1
	for _, line := range strings.Split(list, "\n") {
		name := strings.Fields(line)[0]
		c := strings.Index(line, name) + len(name)
		c += len(line[c:]) - len(strings.TrimLeft(line[c:], " "))
		if c-strings.Index(line, name)-len(name) < 2 {
			t.Errorf("%q: fewer than two spaces between the name and the summary", line)
		}
		if col >= 0 && c != col {
			t.Errorf("%q: summary at column %d, want %d as above", line, c, col)
		}
		col = c
	}
}

// TestReadmeCommands checks that the README's Use section shows every
// command.
func TestReadmeCommands(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, use, ok := strings.Cut(string(data), "\n## Use\n")
	if !ok {
		t.Fatal("README.md has no Use section")
	}
	use, _, _ = strings.Cut(use, "\n## ")
	for _, c := range commands() {
		if !regexp.MustCompile(`(?m)^reviewls ` + c.name + `\b`).MatchString(use) {
			t.Errorf("README.md's Use section does not show reviewls %s", c.name)
		}
	}
}
