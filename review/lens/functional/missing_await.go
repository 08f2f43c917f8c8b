package functional

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// MissingAwait finds promises of async functions tested or used as if they
// were their results.
var MissingAwait = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/missing-await",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityHigh,
		Languages:   lens.JSLangs,
		Depth:       review.DepthStandard,
		Summary:     "Promise used as if it were its value",
		Doc: "A call to an async function returns a promise, and a promise is always truthy: `if (isAllowed(user))` " +
			"passes for everyone, `if (!await isAllowed(user))` was meant; `const item = repo.findById(id)` followed " +
			"by `if (!item)` never sees the missing item, and `item.name` is undefined. Await the call. The callee " +
			"must be known to be async: a function or method declared async in the same file (and no synchronous " +
			"one of that name), or exported async by a module the file imports by a relative path (read from the " +
			"change or the work tree), including a class a constructor parameter or field is typed with. Calls " +
			"that are awaited, returned, voided, chained with .then/.catch/.finally or passed on are not reported.",
		Bad:  "if (!permission.check(req, res, post.userId)) {\n  return res.status(403).end();\n}",
		Good: "if (!(await permission.check(req, res, post.userId))) {\n  return res.status(403).end();\n}",
	},
	Run: runMissingAwait,
}

func runMissingAwait(p *lens.Pass) {
	if !p.Contains("(") {
		return
	}
	m := newAsyncIndex(p)
	js := syntax.JS(p.File)
	p.EachChanged(func(n int, _ string) {
		lo, hi := js.LineToks(n)
		for i := lo; i < hi; i++ {
			if js.Kind(i) != syntax.TokIdent || js.Is(i-1, ".") || js.Is(i-1, "?.") {
				continue
			}
			end := js.Chain(i)
			if !js.Is(end, "(") {
				continue
			}
			callee := js.Span(i, end)
			if !m.async(js, i, end) {
				continue
			}
			switch js.Text(i - 1) {
			case "await", "void", "return", "yield", "new", "function", "async":
				continue
			}
			close := js.Match(end)
			if close < 0 || js.Is(close+1, ".") || js.Is(close+1, "?.") {
				continue // .then(...), or a member the rule cannot judge
			}
			how := ""
			switch {
			case conditionUse(js, i, close):
				how = "tests the promise it returns, which is always truthy"
			case js.Is(i-1, "="):
				if v := assignedVar(js, i-1); v != "" {
					if use := settledUse(js, v, close+1); use != "" {
						how = fmt.Sprintf("stores its promise in %s, which %s as if it held the result", v, use)
					}
				}
			}
			if how == "" {
				continue
			}
			p.Report(lens.Report{
				Line: n, Col: js.Col(i),
				Message: fmt.Sprintf("%s(...) is async, and this code %s: the check or value is wrong on "+
					"every call.", callee, how),
				Suggested: fmt.Sprintf("Await it: `await %s(...)` (in parentheses after `!`).", callee),
			})
		}
	})
}

// conditionUse reports a call [i, close] whose value is tested: negated,
// the whole condition of an if or while, the condition of a ternary, or
// the left operand of && and || (a right operand is the expression's
// value, which may well be awaited as a whole).
func conditionUse(js *syntax.JSFile, i, close int) bool {
	switch js.Text(i - 1) {
	case "!":
		return true
	case "(":
		if k := js.Text(i - 2); (k == "if" || k == "while") && js.Is(close+1, ")") {
			return true
		}
	}
	switch js.Text(i - 1) {
	case "?", "&&", "||", "??", ":":
		return false
	}
	switch js.Text(close + 1) {
	case "&&", "||", "?":
		return true
	}
	return false
}

// assignedVar returns x for `const x =` / `let x =` / `var x =` ending at
// the "=" token eq.
func assignedVar(js *syntax.JSFile, eq int) string {
	if js.Kind(eq-1) != syntax.TokIdent {
		return ""
	}
	switch js.Text(eq - 2) {
	case "const", "let", "var":
		return js.Text(eq - 1)
	}
	return ""
}

// settledUse describes the first later use of v, within its block, that
// treats it as a settled value ("is negated", "is tested", "has its
// .name read"), or "" when the first use is not one (an await, a .then,
// passing it on).
func settledUse(js *syntax.JSFile, v string, from int) string {
	depth := 0
	for j := from; j < len(js.Toks) && j < from+400; j++ {
		switch js.Text(j) {
		case "{", "(", "[":
			depth++
			continue
		case "}", ")", "]":
			if depth--; depth < 0 {
				return ""
			}
			continue
		}
		if js.Text(j) != v || js.Kind(j) != syntax.TokIdent || js.Is(j-1, ".") {
			continue
		}
		switch {
		case js.Is(j-1, "!"):
			return "is negated"
		case js.Is(j-1, "(") && (js.Is(j-2, "if") || js.Is(j-2, "while")) && js.Is(j+1, ")"):
			return "is tested"
		case (js.Is(j+1, ".") || js.Is(j+1, "?.")) && js.Kind(j+2) == syntax.TokIdent:
			switch js.Text(j + 2) {
			case "then", "catch", "finally":
				return ""
			}
			return "has its ." + js.Text(j+2) + " read"
		}
		return ""
	}
	return ""
}

