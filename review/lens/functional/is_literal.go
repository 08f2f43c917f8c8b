package functional

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// IsLiteral finds Python identity comparisons with a literal.
var IsLiteral = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/is-literal",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangPython},
		Depth:       review.DepthBasic,
		Summary:     "Identity comparison with a literal",
		Doc: "`x is \"text\"` or `n is not 0` compares identity, not value: whether two equal strings, numbers or " +
			"bytes are the same object is an accident of the interpreter (small-int and string caches, constant " +
			"folding), so the test passes in a quick try and fails for values built at run time — read from a " +
			"file, joined, or larger than 256. CPython warns (`SyntaxWarning: \"is\" with a literal`). Compare with " +
			"`==` and `!=`; the fix does that. `is None`, `is True`, `is False` and `is ...` are identity tests on " +
			"singletons and are not reported.",
		Bad:     "if status is \"done\":",
		Good:    "if status == \"done\":",
		Fixable: true,
	},
	Run: runIsLiteral,
}

var isOpRE = regexp.MustCompile(`\bis(\s+not)?\b`)

func runIsLiteral(p *lens.Pass) {
	if !p.Contains(" is ") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, _ string) {
		code := py.CodeLine(n)
		for _, m := range isOpRE.FindAllStringSubmatchIndex(code, -1) {
			if literalAfter(code[m[1]:]) || literalBefore(code[:m[0]]) {
				report(p, n, m[0], m[1], m[2] >= 0)
			}
		}
	})
}

// literalAfter reports a str, bytes or number literal at the start of s
// (after spaces), in masked code where a string keeps its prefix and
// quotes.
func literalAfter(s string) bool {
	s = strings.TrimLeft(s, " \t")
	s = strings.TrimPrefix(s, "-")
	i := 0
	for i < len(s) && i < 2 && strings.IndexByte("rRbBuUfF", s[i]) >= 0 {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		return true
	}
	return s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '.' && len(s) > 1 && s[1] >= '0' && s[1] <= '9')
}

// literalBefore reports a str, bytes or number literal at the end of s
// (before spaces).
func literalBefore(s string) bool {
	s = strings.TrimRight(s, " \t")
	if s == "" {
		return false
	}
	if c := s[len(s)-1]; c == '"' || c == '\'' {
		return true
	}
	j := len(s)
	for j > 0 && (syntax.PyIdentByte(s[j-1]) || s[j-1] == '.') {
		j--
	}
	word := s[j:]
	return word != "" && word[0] >= '0' && word[0] <= '9'
}

// report reports the operator code[from:to] of line n ("is" or "is not").
func report(p *lens.Pass, n, from, to int, not bool) {
	op, repl := "is", "=="
	if not {
		op, repl = "is not", "!="
	}
	p.Report(lens.Report{
		Line: n, Col: from + 1, EndCol: to + 1,
		Message: fmt.Sprintf("`%s` compares identity with a literal: equal values built at run time are often "+
			"different objects, so the test fails where it seems to pass.", op),
		Suggested: fmt.Sprintf("Compare values with `%s`.", repl),
		Fix: &review.Fix{
			Title: fmt.Sprintf("Use %s", repl),
			Edits: []review.TextEdit{{
				Span:    review.Span{Path: p.File.Path, StartLine: n, StartCol: from + 1, EndLine: n, EndCol: to + 1},
				NewText: repl,
			}},
		},
	})
}
