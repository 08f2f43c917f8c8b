package standards

import (
	"fmt"
	"go/ast"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// LongFunction finds changed functions whose body exceeds the configured
// length.
var LongFunction = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "standards/long-function",
		Perspective: review.Standards,
		Category:    CatMaintainability,
		Severity:    review.SeverityLow,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthStandard,
		Skill:       SkillCleanCode,
		Summary:     "Function too long",
		Doc: "A function whose body is longer than the configured threshold (function-length in .reviewls.yaml, 80 lines by default) " +
			"does several things at once: it is hard to review, to test in parts and to change without side effects. " +
			"Extract the steps into well-named helpers. The rule looks at functions the change touches (it reports on " +
			"their first changed line) and counts the physical lines of the body: Go functions and methods, Python defs " +
			"(by indentation), and named JavaScript and TypeScript functions, methods and function-valued variables (by " +
			"braces). Anonymous callbacks (describe/it blocks, event handlers), test files and vendored, dist and minified " +
			"files are not reported. A function already over the threshold before the change is pre-existing, whatever " +
			"the change does to its length, unless it grows by half again: the rule reports a change that crosses the " +
			"threshold, adds a long function, or makes one half as long again (docs/baselines.md).",
		Bad:  "func handle(w http.ResponseWriter, r *http.Request) {\n\t// 140 lines: parse, validate, store, render\n}",
		Good: "func handle(w http.ResponseWriter, r *http.Request) {\n\treq, err := parse(r)\n\t...\n\trender(w, store(req))\n}",
	},
	Run: runLongFunction,
}

// longFunc is a function's name, its first line and its body's line
// range (exclusive of braces or the def line).
type longFunc struct {
	name               string
	start, body, close int
}

func runLongFunction(p *lens.Pass) {
	if lens.Vendored(p.File.Path) {
		return
	}
	if review.IsTestPath(p.File.Path) {
		return
	}
	limit := p.Config.EffectiveFunctionLength()
	lines := p.Lines()
	if len(lines) <= limit {
		return
	}
	var funcs []longFunc
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		g := syntax.Go(p.File)
		if g.File == nil {
			return
		}
		for _, d := range g.File.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs = append(funcs, longFunc{syntax.GoFuncName(fd), g.Line(fd.Pos()), g.Line(fd.Body.Lbrace), g.Line(fd.Body.Rbrace)})
			}
		}
	case lang == review.LangPython:
		py := syntax.Python(p.File)
		for _, fn := range py.Funcs {
			funcs = append(funcs, longFunc{fn.Name, fn.Line, py.LineOf(fn.Colon), fn.End + 1})
		}
	case lang.IsJS():
		js := syntax.JS(p.File)
		if js.LongestBlock()-1 <= limit {
			return
		}
		for _, fn := range syntax.JSFuncs(p.File) {
			if fn.Name == "" {
				continue
			}
			funcs = append(funcs, longFunc{fn.Name, int(js.Toks[fn.Start].Line), int(js.Toks[fn.Open].Line), int(js.Toks[fn.Close].Line)})
		}
	}
	for _, fn := range funcs {
		n := fn.close - fn.body - 1
		if n <= limit {
			continue
		}
		line := p.FirstChanged(fn.start, fn.close)
		if line == 0 {
			continue
		}
		p.Report(lens.Report{
			Line: line, Symbol: fn.name,
			Title: fmt.Sprintf("Function %s too long", fn.name),
			Message: fmt.Sprintf("%s has a %d-line body (the threshold is %d): a function this long does several things "+
				"at once, which makes it hard to review, to test in parts and to change safely.", fn.name, n, limit),
			Suggested: "Extract the distinct steps into well-named helper functions.",
			Code:      lines[fn.start-1],
			// The name, not the length: a function over the limit in the
			// base keeps its fingerprint as it grows or shrinks.
			Match: fn.name, Measure: n,
		})
	}
}
