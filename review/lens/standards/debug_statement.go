package standards

import (
	"fmt"
	"go/ast"
	"go/types"
	"path"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// Category and skill of the standards rules for scripting languages.
const (
	CatDebugging       = "Debugging Leftovers"
	CatMaintainability = "Maintainability"
	// SkillCleanCode is the standard the language-neutral rules trace to:
	// Robert C. Martin's Clean Code (small functions, no commented-out
	// code, no leftover debugging output).
	SkillCleanCode = "Clean Code"
)

// DebugStatement finds debugging output and breakpoints left in code.
var DebugStatement = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "standards/debug-statement",
		Perspective: review.Standards,
		Category:    CatDebugging,
		Severity:    review.SeverityLow,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       SkillCleanCode,
		Summary:     "Debug statement left in",
		Doc: "Debugging output and breakpoints left in a change ship with it: prints in library code write into the " +
			"standard output of every program that uses it (breaking output formats such as JSON), and `debugger`, " +
			"breakpoint() or pdb.set_trace() stop or hang the process when it reaches them (Medium). " +
			"Remove them, or log through the project's logger. Reported: Go fmt.Print/Printf/Println and the print and " +
			"println builtins outside package main and tests; JavaScript and TypeScript console.log, console.debug, " +
			"console.trace and debugger; Python print() statements, breakpoint() and pdb/ipdb.set_trace(). " +
			"Prints are allowed where printing is the interface: tests, files with a shebang, files under bin/, cmd/, " +
			"scripts/, script/, cli/, tools/, examples/ or docs/, vendored, dist and minified files, test.*, bench.* and " +
			"log.*/logger.* modules, CLI modules (cli.*, __main__.py, manage.py, setup.py, " +
			"*.config.*, files importing argparse, click, typer, fire, commander or yargs), `if __name__ == \"__main__\":` " +
			"blocks (a module with one is also a script), Python prints to an explicit file=, prints in functions named for output " +
			"(report, show, dump, usage, ...) and prints under a debug, verbose or trace condition (in Go too), and Go command " +
			"packages under cmd/. The fix deletes the statement when it fills its lines " +
			"(a Python block left empty gets `pass`); Go prints get no fix, since deleting one can leave an import or a " +
			"variable unused.",
		Bad:     "function total(items) {\n  console.log('items', items);\n  return sum(items);\n}",
		Good:    "function total(items) {\n  return sum(items);\n}",
		Fixable: true,
	},
	Run: runDebugStatement,
}

func runDebugStatement(p *lens.Pass) {
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		goDebugStatement(p)
	case lang == review.LangPython:
		pyDebugStatement(p)
	case lang.IsJS():
		jsDebugStatement(p)
	}
}

// printingAllowed reports whether printing is the file's interface: a
// test, a script or a command-line tool.
func printingAllowed(f *review.File) bool {
	if review.IsTestPath(f.Path) || strings.HasPrefix(string(f.Content), "#!") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(f.Path), "/") {
		switch dir {
		case "bin", "cmd", "scripts", "script", "cli", "tools", "examples", "example", "docs":
			return true
		}
	}
	base := path.Base(f.Path)
	switch stem, _, _ := strings.Cut(base, "."); {
	case stem == "cli", strings.Contains(base, ".config."),
		base == "__main__.py", base == "manage.py", base == "setup.py", base == "conftest.py", base == "noxfile.py",
		// Test and benchmark drivers, and logging modules, print by design.
		stem == "test", stem == "tests", stem == "bench", stem == "benchmark", stem == "log", stem == "logger", stem == "logging":
		return true
	}
	return lens.Vendored(f.Path)
}

const debugPrintSuggestion = "Remove the debugging output, or log through the project's logger at debug level."

