package security

import (
	"fmt"
	"regexp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// Eval finds code evaluated from non-literal strings.
var Eval = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/eval",
		Perspective: review.Security,
		Category:    CatInjection,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-95",
		Summary:     "Code evaluated from a variable string",
		Doc: "eval() and new Function() in JavaScript, and eval() and exec() in Python, run a string as code with every " +
			"privilege of the page or process: if the string carries user input (a query parameter, a form field, a " +
			"message), the attacker runs arbitrary code, steals sessions or reads files. Parse data with JSON.parse, " +
			"ast.literal_eval or a real parser, and dispatch on names through a lookup table. Only calls whose code " +
			"argument is not a literal are reported; method calls such as model.eval() or ast.literal_eval() and " +
			"functions merely named eval, and test files, are not.",
		Bad:  "const total = eval(req.query.expr);",
		Good: "const total = evaluate(parseExpression(req.query.expr));",
	},
	Run: runEval,
}

func runEval(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return // tests handle fixtures, not attacker input
	}
	switch {
	case p.File.Language == review.LangPython:
		pyEval(p)
	case p.File.Language.IsJS():
		jsEval(p)
	}
}

func jsEval(p *lens.Pass) {
	if !p.Contains("eval") && !p.Contains("Function") {
		return
	}
	js := syntax.JS(p.File)
	p.EachChanged(func(n int, _ string) {
		lo, hi := js.LineToks(n)
		for i := lo; i < hi; i++ {
			var what string
			var args [][2]int
			switch {
			case js.Is(i, "eval") && js.Is(i+1, "(") && !js.Is(i-1, ".") && !js.Is(i-1, "function") && !js.Is(i-1, "?.") && js.Match(i+1) >= 0 && !js.Is(js.Match(i+1)+1, "{"):
				what = "eval()"
				args = js.Args(i + 1)
				if len(args) > 0 {
					args = args[:1]
				}
			case js.Is(i, "Function") && js.Is(i-1, "new") && js.Is(i+1, "("):
				what = "new Function()"
				args = js.Args(i + 1)
			default:
				continue
			}
			var dyn string
			for _, a := range args {
				if !js.ConstExpr(a[0], a[1]) {
					dyn = js.Span(a[0], a[1])
				}
			}
			if dyn == "" {
				continue
			}
			col := js.Col(i)
			if what == "new Function()" {
				col = js.Col(i - 1)
			}
			p.Report(lens.Report{
				Line: n, Col: col,
				Message: fmt.Sprintf("%s runs `%s` as JavaScript: if it carries user input, the attacker runs arbitrary "+
					"code with the page's or server's privileges.", what, lens.Snippet(dyn)),
				Suggested: "Parse data with JSON.parse or a dedicated parser, and dispatch on names through a lookup table instead of evaluating code.",
			})
		}
	})
}

var pyEvalRE = regexp.MustCompile(`(?:^|[^.\w])(eval|exec)\s*\(`)

func pyEval(p *lens.Pass) {
	if !p.Contains("eval") && !p.Contains("exec") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, _ string) {
		code := py.CodeLine(n)
		for _, m := range pyEvalRE.FindAllStringSubmatchIndex(code, -1) {
			name := code[m[2]:m[3]]
			before := code[:m[2]]
			if len(before) >= 4 && before[len(before)-4:] == "def " {
				continue
			}
			open := py.Offset(n) + m[1] - 1
			args := py.Args(open)
			if len(args) == 0 || args[0].Name != "" || py.Literal(args[0].Off, args[0].End) {
				continue
			}
			p.Report(lens.Report{
				Line: n, Col: m[2] + 1, Symbol: lens.PyFuncName(py, n),
				Message: fmt.Sprintf("%s() runs `%s` as Python: if it carries user input, the attacker runs arbitrary code "+
					"with the process's privileges (os.system, file access, secrets).", name, lens.Snippet(py.Src[args[0].Off:args[0].End])),
				Suggested: "Parse literals with ast.literal_eval or json.loads, and dispatch on names through a dict of allowed functions.",
			})
		}
	})
}
