package artifacts

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// QuotePath returns path p as git prints it to a terminal with
// core.quotePath=false: unchanged unless it holds a control character, a
// double quote or a backslash; then in double quotes, with C escapes (\t,
// \n, \", \\, ...) and three-digit octal for the other bytes (ESC is
// \033). Text in other scripts stays readable; bytes that are not UTF-8
// and the C1 controls (U+0080 to U+009F), which some terminals obey, are
// escaped too, as git's default core.quotePath=true escapes them, so no
// path can drive the terminal or fake a line of output. JSON outputs keep
// the exact name.
func QuotePath(p string) string {
	if !hasEscapes(p, true) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	escape(&b, p, true)
	b.WriteByte('"')
	return b.String()
}

// EscapeControls returns s with its control characters escaped as
// QuotePath escapes them, without quotes, except line feeds and tabs: for
// free text printed to a terminal (messages, reasons, markdown), where a
// file's content or name could otherwise carry an escape sequence.
func EscapeControls(s string) string {
	if !hasEscapes(s, false) {
		return s
	}
	var b strings.Builder
	escape(&b, s, false)
	return b.String()
}

// hasEscapes reports whether s holds something to escape; quotes and
// backslashes count only in a path.
func hasEscapes(s string, path bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, isControl(r) && (path || r != '\n' && r != '\t'):
			return true
		case path && (r == '"' || r == '\\'):
			return true
		}
		i += n
	}
	return false
}

// escape writes s to b, escaped (see QuotePath and EscapeControls).
func escape(b *strings.Builder, s string, path bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			octal(b, s[i])
		case isControl(r) && (path || r != '\n' && r != '\t'):
			if e, ok := cEscapes[r]; ok {
				b.WriteString(e)
			} else {
				for j := range n {
					octal(b, s[i+j])
				}
			}
		case path && (r == '"' || r == '\\'):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
}

// cEscapes are the escapes git's quote_c_style writes by name.
var cEscapes = map[rune]string{
	'\a': `\a`, '\b': `\b`, '\t': `\t`, '\n': `\n`, '\v': `\v`, '\f': `\f`, '\r': `\r`,
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || 0x80 <= r && r <= 0x9f }

func octal(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	s := strconv.FormatInt(int64(c), 8)
	b.WriteString(strings.Repeat("0", 3-len(s)) + s)
}
