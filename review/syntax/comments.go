package syntax

import (
	"strings"

	"github.com/reviewls/reviewls/review"
)

// CommentSyntax returns the comment syntax of lang, its row of the
// language table. Unknown languages get a permissive syntax that
// recognises "#" line comments, so the language-neutral rules still find
// TODOs in them.
func CommentSyntax(lang review.Language) review.CommentSyntax { return lang.Info().Comments }

// IgnoreComment returns the text of an inline ignore comment for rule in
// lang, without indentation: "// reviewls:ignore <rule> <reason>".
func IgnoreComment(lang review.Language, rule, reason string) string {
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

// CommentPart is one comment on a line, or this line's piece of a block
// comment that spans lines. Offsets are 0-based bytes into the line.
type CommentPart struct {
	// From and To delimit the comment with its delimiters.
	From, To int
	// TextFrom and TextTo delimit its text, delimiters excluded.
	TextFrom, TextTo int
}

// commentScan is the memoised result of lexing a file's comments.
type commentScan struct {
	comments []Comment
	parts    [][]CommentPart
}

var commentsOf review.Memo[*commentScan]

// Comments returns, for each line of f (index i = line i+1), the comment
// text on that line, or a zero Comment. It follows block comments and
// multi-line strings across lines, so text inside a string literal is never
// mistaken for a comment.
func Comments(f *review.File) []Comment { return scanned(f).comments }

// CommentParts returns, for each line of f (index i = line i+1), the
// comments on that line one by one, in order; nil for a line without any.
// It is the lexing of [Comments], kept apart so a caller can tell two
// comments of one line apart and find what is code around them.
func CommentParts(f *review.File) [][]CommentPart { return scanned(f).parts }

func scanned(f *review.File) *commentScan {
	return commentsOf.Of(f, func() *commentScan {
		c, p := lexComments(f.TextLines(), CommentSyntax(f.Language))
		return &commentScan{comments: c, parts: p}
	})
}

// scanComments returns the comment text of each line.
func scanComments(lines []string, syn review.CommentSyntax) []Comment {
	c, _ := lexComments(lines, syn)
	return c
}

// lexComments is a small lexer: it tracks strings and block comments
// across lines and records, per line, the comment text and each comment's
// place.
func lexComments(lines []string, syn review.CommentSyntax) ([]Comment, [][]CommentPart) {
	out := make([]Comment, len(lines))
	parts := make([][]CommentPart, len(lines))
	inBlock := false
	var quote string // open multi-line string delimiter, if any
	raw := false     // the open string knows no escapes
	inTag := false   // inside a markup tag (Syntax.Tags)
	for i, line := range lines {
		var text strings.Builder
		col := 0
		j := 0
		mark := func(at int) {
			if col == 0 {
				col = at + 1
			}
		}
		// A block comment continued from the line above starts at 0.
		blockFrom, blockText := 0, 0
		for j < len(line) {
			switch {
			case inBlock:
				mark(j)
				end := strings.Index(line[j:], syn.BlockEnd)
				if end < 0 {
					text.WriteString(line[j:])
					parts[i] = append(parts[i], CommentPart{From: blockFrom, To: len(line), TextFrom: blockText, TextTo: len(line)})
					j = len(line)
					continue
				}
				text.WriteString(line[j : j+end])
				parts[i] = append(parts[i], CommentPart{From: blockFrom, To: j + end + len(syn.BlockEnd), TextFrom: blockText, TextTo: j + end})
				j += end + len(syn.BlockEnd)
				inBlock = false
			case quote != "":
				end := -1
				if raw {
					end = strings.Index(line[j:], quote)
				} else {
					end = indexUnescaped(line[j:], quote)
				}
				if end < 0 {
					j = len(line)
					continue
				}
				j += end + len(quote)
				quote, raw = "", false
			case inTag:
				switch c := line[j]; {
				case c == '>':
					inTag = false
				case strings.IndexByte(syn.Quotes, c) >= 0:
					// Attribute values know no escapes and may span lines.
					quote, raw = line[j:j+1], true
				}
				j++
			case syn.Tags && line[j] == '<' && j+1 < len(line) && (line[j+1] == '/' || isLetter(line[j+1])):
				inTag = true
				j++
			case syn.Line != "" && strings.HasPrefix(line[j:], syn.Line) && (syn.LineAfter == "" || j == 0 || strings.IndexByte(syn.LineAfter, line[j-1]) >= 0):
				mark(j)
				if text.Len() > 0 {
					text.WriteByte(' ')
				}
				text.WriteString(line[j+len(syn.Line):])
				parts[i] = append(parts[i], CommentPart{From: j, To: len(line), TextFrom: j + len(syn.Line), TextTo: len(line)})
				j = len(line)
			case syn.BlockStart != "" && strings.HasPrefix(line[j:], syn.BlockStart):
				mark(j)
				blockFrom, blockText = j, j+len(syn.BlockStart)
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
			case strings.IndexByte(syn.Raw, line[j]) >= 0:
				q := line[j : j+1]
				end := strings.Index(line[j+1:], q)
				if end < 0 {
					quote, raw = q, true
					j = len(line)
					continue
				}
				j += 1 + end + 1
			case !syn.Tags && strings.IndexByte(syn.Quotes, line[j]) >= 0:
				q := line[j : j+1]
				end := indexUnescaped(line[j+1:], q)
				if end < 0 {
					if q == "`" { // JS templates span lines
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
		if inBlock {
			// A block comment open at the end of the line: its piece here
			// ("/*" ending the line, or an empty line inside it) when the
			// loop above did not reach it.
			if n := len(parts[i]); n == 0 || parts[i][n-1].From != blockFrom || parts[i][n-1].To != len(line) {
				mark(blockFrom)
				parts[i] = append(parts[i], CommentPart{From: blockFrom, To: len(line), TextFrom: max(blockText, blockFrom), TextTo: len(line)})
			}
		}
		if col > 0 {
			out[i] = Comment{Text: text.String(), Col: col}
		}
	}
	return out, parts
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

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
