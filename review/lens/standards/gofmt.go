package standards

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
	"unicode/utf8"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// Gofmt finds changed Go lines that gofmt would rewrite.
var Gofmt = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "standards/gofmt",
		Perspective: review.Standards,
		Category:    goCatFormatting,
		Severity:    review.SeverityLow,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthBasic,
		Skill:       goSkillGofmt,
		Fixable:     true,
		Summary:     "Not gofmt-formatted",
		Doc: "Go code is formatted by gofmt; Effective Go leaves layout to it, and most Go repositories check it in " +
			"CI. Unformatted lines (spaces for indentation, missing spaces around := or after commas, misaligned " +
			"struct fields or comments, `}else{`) fail that check and add whitespace noise to later diffs. Run " +
			"gofmt (or goimports) on the file; the fix replaces the file with gofmt's output. The rule reports " +
			"once per file, at the first changed line that gofmt would change; differences only on unchanged " +
			"lines are not reported, nor are blank lines at the end of the file. Files that do not parse are left " +
			"to the compiler. For speed, changed lines are first screened for the usual signs of unformatted code, " +
			"and gofmt runs only when one is present, so a rare layout difference without such a sign can go " +
			"unreported.",
		Bad:  "func add(a,b int) int{\n    return a+b\n}",
		Good: "func add(a, b int) int {\n\treturn a + b\n}",
	},
	Run: runGofmt,
}

func runGofmt(p *lens.Pass) {
	if len(p.File.Lines) == 0 {
		return
	}
	lines := p.Lines()
	if !fmtSuspect(p.File, lines) {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil || g.Err != nil {
		return
	}
	// format.Source, not format.Node on the shared parse: gofmt also sorts
	// the imports and drops duplicates, moving their comments.
	formatted, err := format.Source(p.File.Content)
	if err != nil || bytes.Equal(formatted, p.File.Content) {
		return
	}
	line := firstChangedDiff(p.File, lines, lens.SplitLines(formatted))
	if line == 0 {
		return
	}
	p.Report(lens.Report{
		Line: line,
		Message: fmt.Sprintf("gofmt would rewrite this line (and possibly others in %s): the file is not formatted, so a "+
			"gofmt check in CI fails and the next formatting pass adds unrelated whitespace changes to the history.", p.File.Path),
		Suggested: "Run gofmt -w (or goimports -w) on the file, or configure the editor to format on save.",
		Fix: &review.Fix{
			Title: "Format the file with gofmt",
			Edits: []review.TextEdit{{
				Span:    review.Span{Path: p.File.Path, StartLine: 1, EndLine: len(lines)},
				NewText: string(formatted),
			}},
		},
	})
}

// firstChangedDiff returns the first changed line of the original that the
// formatted version does not keep, ignoring blank lines at the end of the
// file; 0 when there is none.
func firstChangedDiff(f *review.File, orig, formatted []string) int {
	last := len(orig)
	for last > 0 && strings.TrimSpace(orig[last-1]) == "" {
		last--
	}
	for _, n := range unmatchedLines(orig, formatted) {
		if n > last {
			break
		}
		if f.Changed(n) {
			return n
		}
	}
	return 0
}

// maxDiffCost bounds the edit distance the line diff explores (its trace
// takes about maxDiffCost² ints); beyond it every line after the common
// prefix counts as differing, which still finds a changed line to report.
const maxDiffCost = 1000

// unmatchedLines returns, in increasing order, the 1-based numbers of the
// lines of a that a shortest edit script to b deletes (Myers' algorithm).
func unmatchedLines(a, b []string) []int {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(x), len(y)
	var out []int
	all := func() []int {
		for i := range x {
			out = append(out, pre+i+1)
		}
		return out
	}
	if n == 0 || m == 0 {
		return all()
	}
	maxD := min(n+m, maxDiffCost)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := false
	for d := 0; d <= maxD && !found; d++ {
		// trace[d] holds v[k] for k in [-d-1, d+1] before step d.
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				i = v[off+k+1] // down: insertion from y
			} else {
				i = v[off+k-1] + 1 // right: deletion from x
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i++
				j++
			}
			v[off+k] = i
			if i >= n && j >= m {
				found = true
				break
			}
		}
	}
	if !found {
		return all()
	}
	// Walk the trace back, collecting deletions from x.
	i, j := n, m
	for d := len(trace) - 1; d > 0; d-- {
		vd := func(k int) int { return trace[d][k+d+1] }
		k := i - j
		var prevK int
		if k == -d || k != d && vd(k-1) < vd(k+1) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevI := vd(prevK)
		prevJ := prevI - prevK
		for i > prevI && j > prevJ {
			i--
			j--
		}
		if prevK == k-1 {
			out = append(out, pre+prevI+1) // x[prevI] deleted
		}
		i, j = prevI, prevJ
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}

