package readiness

import (
	"fmt"
	"go/ast"
	"path"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// FocusedTest finds focused tests, which silently disable the rest of the
// suite.
var FocusedTest = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/focused-test",
		Perspective: review.Readiness,
		Category:    CatValidation,
		Severity:    review.SeverityMedium,
		Languages:   lens.JSLangs,
		Depth:       review.DepthBasic,
		Summary:     "Focused test",
		Doc: "A focused test (`it.only`, `describe.only`, `test.only`, `fdescribe`, `fit`) makes the runner skip every " +
			"other test in the file or suite, so CI stays green while most of the suite no longer runs; the fix " +
			"removes the focus. Calls count only when their first argument is a test title string, so methods such " +
			"as query.only(['id']) are not mistaken for tests. Skipped tests are readiness/skipped-test.",
		Bad:     "it.only('saves the draft', async () => { ... })",
		Good:    "it('saves the draft', async () => { ... })",
		Fixable: true,
	},
	Run: func(p *lens.Pass) { jsTestMarks(p, true) },
}

// SkippedTest finds tests skipped unconditionally.
var SkippedTest = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/skipped-test",
		Perspective: review.Readiness,
		Category:    CatValidation,
		Severity:    review.SeverityLow,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Summary:     "Skipped test",
		Doc: "A test skipped unconditionally (`it.skip`, `xit`, `xdescribe`, Go `t.Skip` as an unconditional statement " +
			"of the test function, Python `@pytest.mark.skip` and `@unittest.skip`) is validation the change no longer " +
			"has: re-enable it or link the issue that tracks it. Conditional skips are normal and not reported: " +
			"`@pytest.mark.skipif`, `@unittest.skipIf`/`skipUnless`, and t.Skip inside an if (testing.Short(), an " +
			"environment check, a missing tool, another OS) or a subtest. JavaScript calls count only when their " +
			"first argument is a test title string, so methods such as query.skip(10) are not mistaken for tests.",
		Bad:  "func TestSync(t *testing.T) {\n\tt.Skip(\"flaky\")",
		Good: "func TestSync(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"slow\")\n\t}",
	},
	Run: runSkippedTest,
}

// testFuncs are the test-definition functions of Mocha, Jest, Vitest,
// Jasmine and Playwright.
var testFuncs = map[string]bool{"describe": true, "it": true, "test": true, "context": true, "suite": true, "specify": true}

// focusedAliases and skippedAliases map Jasmine/Jest prefixed names to
// the plain function.
var (
	focusedAliases = map[string]string{"fdescribe": "describe", "fit": "it", "fcontext": "context"}
	skippedAliases = map[string]string{"xdescribe": "describe", "xit": "it", "xtest": "test", "xcontext": "context", "xspecify": "specify"}
)

func runSkippedTest(p *lens.Pass) {
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		goSkippedTest(p)
	case lang == review.LangPython:
		pySkippedTest(p)
	case lang.IsJS():
		jsTestMarks(p, false)
	}
}

const focusedMessage = "%s focuses the runner on this test: every other test in the file (and, with some runners, the " +
	"suite) is silently skipped, so CI passes while most tests no longer run."

