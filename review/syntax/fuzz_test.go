package syntax

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// commentSyntaxes are the distinct comment syntaxes of CommentSyntax.
var commentSyntaxes = func() []review.CommentSyntax {
	var out []review.CommentSyntax
	for _, lang := range []review.Language{review.LangGo, review.LangPython, review.LangShell, review.LangHTML,
		review.LangVue, review.LangSQL, review.LangJSON} {
		if s := CommentSyntax(lang); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}()

// subsequence reports whether the bytes of s appear in line in order.
func subsequence(s, line string) bool {
	j := 0
	for i := 0; i < len(line) && j < len(s); i++ {
		if line[i] == s[j] {
			j++
		}
	}
	return j == len(s)
}

// FuzzScanComments checks the comment scanner of every syntax: one entry
// per line, a column on the line, text taken from the line, and a scan
// that reads forward only (the comments of a prefix of the lines are those
// of the whole file).
func FuzzScanComments(f *testing.F) {
	for _, s := range []string{"", "/*", "'''\n#", "`\n//", "<!-- a\n-->", "a = '\\' // b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := review.SplitLines(data)
		for _, syn := range commentSyntaxes {
			got := scanComments(lines, syn)
			if len(got) != len(lines) {
				t.Fatalf("%+v: %d comments for %d lines", syn, len(got), len(lines))
			}
			for i, c := range got {
				// A line inside a block comment is comment from its first
				// column, which on an empty line is just past its end.
				if c.Col == 0 && c.Text != "" || c.Col < 0 || c.Col > len(lines[i])+1 ||
					c.Col == len(lines[i])+1 && c.Text != "" || len(c.Text) > len(lines[i]) {
					t.Fatalf("%+v: line %d %q: comment %+v", syn, i+1, lines[i], c)
				}
				if !subsequence(strings.ReplaceAll(c.Text, " ", ""), lines[i]) {
					t.Fatalf("%+v: line %d %q: comment %q is not text of the line", syn, i+1, lines[i], c.Text)
				}
			}
			half := len(lines) / 2
			if prefix := scanComments(lines[:half], syn); !slices.Equal(prefix, got[:half]) {
				t.Fatalf("%+v: the first %d lines scan differently alone", syn, half)
			}
		}
		// The exported entry point reads the same lines.
		file := &review.File{Path: "f.py", Language: review.LangPython, Content: bytes.Clone(data)}
		if c := Comments(file); len(c) != len(lines) {
			t.Fatalf("Comments: %d entries for %d lines", len(c), len(lines))
		}
	})
}

