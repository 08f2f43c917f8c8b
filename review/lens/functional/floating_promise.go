package functional

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// FloatingPromise finds promises created and dropped inside async
// functions.
var FloatingPromise = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/floating-promise",
		Perspective: review.Functional,
		Category:    CatConcurrency,
		Severity:    review.SeverityMedium,
		Languages:   lens.JSLangs,
		Depth:       review.DepthStandard,
		Summary:     "Promise neither awaited nor handled",
		Doc: "Inside an async function, a call that returns a promise used as a bare statement runs detached: the " +
			"function goes on (and may return) before the work finishes, and if it rejects nothing catches it, so Node.js " +
			"reports an unhandled rejection and exits by default. Await it, return it, or make a deliberate " +
			"fire-and-forget explicit with `void p.catch(handler)`; the fix inserts `await`. Only calls known to return " +
			"a promise are reported: async functions and methods declared in the same file (when no synchronous " +
			"function of the same name exists), fetch(), the fs/promises API (fs.promises.*, or names imported from " +
			"fs/promises) and Promise.all/allSettled/race/any. Calls followed by .then/.catch/.finally, prefixed with " +
			"await, void or return, or written in non-async functions (event handlers often fire and forget) are not " +
			"reported, nor are methods such as res.json() whose return type cannot be known from the file.",
		Bad:     "async function save(user) {\n  writeAudit(user);\n  await db.put(user);\n}",
		Good:    "async function save(user) {\n  await writeAudit(user);\n  await db.put(user);\n}",
		Fixable: true,
	},
	Run: runFloatingPromise,
}

var promiseStatics = map[string]bool{"all": true, "allSettled": true, "race": true, "any": true}

func runFloatingPromise(p *lens.Pass) {
	if !p.Contains("async") {
		return
	}
	asyncFuncs := syntax.JSAsyncFuncs(p.File)
	if len(asyncFuncs) == 0 {
		return
	}
	async := map[string]bool{}
	for _, fn := range asyncFuncs {
		if fn.Name != "" {
			async[fn.Name] = true
		}
	}
	var fsp []syntax.JSImport
	if p.Contains("promises") {
		for _, im := range syntax.JSImports(p.File) {
			if syntax.JSModuleIs(im.Module, "fs/promises") {
				fsp = append(fsp, im)
			}
		}
	}
	js := syntax.JS(p.File)
	// The full function list, and the names of synchronous functions
	// (which make a same-named async one ambiguous), are only needed once
	// a candidate is found.
	var funcs []syntax.JSFunc
	var sync map[string]bool
	done := -1 // async bodies nest; scan each token once
	for _, af := range asyncFuncs {
		for i := max(af.Open+1, done); i < af.Close; i++ {
			if js.Kind(i) != syntax.TokIdent {
				continue
			}
			end := js.Chain(i)
			if !js.Is(end, "(") || !returnsPromise(js, i, end, async, fsp) {
				continue
			}
			line := int(js.Toks[i].Line)
			if !p.Changed(line) || js.Match(end) < 0 || !js.EndsStatement(js.Match(end)+1) {
				continue
			}
			start := js.StatementStart(i)
			if !start && !js.Is(i-1, "{") {
				continue
			}
			if funcs == nil {
				funcs = syntax.JSFuncs(p.File)
				sync = map[string]bool{}
				for _, fn := range funcs {
					if !fn.Async && fn.Name != "" {
						sync[fn.Name] = true
					}
				}
			}
			fn := syntax.JSEnclosing(funcs, i)
			if fn == nil || !fn.Async || !start && fn.Open != i-1 || sync[js.Text(end-1)] && async[js.Text(end-1)] {
				continue
			}
			callee := js.Span(i, end)
			in := "an async function"
			if fn.Name != "" {
				in = fmt.Sprintf("async function %s", fn.Name)
			}
			p.Report(lens.Report{
				Line: line, Col: js.Col(i), Symbol: fn.Name,
				Message: fmt.Sprintf("%s(...) returns a promise that is neither awaited, returned nor handled in %s: the "+
					"function continues before it settles, and a rejection escapes as an unhandled rejection (Node.js "+
					"exits on one by default).", callee, in),
				Suggested: fmt.Sprintf("Write `await %s(...)`, return the promise, or mark a deliberate fire-and-forget with `void %s(...).catch(handleError)`.", callee, callee),
				Fix: &review.Fix{Title: "Await the promise", Edits: []review.TextEdit{{
					Span:    review.Span{Path: p.File.Path, StartLine: line, StartCol: js.Col(i), EndLine: line, EndCol: js.Col(i)},
					NewText: "await ",
				}}},
			})
		}
		done = max(done, af.Close)
	}
}

// returnsPromise reports whether the callee chain [i, end) is known to
// return a promise.
func returnsPromise(js *syntax.JSFile, i, end int, async map[string]bool, fsp []syntax.JSImport) bool {
	switch end - i {
	case 1: // name(...)
		name := js.Text(i)
		if name == "fetch" || async[name] {
			return true
		}
		im, ok := syntax.JSImportOf(fsp, name)
		return ok && im.Name != "*" && im.Name != "default"
	case 3: // x.name(...)
		x, name := js.Text(i), js.Text(i+2)
		if !js.Is(i+1, ".") {
			return false
		}
		switch {
		case x == "this":
			return async[name]
		case x == "Promise":
			return promiseStatics[name]
		}
		im, ok := syntax.JSImportOf(fsp, x)
		return ok && (im.Name == "*" || im.Name == "default")
	case 5: // fs.promises.name(...)
		return js.Is(i+1, ".") && js.Is(i+2, "promises") && js.Is(i+3, ".")
	}
	return false
}
