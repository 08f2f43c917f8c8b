package lens

import (
	"strings"

	"github.com/reviewls/reviewls/review"
)

// Syntax is a language's comment syntax.
type Syntax struct {
	// Line starts a comment that runs to the end of the line ("//", "#").
	Line string
	// BlockStart and BlockEnd delimit block comments ("/*", "*/").
	BlockStart, BlockEnd string
	// Quotes are the string delimiters whose contents are not comments.
	Quotes string
	// Triple enables Python's triple-quoted strings.
	Triple bool
}

// CommentSyntax returns the comment syntax of lang. Unknown languages get a
// permissive syntax that recognises "#" and "//" line comments, so the
// language-neutral rules still find TODOs in them.
func CommentSyntax(lang string) Syntax {
	switch lang {
	case review.LangGo, review.LangJavaScript, review.LangJSX, review.LangTypeScript, review.LangTSX,
		review.LangJava, review.LangRust, review.LangC, review.LangCPP, review.LangCSharp, review.LangGoMod:
		return Syntax{Line: "//", BlockStart: "/*", BlockEnd: "*/", Quotes: "\"'`"}
	case review.LangPython:
		return Syntax{Line: "#", Quotes: "\"'", Triple: true}
	case review.LangShell, review.LangYAML, review.LangActions, review.LangDockerfile, review.LangRuby,
		review.LangTOML, review.LangMakefile:
		return Syntax{Line: "#", Quotes: "\"'"}
	case review.LangHTML, review.LangMarkdown:
		return Syntax{BlockStart: "<!--", BlockEnd: "-->"}
	case review.LangVue, review.LangSvelte:
		return Syntax{Line: "//", BlockStart: "<!--", BlockEnd: "-->", Quotes: "\"'`"}
	case review.LangSQL:
		return Syntax{Line: "--", BlockStart: "/*", BlockEnd: "*/", Quotes: "'"}
	case review.LangJSON, review.LangText:
		return Syntax{}
	}
	return Syntax{Line: "#", Quotes: "\"'"}
}

// IgnoreComment returns the text of an inline ignore comment for rule in
// lang, without indentation: "// reviewls:ignore <rule> <reason>".
func IgnoreComment(lang, rule, reason string) string {
	s := CommentSyntax(lang)
	body := "reviewls:ignore " + rule + " " + reason
	switch {
	case s.Line != "":
		return s.Line + " " + body
	case s.BlockStart != "":
		return s.BlockStart + " " + body + " " + s.BlockEnd
	}
	return "# " + body
}

// Comment is the comment text found on one line.
type Comment struct {
	// Text is the comment's content without its delimiters.
	Text string
	// Col is the 1-based byte column where the comment (or its continuation
	// on this line) starts.
	Col int
}

type commentsKey struct{}

// Comments returns, for each line of f (index i = line i+1), the comment
// text on that line, or a zero Comment. It follows block comments and
// multi-line strings across lines, so text inside a string literal is never
// mistaken for a comment.
func Comments(f *review.File) []Comment {
	return f.Memo(commentsKey{}, func() any { return scanComments(Lines(f), CommentSyntax(f.Language)) }).([]Comment)
}

// scanComments is a small lexer: it tracks strings and block comments
// across lines and records comment text per line.
func scanComments(lines []string, syn Syntax) []Comment {
	out := make([]Comment, len(lines))
	inBlock := false
	var quote string // open multi-line string delimiter, if any
	for i, line := range lines {
		var text strings.Builder
		col := 0
		j := 0
		mark := func(at int) {
			if col == 0 {
				col = at + 1
			}
		}
		for j < len(line) {
			switch {
			case inBlock:
				mark(j)
				end := strings.Index(line[j:], syn.BlockEnd)
				if end < 0 {
					text.WriteString(line[j:])
					j = len(line)
					continue
				}
				text.WriteString(line[j : j+end])
				j += end + len(syn.BlockEnd)
				inBlock = false
			case quote != "":
				end := indexUnescaped(line[j:], quote)
				if end < 0 {
					j = len(line)
					continue
				}
				j += end + len(quote)
				quote = ""
			case syn.Line != "" && strings.HasPrefix(line[j:], syn.Line):
				mark(j)
				if text.Len() > 0 {
					text.WriteByte(' ')
				}
				text.WriteString(line[j+len(syn.Line):])
				j = len(line)
			case syn.BlockStart != "" && strings.HasPrefix(line[j:], syn.BlockStart):
				mark(j)
				j += len(syn.BlockStart)
				inBlock = true
			case syn.Triple && (strings.HasPrefix(line[j:], `"""`) || strings.HasPrefix(line[j:], `'''`)):
				q := line[j : j+3]
				j += 3
				end := strings.Index(line[j:], q)
				if end < 0 {
					quote = q
					j = len(line)
					continue
				}
				j += end + 3
			case strings.IndexByte(syn.Quotes, line[j]) >= 0:
				q := line[j : j+1]
				end := indexUnescaped(line[j+1:], q)
				if end < 0 {
					if q == "`" { // Go raw strings and JS templates span lines
						quote = q
					}
					j = len(line)
					continue
				}
				j += 1 + end + 1
			default:
				j++
			}
		}
		if col > 0 {
			out[i] = Comment{Text: text.String(), Col: col}
		}
	}
	return out
}

// indexUnescaped returns the index of the first q in s not preceded by an
// odd number of backslashes, or -1.
func indexUnescaped(s, q string) int {
	for i := 0; i+len(q) <= len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], q) {
			return i
		}
	}
	return -1
}

// QuoteEnd returns the index of the quote that closes the string opened by
// the quote at line[i], skipping backslash escapes, or -1 when the line
// does not close it.
func QuoteEnd(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return -1
}