// FuzzScanPython checks the masked code (same length, only string and
// comment bytes blanked, line breaks kept), the string literals (in order,
// each a prefix and a quote), the lines and the defs of a Python file.
func FuzzScanPython(f *testing.F) {
	for _, s := range []string{"", "'''", "f'{", "def f(:\n", "x = (\\\n", "b'\\", "# c\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := string(data)
		py := ParsePython(src)
		if len(py.Code) != len(src) {
			t.Fatalf("code has %d bytes, source %d", len(py.Code), len(src))
		}
		inString := make([]bool, len(src))
		prev := 0
		for _, s := range py.Strings {
			if s.Off < prev || s.End <= s.Off || s.End > len(src) {
				t.Fatalf("string [%d,%d) after %d of %d bytes", s.Off, s.End, prev, len(src))
			}
			body := strings.TrimLeft(src[s.Off:s.End], "rRbBuUfF")
			if body == "" || body[0] != '"' && body[0] != '\'' || s.End-s.Off-len(body) > 2 {
				t.Fatalf("string %q", src[s.Off:s.End])
			}
			for k := s.Off; k < s.End; k++ {
				inString[k] = true
			}
			prev = s.End
		}
		for i := 0; i < len(src); i++ {
			if py.Code[i] == src[i] {
				continue
			}
			if py.Code[i] != ' ' || src[i] == '\n' {
				t.Fatalf("offset %d: code %q for source %q", i, py.Code[i], src[i])
			}
			if inString[i] {
				continue
			}
			// A masked byte outside strings is in a comment: a "#" on its
			// line starts a masked run that reaches it.
			k := i
			for k > 0 && src[k] != '#' && py.Code[k-1] == ' ' && !inString[k-1] && src[k-1] != '\n' {
				k--
			}
			if src[k] != '#' {
				t.Fatalf("offset %d: %q masked outside strings and comments", i, src[i])
			}
		}
		lines := strings.Count(strings.TrimSuffix(src, "\n"), "\n") + 1
		if src == "" {
			lines = 0
		}
		if len(py.Lines) != lines {
			t.Fatalf("%d lines, want %d", len(py.Lines), lines)
		}
		for n := 1; n <= lines; n++ {
			if l := py.Lines[n-1]; l.Logical && l.Blank || l.Indent < 0 {
				t.Fatalf("line %d: %+v", n, l)
			}
			if got := py.LineOf(py.Offset(n)); got != n {
				t.Fatalf("LineOf(Offset(%d)) = %d", n, got)
			}
			if py.Lines[n-1].Logical {
				if end := py.BlockEnd(n); end < n || end > lines {
					t.Fatalf("BlockEnd(%d) = %d", n, end)
				}
				for _, s := range py.Statements(n) {
					if s <= n || s > lines || !py.Lines[s-1].Logical {
						t.Fatalf("Statements(%d) holds %d", n, s)
					}
				}
			}
		}
		for _, fn := range py.Funcs {
			if fn.Line < 1 || fn.Line > lines || !(fn.Open < fn.Close && fn.Close < fn.Colon && fn.Colon < len(src)) ||
				py.Code[fn.Open] != '(' || !strings.Contains(")]}", py.Code[fn.Close:fn.Close+1]) || py.Code[fn.Colon] != ':' ||
				py.Match(fn.Open) != fn.Close || fn.Body < fn.Line || fn.End < fn.Body || fn.End > lines {
				t.Fatalf("def %+v", fn)
			}
			if got := py.FuncAt(fn.Line); got == nil || got.Line < fn.Line {
				t.Fatalf("FuncAt(%d) = %+v, want %s or one inside it", fn.Line, got, fn.Name)
			}
			for _, a := range py.Args(fn.Open) {
				if a.Off < fn.Open || a.Off >= a.End || a.End > fn.Close || a.Value < a.Off || a.Value > a.End {
					t.Fatalf("def %s: argument %+v", fn.Name, a)
				}
				py.Literal(a.Value, a.End)
			}
		}
		for _, m := range py.Main {
			if m[0] < 1 || m[1] < m[0] || m[1] > lines {
				t.Fatalf("main block %v", m)
			}
		}
		for _, s := range py.Strings {
			py.Literal(s.Off, s.End)
		}
	})
}

// markupLangs are the languages ScanMarkup scans differently.
var markupLangs = []review.Language{review.LangHTML, review.LangTSX, review.LangVue, review.LangSvelte}

// FuzzScanMarkup checks the tags of every markup language: in source
// order, spans in bounds and starting at "<", names as written, positions
// that agree with Pos, a consistent element tree, and attributes inside
// their tag whose values are the source between their bounds.
func FuzzScanMarkup(f *testing.F) {
	for _, s := range []string{"", "<", "<a", "<a b='", "<a {...p}", "<x>{<y/>}</x>", "<script>", "{#if a}<b>{/if}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := string(data)
		for _, lang := range markupLangs {
			m := ScanMarkup(lang, data)
			prev := -1
			for i := range m.Tags {
				tg := &m.Tags[i]
				if tg.Start <= prev || tg.NameEnd < tg.Start+1 || tg.NameEnd > tg.End || tg.End > len(src) ||
					src[tg.Start] != '<' || src[tg.Start+1:tg.NameEnd] != tg.Name {
					t.Fatalf("%s: tag %d %q at [%d,%d) name end %d after %d", lang, i, tg.Name, tg.Start, tg.End, tg.NameEnd, prev)
				}
				prev = tg.Start
				if l, c := m.Pos(tg.Start); l != tg.Line || c != tg.Col {
					t.Fatalf("%s: tag %d at %d:%d, Pos says %d:%d", lang, i, tg.Line, tg.Col, l, c)
				}
				if tg.EndLine < tg.Line || tg.EndCol < 1 {
					t.Fatalf("%s: tag %d ends at %d:%d", lang, i, tg.EndLine, tg.EndCol)
				}
				if tg.Last < i || tg.Last >= len(m.Tags) || tg.Parent >= i ||
					tg.Parent >= 0 && m.Tags[tg.Parent].Last < tg.Last {
					t.Fatalf("%s: tag %d: parent %d, last %d", lang, i, tg.Parent, tg.Last)
				}
				for j := i + 1; j <= tg.Last; j++ {
					if p := m.Tags[j].Parent; p < i || p >= j {
						t.Fatalf("%s: tag %d inside %d has parent %d", lang, j, i, p)
					}
				}
				from := tg.NameEnd
				for _, a := range tg.Attrs {
					if a.Start < from || a.Start > a.ValStart || a.ValStart > a.ValEnd || a.ValEnd > a.End || a.End > tg.End {
						t.Fatalf("%s: tag %d %q: attribute %+v after %d", lang, i, tg.Name, a, from)
					}
					from = a.End
					v := src[a.ValStart:a.ValEnd]
					if a.Kind != AttrBool && a.Value != v && a.Value != strings.TrimSpace(v) {
						t.Fatalf("%s: attribute %q value %q, source %q", lang, a.Name, a.Value, v)
					}
					if a.Key != strings.ToLower(a.Key) {
						t.Fatalf("%s: attribute key %q", lang, a.Key)
					}
					a.Static()
				}
				tg.True("muted")
			}
		}
	})
}