// fmtLine is what the screen learns about one line.
type fmtLine struct {
	// inside: the line starts inside a raw string or block comment.
	inside bool
	kind   cellKind
	tabs   int32
	// comment is the column (in runes) of a trailing // comment after a
	// complete line of code, or -1.
	comment int32
	// cell is the column (in runes) of the second aligned cell (a field's
	// type, a spec's type or =, a key's value), or -1; kind says which.
	cell int32
}

type cellKind uint8

const (
	noCell cellKind = iota
	fieldCell
	specCell
	keyCell
)

// fmtSuspect reports whether a changed line shows a sign of unformatted Go.
func fmtSuspect(f *review.File, lines []string) bool {
	n, _ := fmtScreen(f, lines)
	return n > 0
}

// fmtScreen screens the changed lines for the usual signs of unformatted
// Go, so the costly gofmt run happens only when one is present, and returns
// the first suspect line with the sign it shows, or 0. It follows strings,
// raw strings and comments across lines, tracks bracket depth to check
// indentation, and compares the alignment of neighbouring fields, specs,
// keyed values and trailing comments.
func fmtScreen(f *review.File, lines []string) (int, string) {
	var (
		inRaw, inBlock bool
		depth          int
		// levels holds the open indentation levels: the bracket depth at
		// the end of the line that opened each (closing below it ends the
		// level) and the indentation of the lines inside.
		levels    []fmtLevel
		blocks    []fmtBlock
		prevBlank bool
		// continued: the previous line of code ends with a binary operator
		// (or a case list with a comma), so this line continues an
		// expression and sits one tab right of contBase, the indentation
		// of the expression's first line.
		continued bool
		contBase  int
		caseList  bool // continued is a case list
	)
	changedLines := lens.ChangedLines(f)
	if len(changedLines) == 0 {
		return 0, ""
	}
	lastChanged := changedLines[len(changedLines)-1]
	info := make([]fmtLine, min(lastChanged+1, len(lines)))
	next := 0 // index in changedLines of the next changed line
	for idx := range info {
		line := lines[idx]
		n := idx + 1
		changed := next < len(changedLines) && changedLines[next] == n
		if changed {
			next++
		}
		startsInside := inRaw || inBlock
		tabs := 0
		for tabs < len(line) && line[tabs] == '\t' {
			tabs++
		}
		trimmed := line[tabs:]
		blank := len(trimBlanks(trimmed)) == 0
		if changed && !startsInside {
			switch {
			case blank && line != "":
				return n, "whitespace-only line"
			case blank && prevBlank:
				return n, "second blank line"
			case strings.HasPrefix(trimmed, " ") && !blank:
				return n, "spaces in the indentation"
			}
		}
		prevBlank = blank && !startsInside
		lineMin, startDepth := depth, depth
		var lastOpen byte
		poppedBase := -1         // base of the last level this line closed
		leading := !startsInside // still in the leading run of closers
		codeEnd := len(line)     // end of code before a line comment
		indentChecked := startsInside || blank
		checkIndent := func() bool {
			if indentChecked {
				return false
			}
			indentChecked = true
			want := 0
			if len(levels) > 0 {
				want = levels[len(levels)-1].indent
			}
			if continued {
				want = contBase + 1
			}
			switch {
			case strings.HasPrefix(trimmed, "case ") || strings.HasPrefix(trimmed, "default:"):
				want--
			case strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "/*"):
				return false // comments before a case sit at the case's level
			case isLabel(trimmed) && !continued:
				want--
			}
			return changed && tabs != want
		}
		closeBracket := func() {
			depth--
			for len(levels) > 0 && levels[len(levels)-1].end > depth {
				poppedBase = levels[len(levels)-1].base
				levels = levels[:len(levels)-1]
			}
			for len(blocks) > 0 && blocks[len(blocks)-1].depth > depth {
				blocks = blocks[:len(blocks)-1]
			}
			lineMin = min(lineMin, depth)
		}
		i := 0
		if leading {
			// A line that starts with closers is indented like the line
			// that opened the first of them.
			for ; i < len(line); i++ {
				c := line[i]
				if c == ' ' || c == '\t' {
					continue
				}
				if c != '}' && c != ')' && c != ']' {
					break
				}
				closeBracket()
				if checkIndent() {
					return n, "indentation"
				}
				if changed {
					if why := fmtSuspectAt(line, i, codeEnd); why != "" {
						return n, why
					}
				}
			}
			if i < len(line) {
				leading = false
				startDepth = depth
				if checkIndent() {
					return n, "indentation"
				}
			}
		}
		for ; i < len(line); i++ {
			c := line[i]
			switch {
			case inRaw:
				if c == '`' {
					inRaw = false
				}
				continue
			case inBlock:
				if c == '*' && i+1 < len(line) && line[i+1] == '/' {
					inBlock = false
					i++
				}
				continue
			}
			switch c {
			case '`':
				inRaw = true
				continue
			case '"', '\'':
				i = skipQuoted(line, i)
				continue
			case '/':
				if i+1 < len(line) && line[i+1] == '/' {
					codeEnd = i
					i = len(line)
				} else if i+1 < len(line) && line[i+1] == '*' {
					inBlock = true
					i++
				}
				continue
			case '{', '(', '[':
				depth++
				lastOpen = c
			case '}', ')', ']':
				closeBracket()
			case ',', ';', ':', ' ':
			default:
				continue
			}
			if changed {
				if why := fmtSuspectAt(line, i, codeEnd); why != "" {
					return n, why
				}
			}
		}
		if leading && checkIndent() {
			return n, "indentation"
		}
		if depth > lineMin && !inRaw {
			base := tabs
			switch {
			case poppedBase >= 0:
				base = poppedBase // "} else {", ") error {": the statement's line
			case continued && lastOpen == '{':
				base = contBase // the block of a multi-line if or for
			}
			levels = append(levels, fmtLevel{end: depth, base: base, indent: base + 1})
		}
		code := trimBlanks(line[:codeEnd])
		if strings.HasSuffix(code, "*/") && !inBlock {
			// A trailing block comment is not code.
			if k := strings.LastIndex(code, "/*"); k >= 0 {
				code = trimBlanks(code[:k])
			}
		}
		if changed && !inRaw && !blank && len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t') {
			return n, "trailing whitespace"
		}
		if changed && !inRaw && !inBlock && strings.HasSuffix(code, ";") {
			return n, "semicolon at the end of the line"
		}
		wasContinued := continued
		hasCode := len(code) > tabs
		if !blank && !startsInside && !inRaw && !inBlock && hasCode {
			caseList = (strings.HasPrefix(trimmed, "case ") || caseList && continued) && strings.HasSuffix(code, ",")
			ends := endsWithOperator(code) || caseList
			if ends && !continued {
				contBase = tabs
			}
			continued = ends
		}
		li := fmtLine{inside: startsInside, tabs: int32(tabs), comment: -1, cell: -1}
		// Lines that open a multi-line value, or continue an expression,
		// end gofmt's alignment sections.
		if !startsInside && !blank && depth <= lineMin && !inRaw && !inBlock && !continued && !wasContinued {
			if codeEnd < len(line) && hasCode {
				li.comment = int32(utf8.RuneCountInString(line[:codeEnd]))
			}
			kind := keyCell
			if len(blocks) > 0 && blocks[len(blocks)-1].depth == startDepth {
				kind = blocks[len(blocks)-1].kind
			}
			if col := cellColumn(code, tabs, kind); col >= 0 {
				li.cell, li.kind = int32(utf8.RuneCountInString(code[:col])), kind
			}
		}
		info[idx] = li
		// Blocks whose lines align: struct fields and grouped specs.
		if !startsInside && depth > lineMin {
			switch t := code[min(tabs, len(code)):]; {
			case strings.HasSuffix(t, "struct {"):
				blocks = append(blocks, fmtBlock{fieldCell, depth})
			case t == "const (" || t == "var (" || t == "type (":
				blocks = append(blocks, fmtBlock{specCell, depth})
			}
		}
	}
	for _, n := range changedLines {
		if n <= len(info) && misaligned(info, n-1) {
			return n, "alignment"
		}
	}
	return 0, ""
}

