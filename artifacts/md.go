package artifacts

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// md builds a markdown document. Every piece of text goes through the
// redactor before it is escaped, so escaping can never split a secret and
// hide it from redaction; the finished document is redacted once more.
type md struct {
	buf bytes.Buffer
	red *review.Redactor
	// root is the path from where the document is read to the
	// repository's root, which its links to files start with.
	root string
}

// line writes one line; format and args follow fmt.Sprintf.
func (m *md) line(format string, args ...any) {
	fmt.Fprintf(&m.buf, format, args...)
	m.buf.WriteByte('\n')
}

// blank writes an empty line unless the document already ends with one.
func (m *md) blank() {
	b := m.buf.Bytes()
	if len(b) == 0 || bytes.HasSuffix(b, []byte("\n\n")) {
		return
	}
	m.buf.WriteByte('\n')
}

// heading starts a section.
func (m *md) heading(level int, text string) {
	m.blank()
	m.line("%s %s", strings.Repeat("#", level), strings.Join(strings.Fields(m.prose(text)), " "))
	m.blank()
}

// prose redacts s and keeps it on one paragraph's terms: angle brackets are
// escaped so that "Map<K>" is not taken for an HTML tag.
func (m *md) prose(s string) string {
	s = m.red.String(s)
	s = strings.ReplaceAll(s, "<", "&lt;")
	return s
}

// para writes s as a paragraph; blank lines inside s are kept.
func (m *md) para(s string) {
	s = strings.TrimSpace(m.prose(s))
	if s == "" {
		return
	}
	m.blank()
	m.line("%s", s)
	m.blank()
}

// bullet writes one list item; continuation lines are indented under it.
func (m *md) bullet(s string) {
	s = strings.TrimSpace(m.prose(s))
	m.line("- %s", strings.ReplaceAll(s, "\n", "\n  "))
}

// code renders s as an inline code span.
func (m *md) code(s string) string { return codeSpan(m.red.String(s)) }

// path renders a file path as an inline code span, quoted as git quotes
// it (see QuotePath), so a tab or a line break in a name stays visible.
func (m *md) path(p string) string { return m.code(QuotePath(p)) }

// fence writes s as a fenced code block tagged with lang.
func (m *md) fence(lang, s string) {
	s = strings.TrimRight(m.red.String(s), "\n")
	f := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	m.blank()
	m.line("%s%s", f, lang)
	m.line("%s", s)
	m.line("%s", f)
	m.blank()
}

// table writes a table; each cell is escaped (see cell).
func (m *md) table(header []string, rows [][]string) {
	m.blank()
	m.line("| %s |", strings.Join(header, " | "))
	seps := make([]string, len(header))
	for i := range seps {
		seps[i] = "---"
	}
	m.line("| %s |", strings.Join(seps, " | "))
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = cell(c)
		}
		m.line("| %s |", strings.Join(cells, " | "))
	}
	m.blank()
}

// bytes returns the document, redacted once more as a whole, with every
// control character but line feeds and tabs escaped (see EscapeControls):
// a file's name or content must not drive the terminal it is printed on.
func (m *md) bytes() []byte {
	out := bytes.TrimRight(m.buf.Bytes(), "\n")
	out = append(out, '\n')
	return []byte(EscapeControls(string(m.red.Bytes(out))))
}

// cell makes s safe inside a table cell: pipes are escaped (also inside
// code spans, as GFM requires) and line breaks become <br>. Callers redact
// and escape prose before building the cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", "<br>")
	if s == "" {
		return " "
	}
	return s
}

// codeSpan renders s as an inline code span whose backtick fence is longer
// than any backtick run inside it. Line breaks become spaces.
func codeSpan(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
	if s == "" {
		return ""
	}
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return f + s + f
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// repoRel is the path from a review folder back to the repository root:
// .copilot-tracking/reviews/code-reviews/<folder>/ is four levels deep.
const repoRel = "../../../../"

// fileLink renders an openable link to line of path (0: the file), relative
// to where the document is read (the review folder, unless printed), with
// "#L<line>" anchors that editors and forges understand.
func (m *md) fileLink(p string, line, end int) string {
	text := QuotePath(p)
	if line > 0 {
		text += ":" + strconv.Itoa(line)
		if end > line {
			text += "-" + strconv.Itoa(end)
		}
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	href := m.root + strings.Join(segs, "/")
	if line > 0 {
		href += "#L" + strconv.Itoa(line)
	}
	return "[" + m.code(text) + "](" + m.red.String(href) + ")"
}

// refLink renders a board link such as "src/auth.ts:42" as an openable
// link; anything else is shown as code.
func (m *md) refLink(ref string) string {
	p, ln, ok := strings.Cut(ref, ":")
	if ok {
		start, end, _ := strings.Cut(ln, "-")
		s, err1 := strconv.Atoi(start)
		e, err2 := strconv.Atoi(end)
		if err1 == nil && s > 0 {
			if err2 != nil {
				e = 0
			}
			return m.fileLink(p, s, e)
		}
	}
	if ref != "" && !strings.ContainsAny(ref, " \t") {
		return m.fileLink(ref, 0, 0)
	}
	return m.code(ref)
}

// joinCode renders items as a comma-separated list of code spans.
func (m *md) joinCode(items []string) string {
	out := make([]string, 0, len(items))
	for _, s := range items {
		if s != "" {
			out = append(out, m.code(s))
		}
	}
	return strings.Join(out, ", ")
}

// artifactLink matches a link of an artifact to a file of the repository,
// [`path:line`](../../../../path#Lline), as fileLink and the explainer
// write them.
var artifactLink = regexp.MustCompile("\\[`([^`\\]\n]+)`\\]\\((?:\\.\\./)+[^)\\s]*\\)")

// TerminalLinks rewrites the links of an artifact's markdown to the
// repository's files, relative to the review folder on disk, into the
// repository-relative path:line they show, for printing on a terminal: an
// editor or terminal opens "args.go:12" from the repository root, not
// "../../../../args.go#L12".
func TerminalLinks(markdown []byte) []byte {
	return artifactLink.ReplaceAll(markdown, []byte("$1"))
}