// asyncIndex knows which callees of a file are async. A relative
// module is read only when a changed line calls through one of its
// bindings, and once per pass: most files never need one.
type asyncIndex struct {
	p *lens.Pass
	// local are the file's async function and method names, without the
	// ones also declared synchronous.
	local map[string]bool
	// bindings are the file's relative imports by local name.
	bindings map[string]syntax.JSImport
	// modules caches the async names of the modules read, by specifier.
	modules map[string]map[string]bool
	// fields caches the declared types of the class fields looked up.
	fields map[string]string
}

func newAsyncIndex(p *lens.Pass) *asyncIndex {
	x := &asyncIndex{p: p, local: asyncNames(p.File), bindings: map[string]syntax.JSImport{}, modules: map[string]map[string]bool{}, fields: map[string]string{}}
	for _, im := range syntax.JSImports(p.File) {
		if strings.HasPrefix(im.Module, ".") {
			x.bindings[im.Local] = im
		}
	}
	return x
}

// imported returns the async names of the module a local binding imports
// (a namespace, a default export or a class: its functions and methods),
// nil when the binding is no relative import.
func (x *asyncIndex) imported(local string) map[string]bool {
	im, ok := x.bindings[local]
	if !ok {
		return nil
	}
	names, ok := x.modules[im.Module]
	if !ok {
		names = x.moduleAsync(im.Module)
		x.modules[im.Module] = names
	}
	return names
}

// named reports whether local is a named import of an async function.
func (x *asyncIndex) named(local string) bool {
	im, ok := x.bindings[local]
	return ok && im.Name != "*" && im.Name != "default" && x.imported(local)[im.Name]
}

// asyncNames returns the names of f's async functions and methods that no
// synchronous function of f shares.
func asyncNames(f *review.File) map[string]bool {
	out := map[string]bool{}
	af := syntax.JSAsyncFuncs(f)
	if len(af) == 0 {
		return out
	}
	js := syntax.JS(f)
	for _, fn := range af {
		if fn.Name != "" && !generator(js, fn) {
			out[fn.Name] = true
		}
	}
	for _, fn := range syntax.JSFuncs(f) {
		if !fn.Async && out[fn.Name] {
			delete(out, fn.Name)
		}
	}
	return out
}

// generator reports an async generator (async function* f, async *m()):
// it returns an async iterator, not a promise.
func generator(js *syntax.JSFile, fn syntax.JSFunc) bool {
	for j := fn.Start; j < fn.Open && j < fn.Start+4; j++ {
		if js.Is(j, "*") {
			return true
		}
	}
	return false
}

// moduleAsync returns the async names of the module a relative specifier
// names, as the change or the work tree has it.
func (x *asyncIndex) moduleAsync(spec string) map[string]bool {
	base := path.Join(path.Dir(x.p.File.Path), spec)
	for _, cand := range []string{base, base + ".ts", base + ".js", base + ".tsx", base + ".jsx", base + ".mjs", base + ".cjs",
		base + "/index.ts", base + "/index.js"} {
		if f := x.p.ChangeSet.File(cand); f != nil && f.Content != nil {
			return asyncNames(f)
		}
		if x.p.ChangeSet.Root == "" || cand == base && path.Ext(cand) == "" {
			continue
		}
		content, err := regular.ReadFile(filepath.Join(x.p.ChangeSet.Root, filepath.FromSlash(cand)))
		if err == nil {
			return asyncNames(review.UntrackedFile(cand, content))
		}
	}
	return nil
}

// async reports whether the callee chain [i, end) is an async function.
func (x *asyncIndex) async(js *syntax.JSFile, i, end int) bool {
	switch end - i {
	case 1:
		return x.local[js.Text(i)] || x.named(js.Text(i))
	case 3:
		obj, name := js.Text(i), js.Text(i+2)
		if obj == "this" {
			return x.local[name]
		}
		return x.imported(obj)[name]
	case 5:
		// this.repo.findById(...): repo's declared type is an imported class.
		if js.Text(i) != "this" {
			return false
		}
		field := js.Text(i + 2)
		t, ok := x.fields[field]
		if !ok {
			t = fieldType(js, field)
			x.fields[field] = t
		}
		if t != "" {
			return x.imported(t)[js.Text(i+4)]
		}
	}
	return false
}

// fieldType returns the type a class field or constructor parameter named
// name is declared with (`private readonly repo: CommentRepo`), or "".
func fieldType(js *syntax.JSFile, name string) string {
	for j := 0; j+2 < len(js.Toks); j++ {
		if js.Text(j) == name && js.Is(j+1, ":") && js.Kind(j+2) == syntax.TokIdent && !js.Is(j-1, ".") {
			return js.Text(j + 2)
		}
	}
	return ""
}
