package functional

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// NullEquality finds JavaScript comparisons whose result never depends on
// the value compared.
var NullEquality = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/null-equality",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityHigh,
		Languages:   lens.JSLangs,
		Depth:       review.DepthBasic,
		Summary:     "Comparison that is always true or always false",
		Doc: "Three comparisons never depend on the value they test, so the branch they guard is dead or always taken: " +
			"a comparison with NaN (`x === NaN` is false even when x is NaN); `typeof x` compared with a string typeof " +
			"never returns (`'null'`, `'array'`, a misspelling such as `'undefind'`); and a contradictory pair on one " +
			"operand (`x !== null || x !== undefined` is always true, `x === 'a' && x === 'b'` always false). Use " +
			"Number.isNaN(x), `x === null` or Array.isArray(x), and the intended `&&`/`||`; the first two are fixed " +
			"mechanically when the operand is a plain name or member chain. The idiomatic `x == null` (null or " +
			"undefined) and pairs compared loosely that can both hold (`x != null || x != undefined`) are not reported.",
		Bad:     "if (price === NaN) { return 0 }",
		Good:    "if (Number.isNaN(price)) { return 0 }",
		Fixable: true,
	},
	Run: runNullEquality,
}

var (
	jsEqualityOps = map[string]bool{"==": true, "===": true, "!=": true, "!==": true}
	// typeofResults are the strings typeof can return.
	typeofResults = map[string]bool{
		"undefined": true, "object": true, "boolean": true, "number": true, "bigint": true,
		"string": true, "symbol": true, "function": true,
	}
	// jsLeftBounds may precede the left operand of a comparison without
	// binding tighter than it.
	jsLeftBounds = map[string]bool{
		"(": true, ",": true, "=": true, "&&": true, "||": true, "??": true, "?": true, ":": true,
		"{": true, ";": true, "[": true, "return": true, "=>": true,
	}
	// jsRightBounds may follow the right operand of a comparison.
	jsRightBounds = map[string]bool{
		")": true, ",": true, ";": true, "&&": true, "||": true, "??": true, "?": true, ":": true,
		"}": true, "]": true,
	}
)

func runNullEquality(p *lens.Pass) {
	nan, typeOf := p.Contains("NaN"), p.Contains("typeof")
	pairs := p.Contains("||") || p.Contains("&&")
	if !nan && !typeOf && !pairs {
		return
	}
	js := syntax.JS(p.File)
	for i, tok := range js.Toks {
		switch tok.Kind {
		case syntax.TokIdent:
			switch t := js.Text(i); {
			case nan && t == "NaN" && (!js.Is(i-1, ".") || js.Is(i-2, "Number") && !js.Is(i-3, ".")):
				nanComparison(p, js, i)
			case typeOf && t == "typeof":
				typeofComparison(p, js, i)
			}
		case syntax.TokPunct:
			if pairs && tok.End-tok.Off == 2 && (js.Is(i, "||") || js.Is(i, "&&")) && p.Changed(int(tok.Line)) {
				contradictoryPair(p, js, i)
			}
		}
	}
}

// operand describes the other side of a comparison: tokens [lo, hi), and
// whether it is a plain chain that can be rewritten safely.
type operand struct {
	lo, hi int
	plain  bool
}

// leftOperand returns the member chain that ends at token i.
func leftOperand(js *syntax.JSFile, i int) operand {
	lo := js.ChainBack(i)
	return operand{lo, i + 1, lo <= i && (jsLeftBounds[js.Text(lo-1)] || lo == 0)}
}

// rightOperand returns the member chain that starts at token i.
func rightOperand(js *syntax.JSFile, i int) operand {
	hi := js.Chain(i)
	return operand{i, hi, hi > i && (hi >= len(js.Toks) || jsRightBounds[js.Text(hi)])}
}

func nanComparison(p *lens.Pass, js *syntax.JSFile, i int) {
	start := i
	if js.Is(i-1, ".") {
		start = i - 2 // Number.NaN
	}
	var op int
	var other operand
	switch {
	case jsEqualityOps[js.Text(start-1)]:
		op = start - 1
		other = leftOperand(js, op-1)
		other.plain = other.plain && (i+1 >= len(js.Toks) || jsRightBounds[js.Text(i+1)])
	case jsEqualityOps[js.Text(i+1)]:
		op = i + 1
		other = rightOperand(js, op+1)
		other.plain = other.plain && (start == 0 || jsLeftBounds[js.Text(start-1)])
	default:
		return
	}
	negated := js.Text(op)[0] == '!'
	result := "false"
	if negated {
		result = "true"
	}
	lo, hi := min(start, other.lo), max(i+1, other.hi)
	r := lens.Report{
		Line: int(js.Toks[lo].Line), Col: js.Col(lo), Title: "Comparison with NaN",
		Message: fmt.Sprintf("`%s` is always %s: NaN is not equal to anything, itself included, so the check never "+
			"detects NaN.", js.Span(lo, hi), result),
		Suggested: "Use Number.isNaN(x).",
	}
	if other.plain && other.hi > other.lo && js.Toks[lo].Line == js.Toks[hi-1].Line {
		repl := "Number.isNaN(" + js.Span(other.lo, other.hi) + ")"
		if negated {
			repl = "!" + repl
		}
		r.Fix = tokenFix(p, js, lo, hi, repl, "Use Number.isNaN")
	}
	if !p.Changed(r.Line) {
		return
	}
	p.Report(r)
}

