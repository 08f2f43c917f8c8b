package artifacts

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuotePath returns path p as git prints it to a terminal with
// core.quotePath=false: unchanged unless it holds a control character, a
// double quote or a backslash; then in double quotes, with C escapes (\t,
// \n, \", \\, ...) and three-digit octal for the other bytes (ESC is
// \033). Text in other scripts stays readable; bytes that are not UTF-8
// and the C1 controls (U+0080 to U+009F), which some terminals obey, are
// escaped too, as git's default core.quotePath=true escapes them, so no
// path can drive the terminal or fake a line of output. So are the
// invisible format characters that make text read other than it is
// (isFormat): a right-to-left override shows as \u202e, not as a name
// printed backwards. JSON outputs keep the exact name.
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

// EscapeControls returns s with its control and format characters
// escaped as QuotePath escapes them, without quotes, except line feeds and
// tabs: for free text printed to a terminal (messages, reasons, markdown),
// where a file's content or name could otherwise carry an escape sequence
// or reorder what the reader sees (Trojan Source).
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
		case r == utf8.RuneError && n == 1, isControl(r) && (path || r != '\n' && r != '\t'), isFormat(s, i, r, n):
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
		case isFormat(s, i, r, n):
			if r > 0xffff {
				fmt.Fprintf(b, `\U%08x`, r)
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
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

// isFormat reports whether r, n bytes at s[i], is an invisible character
// that can make text read other than it is, to be shown as an escape: the
// Unicode format characters (category Cf: bidirectional embeddings,
// overrides, isolates and marks, zero-width spaces, the soft hyphen, tag
// characters) and the line and paragraph separators. Two are kept where
// they do their job: the zero-width non-joiner and joiner between
// non-ASCII characters (Persian and Indic words, emoji sequences); next to
// ASCII or at an edge they only disguise a name. The visible prepended
// number marks of Arabic and other scripts are Cf too, and are kept.
func isFormat(s string, i int, r rune, n int) bool {
	switch {
	case r < 0xad:
		return false
	case r == 0x2028 || r == 0x2029:
		return true
	case !unicode.Is(unicode.Cf, r) || unicode.Is(prependedMarks, r):
		return false
	case r == 0x200c || r == 0x200d:
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+n:])
		return before < utf8.RuneSelf || after < utf8.RuneSelf
	}
	return true
}

// prependedMarks are the format characters that show as a sign before a
// number (Unicode's Prepended_Concatenation_Mark).
var prependedMarks = &unicode.RangeTable{R16: []unicode.Range16{
	{Lo: 0x0600, Hi: 0x0605, Stride: 1}, {Lo: 0x06dd, Hi: 0x06dd, Stride: 1}, {Lo: 0x070f, Hi: 0x070f, Stride: 1},
	{Lo: 0x0890, Hi: 0x0891, Stride: 1}, {Lo: 0x08e2, Hi: 0x08e2, Stride: 1},
}, R32: []unicode.Range32{{Lo: 0x110bd, Hi: 0x110bd, Stride: 1}, {Lo: 0x110cd, Hi: 0x110cd, Stride: 1}}}

func octal(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	s := strconv.FormatInt(int64(c), 8)
	b.WriteString(strings.Repeat("0", 3-len(s)) + s)
}