func goDebugStatement(p *lens.Pass) {
	if !p.Contains("Print") && !p.Contains("print") || review.IsTestPath(p.File.Path) {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil || g.File.Name.Name == "main" {
		return
	}
	fmtName := lens.GoImportName(g.File, "fmt")
	shadowed := map[string]bool{}
	for _, d := range g.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			shadowed[fd.Name.Name] = true
		}
	}
	ast.PreorderStack(g.File, nil, func(n ast.Node, stack []ast.Node) bool {
		stmt, ok := n.(*ast.ExprStmt)
		if !ok {
			return true
		}
		if goDebugGuarded(stack) {
			return true
		}
		call, ok := stmt.X.(*ast.CallExpr)
		if !ok {
			return true
		}
		var what string
		switch {
		case lens.IsGoPkgCall(call, fmtName, "Print", "Printf", "Println"):
			what = "fmt." + call.Fun.(*ast.SelectorExpr).Sel.Name
		default:
			id, ok := call.Fun.(*ast.Ident)
			if !ok || id.Name != "print" && id.Name != "println" || shadowed[id.Name] {
				return true
			}
			what = id.Name
		}
		line := g.Line(stmt.Pos())
		if !p.Changed(line) {
			return true
		}
		p.Report(lens.Report{
			Line: line, Col: g.Col(stmt.Pos()), Symbol: g.EnclosingFunc(line), Title: "Debug statement left in: " + what,
			Message: fmt.Sprintf("%s in package %s writes to the %s of every program that imports it: a debugging leftover "+
				"that corrupts their output.", what, g.File.Name.Name, goPrintStream(what)),
			Suggested: "Remove the print, or log through a *slog.Logger the caller provides.",
		})
		return true
	})
}

// goPrintStream is where a Go print call writes: the builtins print and
// println write to standard error, fmt's functions to standard output.
func goPrintStream(what string) string {
	if what == "print" || what == "println" {
		return "standard error"
	}
	return "standard output"
}

// debugGuardRE matches a condition on a debug, verbose or trace setting.
var debugGuardRE = regexp.MustCompile(`(?i)debug|verbose|trace|dump`)

// goDebugGuarded reports whether a statement sits under an if whose
// condition tests a debug, verbose or trace setting: deliberate output.
func goDebugGuarded(stack []ast.Node) bool {
	for _, n := range stack {
		if ifs, ok := n.(*ast.IfStmt); ok && debugGuardRE.MatchString(types.ExprString(ifs.Cond)) {
			return true
		}
	}
	return false
}

var (
	pyCLIImportRE = regexp.MustCompile(`(?m)^\s*(?:import|from)\s+(?:argparse|click|typer|fire|docopt)\b`)
	// pyTrapRE matches a statement that stops in the debugger; pyPdbRE
	// also the import that may share its line (import pdb; pdb.set_trace()).
	pyTrapRE  = regexp.MustCompile(`^(?:(?:pdb|ipdb|pudb)\s*\.\s*set_trace\s*\(|breakpoint\s*\()`)
	pyPdbRE   = regexp.MustCompile(`^(?:import\s+(?:pdb|ipdb|pudb)\b|from\s+(?:pdb|ipdb|pudb)\s+import\b|(?:pdb|ipdb|pudb)\s*\.\s*set_trace\s*\(|breakpoint\s*\()`)
	pyPrintRE = regexp.MustCompile(`^print\s*\(`)
)

// pyCLIImport reports whether a module imports a command-line library.
// The multi-line pattern has no literal to anchor on, so it runs only on
// code that names one of the libraries (it cost 0.85 ms on a 1,000-line
// file otherwise).
func pyCLIImport(code string) bool {
	for _, lib := range []string{"argparse", "click", "typer", "fire", "docopt"} {
		if strings.Contains(code, lib) {
			return pyCLIImportRE.MatchString(code)
		}
	}
	return false
}