// jsTestMarks reports the focused (focused) or the skipped test calls on
// the changed lines of a JavaScript or TypeScript file.
func jsTestMarks(p *lens.Pass, focused bool) {
	// Test definitions live in test files, Cypress specs (.cy.) and Deno
	// tests (_test.); elsewhere only a describe, it or test call can hold one.
	if base := path.Base(p.File.Path); !review.IsTestPath(p.File.Path) && !strings.Contains(base, ".cy.") &&
		!strings.Contains(base, "_test.") && !p.Contains("describe(") && !p.Contains("it(") && !p.Contains("test(") {
		return
	}
	js := syntax.JS(p.File)
	p.EachChanged(func(n int, _ string) {
		lo, hi := js.LineToks(n)
		for i := lo; i < hi; i++ {
			name := js.Text(i)
			if js.Kind(i) != syntax.TokIdent || !js.Is(i+1, "(") || !js.Literal(i+2) {
				continue
			}
			var r lens.Report
			switch {
			case (name == "only" || name == "skip") && js.Is(i-1, "."):
				recv := js.ChainBack(i - 2)
				if recv > i-2 || !testFuncs[js.Text(i-2)] || js.Is(recv-1, ".") {
					continue
				}
				call := js.Span(recv, i+1)
				col := js.Col(i - 1)
				if (name == "skip") == focused {
					continue
				}
				if name == "skip" {
					r = skippedReport(call)
					break
				}
				r = lens.Report{
					Message:   fmt.Sprintf(focusedMessage, call+"()"),
					Suggested: "Remove .only before merging.",
					Fix: &review.Fix{Title: "Remove .only", Edits: []review.TextEdit{{
						Span: review.Span{Path: p.File.Path, StartLine: n, StartCol: col, EndLine: n, EndCol: col + len(".only")},
					}}},
				}
			case focused && focusedAliases[name] != "" && !js.Is(i-1, "."):
				col := js.Col(i)
				r = lens.Report{
					Message:   fmt.Sprintf(focusedMessage, name+"()"),
					Suggested: fmt.Sprintf("Use %s instead of %s before merging.", focusedAliases[name], name),
					Fix: &review.Fix{Title: fmt.Sprintf("Use %s", focusedAliases[name]), Edits: []review.TextEdit{{
						Span:    review.Span{Path: p.File.Path, StartLine: n, StartCol: col, EndLine: n, EndCol: col + len(name)},
						NewText: focusedAliases[name],
					}}},
				}
			case !focused && skippedAliases[name] != "" && !js.Is(i-1, "."):
				r = skippedReport(name)
			default:
				continue
			}
			r.Line = n
			if r.Col == 0 {
				r.Col = js.Col(i)
			}
			p.Report(r)
		}
	})
}

func skippedReport(what string) lens.Report {
	return lens.Report{
		Message: fmt.Sprintf("%s() skips a test: the behaviour it checks is no longer validated, and skipped tests are "+
			"rarely re-enabled.", what),
		Suggested: "Fix and re-enable the test, or delete it; if it must stay skipped, give the reason and link the tracking issue.",
	}
}

func goSkippedTest(p *lens.Pass) {
	if !strings.HasSuffix(p.File.Path, "_test.go") || !p.Contains(".Skip") {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	for _, d := range g.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") || len(fd.Type.Params.List) != 1 {
			continue
		}
		params := fd.Type.Params.List[0]
		if len(params.Names) != 1 {
			continue
		}
		t := params.Names[0].Name
		// Only statements of the function body itself: a skip inside an
		// if, a switch or a subtest is conditional.
		for _, s := range fd.Body.List {
			es, ok := s.(*ast.ExprStmt)
			if !ok {
				continue
			}
			call, ok := es.X.(*ast.CallExpr)
			if !ok || !lens.IsGoPkgCall(call, t, "Skip", "SkipNow", "Skipf") {
				continue
			}
			line := g.Line(call.Pos())
			if !p.Changed(line) {
				continue
			}
			r := skippedReport(t + "." + call.Fun.(*ast.SelectorExpr).Sel.Name)
			r.Line, r.Col, r.Symbol = line, g.Col(call.Pos()), fd.Name.Name
			r.Message = fmt.Sprintf("%s is skipped unconditionally: the behaviour it checks is no longer validated, and "+
				"skipped tests are rarely re-enabled.", fd.Name.Name)
			p.Report(r)
		}
	}
}

var pySkipRE = regexp.MustCompile(`^@(?:pytest\.mark\.skip|unittest\.skip|skip)\b(?:\s*\(|\s*$)`)

func pySkippedTest(p *lens.Pass) {
	if !p.Contains("skip") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, _ string) {
		if !py.Lines[n-1].Logical {
			return
		}
		code := py.CodeLine(n)
		stmt := strings.TrimLeft(code, " \t")
		m := pySkipRE.FindString(stmt)
		if m == "" {
			return
		}
		what := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(m, "@")), "(")
		r := skippedReport("@" + strings.TrimSpace(what))
		r.Line, r.Col = n, len(code)-len(stmt)+1
		r.Message = fmt.Sprintf("@%s skips the test unconditionally: the behaviour it checks is no longer validated, and "+
			"skipped tests are rarely re-enabled.", strings.TrimSpace(what))
		p.Report(r)
	})
}
