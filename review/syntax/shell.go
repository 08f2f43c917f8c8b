package syntax

import (
	"strings"

	"github.com/reviewls/reviewls/review"
)

// ShellCommand is one command line of a shell-like file (a script, a
// Dockerfile, a workflow's run steps, a Makefile): physical lines Start..End joined at
// their backslash continuations, comments removed.
type ShellCommand struct {
	Start, End int
	// Text is the joined command; Code is Text with the contents of quoted
	// strings blanked, except double-quoted strings that hold a command
	// substitution.
	Text, Code string
	// offs[i] is the offset in Text where physical line Start+i begins.
	offs []int
}

// Line returns the physical line that holds offset off of Text.
func (c *ShellCommand) Line(off int) int {
	n := c.Start
	for i, o := range c.offs {
		if o <= off {
			n = c.Start + i
		}
	}
	return n
}

var shellCommandsOf review.Memo[[]ShellCommand]

// ShellCommands returns the command lines of a shell-like file, memoised
// on f.
func ShellCommands(f *review.File) []ShellCommand {
	return shellCommandsOf.Of(f, func() []ShellCommand {
		var out []ShellCommand
		var cur *ShellCommand
		for i, line := range f.TextLines() {
			code := StripShellComment(line)
			cont := strings.HasSuffix(code, "\\")
			code = strings.TrimSuffix(code, "\\")
			if cur == nil {
				out = append(out, ShellCommand{Start: i + 1, End: i + 1, Text: code, offs: []int{0}})
				cur = &out[len(out)-1]
			} else {
				cur.End = i + 1
				cur.Text += " "
				cur.offs = append(cur.offs, len(cur.Text))
				cur.Text += code
			}
			if !cont {
				cur = nil
			}
		}
		for i := range out {
			out[i].Code = MaskShellQuotes(out[i].Text)
		}
		return out
	})
}

// StripShellComment removes a trailing comment: a "#" that starts a word
// outside quotes. Trailing space is trimmed.
func StripShellComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimRight(line[:i], " \t")
		}
	}
	return strings.TrimRight(line, " \t")
}

// MaskShellQuotes blanks the contents of quoted strings, keeping the
// quotes, so words inside an echo or a message are not taken for
// commands. A double-quoted string holding $( is kept: it runs a command.
func MaskShellQuotes(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' {
			i++
			continue
		}
		if c != '\'' && c != '"' {
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != c {
			if b[j] == '\\' && c == '"' {
				j++
			}
			j++
		}
		end := min(j, len(b))
		if c == '"' && strings.Contains(s[i:end], "$(") {
			i = end
			continue
		}
		for k := i + 1; k < end; k++ {
			b[k] = ' '
		}
		i = end
	}
	return string(b)
}