func pyDebugStatement(p *lens.Pass) {
	hasPrint := p.Contains("print(") || p.Contains("print (")
	hasTrap := p.Contains("pdb") || p.Contains("breakpoint(") || p.Contains("pudb")
	if !hasPrint && !hasTrap {
		return
	}
	py := syntax.Python(p.File)
	// A module with a __main__ block is also a script: its prints are output.
	prints := hasPrint && !printingAllowed(p.File) && !pyCLIImport(py.Code) && len(py.Main) == 0
	p.EachChanged(func(n int, _ string) {
		if !py.Lines[n-1].Logical {
			return
		}
		code := py.CodeLine(n)
		stmt := strings.TrimLeft(code, " \t")
		col := len(code) - len(stmt) + 1
		var r lens.Report
		switch {
		case hasTrap && pyTrapLine(stmt) != "":
			what := pyTrapLine(stmt)
			r = lens.Report{
				Title: "Debugger breakpoint left in: " + what,
				Message: "A debugger breakpoint (" + what + ") is left in the code: the " +
					"process stops and waits on standard input when it gets here, which hangs a server or a CI job.",
				Suggested: "Remove the breakpoint.",
				Severity:  review.SeverityMedium,
			}
		case prints && pyPrintRE.MatchString(stmt) && !pyDeliberatePrint(py, n):
			open := py.Offset(n) + col - 1 + strings.Index(stmt, "(")
			for _, a := range py.Args(open) {
				if a.Name == "file" {
					return // printing to an explicit stream is deliberate
				}
			}
			r = lens.Report{
				Title: "Debug statement left in: print()",
				Message: "print() in a library module writes to the standard output of every program that imports it: " +
					"a debugging leftover that corrupts their output.",
				Suggested: debugPrintSuggestion + " (logging.getLogger(__name__).debug(...)).",
			}
		default:
			return
		}
		r.Line, r.Col, r.Symbol = n, col, lens.PyFuncName(py, n)
		r.Fix = pyDeleteStatement(p, py, n)
		p.Report(r)
	})
}

// outputFuncRE matches names of functions whose job is to produce output.
var outputFuncRE = regexp.MustCompile(`(?i)print|report|show|display|dump|usage|help|echo|summar|describe|pretty|repl|^_*(?:main|cli|render|log)`)

// pyDeliberatePrint reports a print that is the point of its code: inside
// a function named for output (report, show, dump, ...) or under a
// condition on a debug or verbose setting.
func pyDeliberatePrint(py *syntax.PyFile, n int) bool {
	if fn := py.FuncAt(n); fn != nil && outputFuncRE.MatchString(fn.Name) {
		return true
	}
	indent := py.Lines[n-1].Indent
	for k := n - 1; k >= 1 && indent > 0; k-- {
		l := py.Lines[k-1]
		if !l.Logical || l.Indent >= indent {
			continue
		}
		indent = l.Indent
		code := strings.ToLower(py.CodeLine(k))
		if strings.Contains(code, "def ") {
			break
		}
		if debugGuardRE.MatchString(code) {
			return true
		}
	}
	return false
}

// pyTrapLine returns the breakpoint call a statement line makes
// (breakpoint(), pdb.set_trace()), looking past a leading pdb import on
// the same line, or "".
func pyTrapLine(stmt string) string {
	for _, part := range strings.Split(stmt, ";") {
		part = strings.TrimSpace(part)
		if m := pyTrapRE.FindString(part); m != "" {
			return strings.Join(strings.Fields(m), "") + ")"
		}
	}
	return ""
}

// pyDeleteStatement deletes the statement that starts on line n and fills
// its lines, or replaces it with pass when it is the only statement of its
// block. It returns nil when other code shares the lines.
func pyDeleteStatement(p *lens.Pass, py *syntax.PyFile, n int) *review.Fix {
	end := n
	for k := n + 1; k <= len(py.Lines) && !py.Lines[k-1].Logical && !py.Lines[k-1].Blank; k++ {
		end = k
	}
	code := strings.TrimSpace(py.CodeLine(n))
	if strings.Contains(code, ";") {
		// Only a line made of breakpoint statements (import pdb;
		// pdb.set_trace()) is deleted whole.
		for _, part := range strings.Split(code, ";") {
			if part = strings.TrimSpace(part); part != "" && !pyPdbRE.MatchString(part) {
				return nil
			}
		}
	}
	indent := py.Lines[n-1].Indent
	alone := true
	for k := n - 1; k >= 1; k-- {
		l := py.Lines[k-1]
		if !l.Logical {
			continue
		}
		if l.Indent < indent {
			alone = len(py.Statements(k)) == 1
			break
		}
		if l.Indent == indent {
			alone = false
			break
		}
	}
	if alone {
		for k := end + 1; k <= len(py.Lines); k++ {
			if l := py.Lines[k-1]; l.Logical {
				alone = l.Indent < indent
				break
			}
		}
	}
	span := review.Span{Path: p.File.Path, StartLine: n, EndLine: end}
	if alone && indent > 0 {
		line := p.Line(n)
		return &review.Fix{Title: "Replace the statement with pass", Edits: []review.TextEdit{{
			Span: span, NewText: line[:len(line)-len(strings.TrimLeft(line, " \t"))] + "pass\n",
		}}}
	}
	return &review.Fix{Title: "Delete the statement", Edits: []review.TextEdit{{Span: span}}}
}