// trimBlanks removes trailing spaces and tabs.
func trimBlanks(s string) string {
	i := len(s)
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return s[:i]
}

// fmtLevel is an open indentation level: the bracket depth at the end of
// the line that opened it (closing below it ends the level), the
// indentation of that line, and the indentation of the lines inside.
type fmtLevel struct{ end, base, indent int }

type fmtBlock struct {
	kind  cellKind
	depth int
}

// misaligned reports a line whose aligned cell or trailing comment does not
// line up with a neighbour of the same shape, as gofmt would make it.
func misaligned(info []fmtLine, idx int) bool {
	a := info[idx]
	if a.inside {
		return false
	}
	for _, j := range []int{idx - 1, idx + 1} {
		if j < 0 || j >= len(info) {
			continue
		}
		b := info[j]
		if b.inside || b.tabs != a.tabs {
			continue
		}
		if a.comment >= 0 && b.comment >= 0 && a.comment != b.comment {
			return true
		}
		if a.kind != noCell && a.kind == b.kind && a.cell != b.cell {
			return true
		}
	}
	return false
}

// cellColumn returns the byte column of the second aligned cell of a line
// of code (after tabs of indentation), or -1: the value of `key: value`,
// the type of a field, or what follows the name of a grouped spec.
func cellColumn(code string, tabs int, kind cellKind) int {
	if len(code) <= tabs {
		return -1
	}
	s := code[tabs:]
	i := 0
	if kind == keyCell && strings.HasPrefix(s, `"`) {
		i = skipQuoted(s, 0) + 1
	} else {
		for i < len(s) && lens.GoIdentByte(s[i]) {
			i++
		}
	}
	if i == 0 || i >= len(s) {
		return -1
	}
	switch kind {
	case keyCell:
		if s[i] != ':' || i+1 >= len(s) || s[i+1] != ' ' || goKeyword(s[:i]) || strings.Count(s, ": ") > 1 {
			return -1 // not a key, or several keys on the line
		}
		i++
	case fieldCell, specCell:
		if s[i] != ' ' || goKeyword(s[:i]) {
			return -1
		}
	default:
		return -1
	}
	j := i
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) || kind == fieldCell && strings.IndexByte("=:(,.<+-/", s[j]) >= 0 {
		return -1
	}
	return tabs + j
}