// lexLangs are the languages with a tokenizer syntax.
var lexLangs = []review.Language{
	review.LangGo, review.LangJavaScript, review.LangTSX, review.LangJava, review.LangC, review.LangRust,
	review.LangPython, review.LangRuby, review.LangShell,
}

// isLexSpace reports the bytes the lexer skips: white space and control
// characters.
func isLexSpace(r rune) bool { return r <= ' ' }

// FuzzLex checks the tokenizer of every syntax: tokens and comments
// together cover the input in order with only white space (and control
// characters) between them (after a "#!" line), none is empty, token
// lines and line-break flags agree with the line starts and the breaks
// between tokens, and bracket matches are symmetric, of one kind and
// nested. The renderings built on the tokens must not panic.
func FuzzLex(f *testing.F) {
	for _, s := range []string{"", "#!/bin/sh\necho", "/* /* */", "r#\"", "'\\u{", "`${`${", "\"\"\"", "a$#b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		starts := LineStarts(src)
		if len(starts) != bytes.Count(src, []byte("\n"))+1 {
			t.Fatalf("%d line starts for %d line breaks", len(starts), bytes.Count(src, []byte("\n")))
		}
		for _, lang := range lexLangs {
			lx := Lex(src, lang.Info().Tokens)
			pos := 0
			if bytes.HasPrefix(src, []byte("#!")) {
				if k := bytes.IndexByte(src, '\n'); k >= 0 {
					pos = k
				} else {
					pos = len(src)
				}
			}
			ti, ci := 0, 0
			lastEnd := 0 // the end of the last token
			for ti < len(lx.Toks) || ci < len(lx.Comments) {
				var off, end int
				isTok := ci >= len(lx.Comments) || ti < len(lx.Toks) && lx.Toks[ti].Off < lx.Comments[ci].Off
				if isTok {
					tk := lx.Toks[ti]
					off, end = int(tk.Off), int(tk.End)
					nl := ti == 0 || bytes.IndexByte(src[lastEnd:off], '\n') >= 0
					if want := int32(OffsetLine(starts, off)); tk.Line != want || tk.NL != nl {
						t.Fatalf("%s: token %d %q: line %d nl %v, want line %d nl %v", lang, ti, lx.Text(ti), tk.Line, tk.NL, want, nl)
					}
					lastEnd = end
					if c := lx.Col(ti); c < 1 || c > off+1 {
						t.Fatalf("%s: token %d: column %d", lang, ti, c)
					}
					ti++
				} else {
					c := lx.Comments[ci]
					off, end = int(c.Off), int(c.End)
					if text := src[off:end]; c.Line && !bytes.HasPrefix(text, []byte(lx.Syn.LineComment)) ||
						!c.Line && !bytes.HasPrefix(text, []byte("/*")) || c.Line && bytes.IndexByte(text, '\n') >= 0 {
						t.Fatalf("%s: comment %q (line comment %v)", lang, text, c.Line)
					}
					ci++
				}
				if off < pos || end <= off || end > len(src) {
					t.Fatalf("%s: span [%d,%d) after %d of %d bytes", lang, off, end, pos, len(src))
				}
				if gap := bytes.TrimFunc(src[pos:off], isLexSpace); len(gap) > 0 {
					t.Fatalf("%s: bytes %q at %d are neither token, comment nor space", lang, gap, pos)
				}
				pos = end
			}
			if gap := bytes.TrimFunc(src[pos:], isLexSpace); len(gap) > 0 {
				t.Fatalf("%s: bytes %q at the end are neither token, comment nor space", lang, gap)
			}
			n := len(lx.Toks)
			var open []int // matched openers not yet closed
			for i := range n {
				switch m := lx.Match(i); {
				case m < 0:
				case m >= n || lx.Match(m) != i:
					t.Fatalf("%s: token %d matches %d, which matches %d", lang, i, m, lx.Match(m))
				case m > i:
					if pair := lx.Text(i) + lx.Text(m); pair != "()" && pair != "[]" && pair != "{}" {
						t.Fatalf("%s: tokens %d and %d pair %q", lang, i, m, pair)
					}
					open = append(open, i)
				case len(open) == 0 || open[len(open)-1] != m:
					t.Fatalf("%s: pair %d-%d crosses another", lang, m, i)
				default:
					open = open[:len(open)-1]
				}
				if e := lx.EndLine(i); e < lx.Line(i) {
					t.Fatalf("%s: token %d ends on line %d before its line %d", lang, i, e, lx.Line(i))
				}
			}
			lx.Head(0, n)
			lx.Join(n/2, n)
			lx.DocBefore(len(src))
			if n > 0 {
				lx.DocBefore(int(lx.Toks[n/2].Off))
			}
		}
	})
}