// jsCLIModules mark a command-line tool, where console output is the
// interface.
var jsCLIModules = []string{"commander", "yargs", "meow", "cac", "minimist", "@oclif/core"}

var jsConsoleDebug = map[string]bool{"log": true, "debug": true, "trace": true}

func jsDebugStatement(p *lens.Pass) {
	hasConsole, hasDebugger := p.Contains("console."), p.Contains("debugger")
	if !hasConsole && !hasDebugger {
		return
	}
	if hasConsole && printingAllowed(p.File) {
		hasConsole = false
	}
	if hasConsole {
		for _, im := range syntax.JSImports(p.File) {
			for _, m := range jsCLIModules {
				if im.Module == m || strings.HasPrefix(im.Module, m+"/") {
					hasConsole = false
				}
			}
		}
	}
	if !hasConsole && !hasDebugger {
		return
	}
	js := syntax.JS(p.File)
	p.EachChanged(func(n int, _ string) {
		lo, hi := js.LineToks(n)
		for i := lo; i < hi; i++ {
			var r lens.Report
			var end int // index after the statement's last token
			switch {
			case hasDebugger && js.Is(i, "debugger") && js.StatementStart(i):
				end = i + 1
				r = lens.Report{
					Title: "Debugger breakpoint left in: debugger",
					Message: "A `debugger` statement is left in the code: execution stops here whenever developer tools " +
						"or an inspector are attached.",
					Suggested: "Remove the debugger statement.",
					Severity:  review.SeverityMedium,
				}
			case hasConsole && js.Is(i, "console") && js.Is(i+1, ".") && jsConsoleDebug[js.Text(i+2)] && js.Is(i+3, "("):
				end = js.Match(i+3) + 1
				if end <= 0 {
					continue
				}
				r = lens.Report{
					Title: fmt.Sprintf("Debug statement left in: console.%s", js.Text(i+2)),
					Message: fmt.Sprintf("console.%s(...) is debugging output left in application code: it floods the "+
						"browser console or the server's logs and can leak the values it prints.", js.Text(i+2)),
					Suggested: debugPrintSuggestion,
				}
			default:
				continue
			}
			if js.Is(end, ";") {
				end++
			}
			r.Line, r.Col = n, js.Col(i)
			r.Fix = jsDeleteStatement(p, js, i, end)
			p.Report(r)
		}
	})
}

// jsDeleteStatement deletes tokens [i, end) when they form a whole
// statement that fills its lines. A statement after a bare if, else or
// loop head is kept: deleting it would change what the head controls.
func jsDeleteStatement(p *lens.Pass, js *syntax.JSFile, i, end int) *review.Fix {
	first, last := int(js.Toks[i].Line), int(js.Toks[end-1].Line)
	if lo, _ := js.LineToks(first); lo != i {
		return nil
	}
	if end < len(js.Toks) && int(js.Toks[end].Line) == last {
		return nil
	}
	switch prev := i - 1; {
	case prev < 0, js.Is(prev, ";"), js.Is(prev, "{"), js.Is(prev, "}"):
	case js.Toks[i].NL && (js.Kind(prev) == syntax.TokString || js.Kind(prev) == syntax.TokNumber || js.Is(prev, "]")):
	case js.Toks[i].NL && js.Kind(prev) == syntax.TokIdent && !js.Is(prev, "else") && !js.Is(prev, "do"):
	default:
		return nil
	}
	if !js.Is(end-1, ";") && !js.EndsStatement(end) {
		return nil
	}
	return &review.Fix{Title: "Delete the statement", Edits: []review.TextEdit{{
		Span: review.Span{Path: p.File.Path, StartLine: first, EndLine: last},
	}}}
}
