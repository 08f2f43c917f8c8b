package functional

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// AsyncForEach finds async callbacks passed to array methods that ignore
// the promises they return.
var AsyncForEach = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/async-foreach",
		Perspective: review.Functional,
		Category:    CatConcurrency,
		Severity:    review.SeverityHigh,
		Languages:   lens.JSLangs,
		Depth:       review.DepthBasic,
		Summary:     "Async callback whose promise is ignored",
		Doc: "Array.prototype.forEach ignores what its callback returns, so `xs.forEach(async (x) => { await save(x) })` " +
			"starts every callback and returns at once: the code after it runs before the work is done, and a rejection " +
			"becomes an unhandled rejection. Likewise filter, some, every, find and findIndex treat the promise an async " +
			"predicate returns as truthy, so they keep or match every element. Use `for (const x of xs) { await save(x) }` " +
			"for sequential work or `await Promise.all(xs.map(async (x) => ...))` for concurrent work; inside an async " +
			"function the fix rewrites a forEach statement to the Promise.all form, which keeps its concurrency. " +
			"`.map(async ...)` is not reported: its promises are returned to the caller.",
		Bad:     "users.forEach(async (u) => {\n  await notify(u);\n});",
		Good:    "await Promise.all(users.map(async (u) => {\n  await notify(u);\n}));",
		Fixable: true,
	},
	Run: runAsyncForEach,
}

// ignoringMethods maps array methods that ignore or misuse a callback's
// promise to what goes wrong.
var ignoringMethods = map[string]string{
	"forEach":   "forEach ignores the promises the callback returns: the statement finishes before any of them settles, and their rejections go unhandled",
	"filter":    "filter treats the promise the callback returns as truthy, so every element is kept",
	"some":      "some treats the promise the callback returns as truthy, so it is always true for a non-empty array",
	"every":     "every treats the promise the callback returns as truthy, so the predicate is never really checked",
	"find":      "find treats the promise the callback returns as truthy, so it always returns the first element",
	"findIndex": "findIndex treats the promise the callback returns as truthy, so it always returns 0 for a non-empty array",
}

func runAsyncForEach(p *lens.Pass) {
	if !p.Contains("(async") && !p.Contains("( async") {
		return
	}
	js := syntax.JS(p.File)
	for i := range js.Toks {
		if !js.Is(i+2, "async") || !js.Is(i+1, "(") || !js.Is(i-1, ".") && !js.Is(i-1, "?.") {
			continue
		}
		what, ok := ignoringMethods[js.Text(i)]
		n := int(js.Toks[i].Line)
		if !ok || !p.Changed(n) {
			continue
		}
		method := js.Text(i)
		r := lens.Report{
			Line: n, Col: js.Col(i),
			Title:   fmt.Sprintf("Async callback passed to %s", method),
			Message: fmt.Sprintf("%s.", what),
		}
		if method == "forEach" {
			r.Suggested = "Use `for (const x of xs) { await ... }` for sequential work, or `await Promise.all(xs.map(async (x) => ...))` for concurrent work."
			r.Fix = asyncForEachFix(p, js, i)
		} else {
			r.Suggested = fmt.Sprintf("Resolve the values first (`const ok = await Promise.all(xs.map(pred))`), then call %s on the results.", method)
		}
		p.Report(r)
	}
}

// asyncForEachFix rewrites `recv.forEach(cb);`, a whole statement inside
// an async function, to `await Promise.all(recv.map(cb));`.
func asyncForEachFix(p *lens.Pass, js *syntax.JSFile, i int) *review.Fix {
	start := js.ChainBack(i - 2)
	if js.Is(i-1, "?.") || start > i-2 || !js.StatementStart(start) {
		return nil
	}
	closeParen := js.Match(i + 1)
	if closeParen < 0 || !js.EndsStatement(closeParen+1) {
		return nil
	}
	if fn := syntax.JSEnclosing(syntax.JSFuncs(p.File), i); fn == nil || !fn.Async {
		return nil
	}
	at := func(tok int, end bool) (int, int) {
		if end {
			return js.EndCol(tok)
		}
		return int(js.Toks[tok].Line), js.Col(tok)
	}
	insert := func(line, col int, text string) review.TextEdit {
		return review.TextEdit{Span: review.Span{Path: p.File.Path, StartLine: line, StartCol: col, EndLine: line, EndCol: col}, NewText: text}
	}
	sl, sc := at(start, false)
	ml, mc := at(i, false)
	cl, cc := at(closeParen, true)
	return &review.Fix{Title: "Await all callbacks with Promise.all", Edits: []review.TextEdit{
		insert(sl, sc, "await Promise.all("),
		{Span: review.Span{Path: p.File.Path, StartLine: ml, StartCol: mc, EndLine: ml, EndCol: mc + len("forEach")}, NewText: "map"},
		insert(cl, cc, ")"),
	}}
}