// FuzzShellCommands checks the command lines of a shell-like file: they
// partition its lines in order, each joins the comment-free code of its
// lines, the masked code differs from it only by blanks after a quote, and
// every offset maps back to one of the command's lines.
func FuzzShellCommands(f *testing.F) {
	for _, s := range []string{"", "echo a \\\n  b # c\n", "RUN apt-get update && \\\n    apt-get install -y curl\n", "x='\\\n", "\"$(a \"b\")\"", "\\"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := &review.File{Path: "run.sh", Language: review.LangShell, Content: data}
		lines := file.TextLines()
		next := 1
		for _, c := range ShellCommands(file) {
			if c.Start != next || c.End < c.Start || c.End > len(lines) || len(c.offs) != c.End-c.Start+1 {
				t.Fatalf("command %d-%d (%d offsets) after line %d of %d", c.Start, c.End, len(c.offs), next-1, len(lines))
			}
			next = c.End + 1
			var parts []string
			for n := c.Start; n <= c.End; n++ {
				code := StripShellComment(lines[n-1])
				if !strings.HasPrefix(lines[n-1], code) {
					t.Fatalf("line %d %q: code %q is not its start", n, lines[n-1], code)
				}
				if n < c.End && !strings.HasSuffix(code, "\\") {
					t.Fatalf("line %d %q joins the next without a continuation", n, lines[n-1])
				}
				parts = append(parts, strings.TrimSuffix(code, "\\"))
			}
			if want := strings.Join(parts, " "); c.Text != want {
				t.Fatalf("command %d-%d: text %q, want %q", c.Start, c.End, c.Text, want)
			}
			if len(c.Code) != len(c.Text) {
				t.Fatalf("command %d-%d: code %q, text %q", c.Start, c.End, c.Code, c.Text)
			}
			for i := range len(c.Text) {
				// A blanked byte follows a quote that opens a string.
				if c.Code[i] != c.Text[i] && (c.Code[i] != ' ' || !strings.ContainsAny(c.Code[:i], `"'`)) {
					t.Fatalf("command %d-%d: code %q, text %q differ at %d", c.Start, c.End, c.Code, c.Text, i)
				}
			}
			prev := c.Start
			for off := 0; off <= len(c.Text); off++ {
				if n := c.Line(off); n < prev || n > c.End {
					t.Fatalf("command %d-%d: offset %d on line %d after %d", c.Start, c.End, off, n, prev)
				} else {
					prev = n
				}
			}
		}
		if next != len(lines)+1 {
			t.Fatalf("commands end at line %d of %d", next-1, len(lines))
		}
	})
}