func typeofComparison(p *lens.Pass, js *syntax.JSFile, i int) {
	arg := rightOperand(js, i+1)
	var op, str, lo, hi int
	switch {
	case arg.hi > arg.lo && jsEqualityOps[js.Text(arg.hi)] && js.Literal(arg.hi+1):
		op, str, lo, hi = arg.hi, arg.hi+1, i, arg.hi+2
	case jsEqualityOps[js.Text(i-1)] && js.Literal(i-2):
		op, str, lo, hi = i-1, i-2, i-2, arg.hi
	default:
		return
	}
	val, _ := js.StringValue(str)
	if typeofResults[val] {
		return
	}
	negated := js.Text(op)[0] == '!'
	result := "false"
	if negated {
		result = "true"
	}
	r := lens.Report{
		Line: int(js.Toks[lo].Line), Col: js.Col(lo), Title: fmt.Sprintf("typeof never returns %q", val),
		Message: fmt.Sprintf("`%s` is always %s: typeof returns only \"undefined\", \"object\", \"boolean\", \"number\", "+
			"\"bigint\", \"string\", \"symbol\" or \"function\".", js.Span(lo, hi), result),
	}
	x := js.Span(arg.lo, arg.hi)
	bounded := arg.hi > arg.lo && (lo == 0 || jsLeftBounds[js.Text(lo-1)]) && (hi >= len(js.Toks) || jsRightBounds[js.Text(hi)])
	var repl string
	switch val {
	case "null":
		r.Suggested = "Compare the value itself: x === null."
		repl = x + " === null"
		if negated {
			repl = x + " !== null"
		}
	case "array":
		r.Suggested = "Use Array.isArray(x)."
		repl = "Array.isArray(" + x + ")"
		if negated {
			repl = "!" + repl
		}
	default:
		r.Suggested = "Compare with one of the strings typeof returns."
	}
	if repl != "" && bounded && js.Toks[lo].Line == js.Toks[hi-1].Line {
		r.Fix = tokenFix(p, js, lo, hi, repl, "Rewrite the typeof check")
	}
	if p.Changed(r.Line) {
		p.Report(r)
	}
}

// contradictoryPair reports `x !== a || x !== b` (always true) and
// `x === a && x === b` (always false) around the connective at token k.
func contradictoryPair(p *lens.Pass, js *syntax.JSFile, k int) {
	or := js.Is(k, "||")
	// Left: chain op literal, ending at k-1.
	l2, lop := k-1, k-2
	if !jsEqualityLiteral(js, l2) || !jsEqualityOps[js.Text(lop)] {
		return
	}
	left := leftOperand(js, lop-1)
	// a && x !== 1 || x !== 2 groups as (a && x !== 1) || x !== 2.
	if !left.plain || left.hi <= left.lo || or && js.Is(left.lo-1, "&&") || js.Is(left.lo-1, "??") {
		return
	}
	// Right: chain op literal, starting at k+1.
	right := rightOperand(js, k+1)
	rop, r2 := right.hi, right.hi+1
	if right.hi <= right.lo || !jsEqualityOps[js.Text(rop)] || !jsEqualityLiteral(js, r2) {
		return
	}
	if next := js.Text(r2 + 1); r2+1 < len(js.Toks) && !jsRightBounds[next] || or && next == "&&" {
		return
	}
	if js.Span(left.lo, left.hi) != js.Span(right.lo, right.hi) || js.Text(lop) != js.Text(rop) {
		return
	}
	op := js.Text(lop)
	negated := op[0] == '!'
	if negated != or {
		return // x !== a && x !== b and x === a || x === b are meaningful
	}
	a, b := js.Text(l2), js.Text(r2)
	if !distinctLiterals(js, l2, r2, len(op) == 3) {
		return
	}
	result := "false"
	if or {
		result = "true"
	}
	lo := left.lo
	line := int(js.Toks[lo].Line)
	if !p.Changed(line) {
		return
	}
	x := js.Span(left.lo, left.hi)
	p.Report(lens.Report{
		Line: line, Col: js.Col(lo),
		Title: "Contradictory comparison",
		Message: fmt.Sprintf("`%s %s %s %s %s %s %s` is always %s: %s cannot equal both %s and %s.",
			x, op, a, js.Text(k), x, op, b, result, x, a, b),
		Suggested: fmt.Sprintf("Use the other connective (%s) if both conditions must hold, or `%s == null` to test for null or undefined.",
			map[bool]string{true: "&&", false: "||"}[or], x),
	})
}

// jsEqualityLiteral reports whether token i is a literal a comparison can
// be contradicted on: a string, a number, null or undefined.
func jsEqualityLiteral(js *syntax.JSFile, i int) bool {
	return js.Literal(i) || js.Kind(i) == syntax.TokNumber || js.Is(i, "null") || js.Is(i, "undefined")
}

// distinctLiterals reports whether two literals can never both equal one
// value. Under loose equality null and undefined are equal, and values of
// different types may be, so only same-type literals count.
func distinctLiterals(js *syntax.JSFile, a, b int, strict bool) bool {
	va, vb := js.Text(a), js.Text(b)
	if sa, ok := js.StringValue(a); ok {
		va = "s:" + sa
	}
	if sb, ok := js.StringValue(b); ok {
		vb = "s:" + sb
	}
	if va == vb {
		return false
	}
	if strict {
		return true
	}
	return js.Literal(a) && js.Literal(b) || js.Kind(a) == syntax.TokNumber && js.Kind(b) == syntax.TokNumber
}

// tokenFix replaces tokens [lo, hi), which sit on one line, with repl.
func tokenFix(p *lens.Pass, js *syntax.JSFile, lo, hi int, repl, title string) *review.Fix {
	line := int(js.Toks[lo].Line)
	start := js.Col(lo)
	_, end := js.EndCol(hi - 1)
	return &review.Fix{Title: title, Edits: []review.TextEdit{{
		Span:    review.Span{Path: p.File.Path, StartLine: line, StartCol: start, EndLine: line, EndCol: end},
		NewText: repl,
	}}}
}