func goKeyword(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
		"go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
		"switch", "type", "var":
		return true
	}
	return false
}

// fmtSuspectAt checks the code character at line[i] for spacing that gofmt
// never produces, and names it; it returns "" when there is none.
func fmtSuspectAt(line string, i, codeEnd int) string {
	if i >= codeEnd || i >= len(line) {
		return ""
	}
	next := byte('\n')
	if i+1 < codeEnd {
		next = line[i+1]
	}
	prev := byte('\n')
	if i > 0 {
		prev = line[i-1]
	}
	switch c := line[i]; c {
	case ' ':
		// A run of blanks inside code: gofmt aligns columns with them
		// after names (fields, specs, keyed values) and before trailing
		// comments, never after a keyword or a comma.
		if next != ' ' || prev == ' ' {
			return ""
		}
		j := i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j == len(line) || strings.HasPrefix(line[j:], "//") || strings.HasPrefix(line[j:], "/*") {
			return ""
		}
		if prev == ',' {
			return "blanks after ,"
		}
		w := i
		for w > 0 && (line[w-1] >= 'a' && line[w-1] <= 'z') {
			w--
		}
		if w < i && (w == 0 || !isIdentByte(line[w-1])) && goKeyword(line[w:i]) {
			return "blanks after " + line[w:i]
		}
	case ',', ';':
		if next != ' ' && next != '\n' {
			return fmt.Sprintf("no space after %q", c)
		}
		if prev == ' ' {
			// "for ; i < n; i++" and "for i := 0; ; i++" are gofmt's own.
			before := strings.TrimRight(line[:i], " ")
			if c == ';' && (strings.HasSuffix(before, ";") || keywordBefore(before, len(before), "for")) {
				return ""
			}
			return fmt.Sprintf("space before %q", c)
		}
	case ':':
		if next != '=' {
			return ""
		}
		after := byte('\n')
		if i+2 < codeEnd {
			after = line[i+2]
		}
		if prev != ' ' || after != ' ' && after != '\n' || i+3 < codeEnd && line[i+3] == ' ' || i > 1 && line[i-2] == ' ' {
			return "spacing around :="
		}
	case '{':
		if i >= 4 && line[i-4:i] == "else" || prev == ')' && statementHeader(line) {
			return "no space before {"
		}
	case '}':
		if strings.HasPrefix(line[i+1:], "else") {
			return "no space after }"
		}
	case '(':
		if next == ' ' {
			if rest := strings.TrimLeft(line[i+1:], " "); !strings.HasPrefix(rest, "//") && !strings.HasPrefix(rest, "/*") {
				return "space after ("
			}
		}
		if keywordBefore(line, i, "if") || keywordBefore(line, i, "for") || keywordBefore(line, i, "switch") {
			return "no space after keyword"
		}
	case ')':
		if prev == ' ' && strings.TrimSpace(line[:i]) != "" {
			return "space before )"
		}
	}
	return ""
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// statementHeader reports a line that starts a function, an if, for or
// switch statement, whose { gofmt always separates with a space (unlike
// the { of a composite literal of func type).
func statementHeader(line string) bool {
	t := strings.TrimLeft(line, "\t")
	for _, kw := range []string{"func ", "if ", "for ", "switch ", "} else "} {
		if strings.HasPrefix(t, kw) {
			return true
		}
	}
	return false
}

// endsWithOperator reports a line of code that ends with a binary operator
// or an assignment, so the expression continues on the next line.
func endsWithOperator(code string) bool {
	if code == "" {
		return false
	}
	switch code[len(code)-1] {
	case '+', '-', '*', '/', '%', '&', '|', '^', '<', '>', '=', '.':
		// "x++" and "x--" end statements.
		return !strings.HasSuffix(code, "++") && !strings.HasSuffix(code, "--")
	}
	return false
}

// keywordBefore reports whether the word kw ends right before line[i].
func keywordBefore(line string, i int, kw string) bool {
	j := i - len(kw)
	return j >= 0 && line[j:i] == kw && (j == 0 || !lens.GoIdentByte(line[j-1]))
}

// isLabel reports a line that is only a label ("retry:").
func isLabel(trimmed string) bool {
	name, ok := strings.CutSuffix(strings.TrimSpace(trimmed), ":")
	if !ok || name == "" || name == "default" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !lens.GoIdentByte(name[i]) {
			return false
		}
	}
	return true
}

// skipQuoted returns the index of the quote that closes the string or rune
// literal opened at line[i], or the last index of the line.
func skipQuoted(line string, i int) int {
	if j := syntax.QuoteEnd(line, i); j >= 0 {
		return j
	}
	return len(line) - 1
}
