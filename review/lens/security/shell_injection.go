package security

import (
	"fmt"
	"go/ast"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// ShellInjection finds shell commands built from non-constant strings.
var ShellInjection = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/shell-injection",
		Perspective: review.Security,
		Category:    CatInjection,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-78",
		Summary:     "Shell command built from variable input",
		Doc: "A command string handed to a shell is parsed by the shell, so any value spliced into it that an attacker " +
			"controls (a file name, a branch, a form field) can carry `;`, `|`, `$(...)` or backticks and run arbitrary " +
			"commands with the service's privileges. Reported: Go `exec.Command(\"sh\"|\"bash\"|..., \"-c\", s)` with a " +
			"non-constant s; Python `subprocess.*(cmd, shell=True)`, `subprocess.getoutput`, `os.system` and `os.popen` " +
			"with a non-literal command, and `[\"sh\", \"-c\", cmd]` argument lists; Node `child_process.exec`/`execSync` " +
			"with a template literal that has substitutions or a concatenation. Run the program directly with an argument " +
			"list (no shell), or quote each value (shlex.quote). Constant commands, commands quoted with shlex.quote or " +
			"shlex.join, exec calls with a plain variable (whose origin the rule cannot see) and test files are not reported.",
		Bad:  "subprocess.run(f\"git log {ref}\", shell=True)",
		Good: "subprocess.run([\"git\", \"log\", ref], check=True)",
	},
	Run: runShellInjection,
}

var shellInterpreters = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true}

func runShellInjection(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return // tests handle fixtures, not attacker input
	}
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		goShellInjection(p)
	case lang == review.LangPython:
		pyShellInjection(p)
	case lang.IsJS():
		jsShellInjection(p)
	}
}

const shellInjectionSuggestion = "Run the program directly with an argument list so no shell parses the values, or quote every interpolated value (shlex.quote in Python); validate values that select files or refs."

func goShellInjection(p *lens.Pass) {
	if !p.Contains("os/exec") {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	execName := lens.GoImportName(g.File, "os/exec")
	if execName == "" {
		return
	}
	consts := shellGoConsts(g.File)
	ast.Inspect(g.File, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := "Command"
		switch {
		case lens.IsGoPkgCall(call, execName, "Command"):
		case lens.IsGoPkgCall(call, execName, "CommandContext"):
			fn = "CommandContext"
		default:
			return true
		}
		args := call.Args
		if fn == "CommandContext" && len(args) > 0 {
			args = args[1:]
		}
		if len(args) < 3 {
			return true
		}
		shell, ok1 := shellGoString(args[0])
		flag, ok2 := shellGoString(args[1])
		if !ok1 || !ok2 || !shellInterpreters[path.Base(shell)] || !strings.HasPrefix(flag, "-") || !strings.HasSuffix(flag, "c") {
			return true
		}
		if shellGoConstant(args[2], consts) {
			return true
		}
		line := p.FirstChanged(g.Line(call.Pos()), g.Line(call.End()))
		if line == 0 {
			return true
		}
		script := lens.Snippet(lens.GoText(p.File, args[2]))
		p.Report(lens.Report{
			Line: line, Symbol: g.EnclosingFunc(line),
			Message: fmt.Sprintf("exec.%s(%q, %q, %s) hands a non-constant script to a shell: if any part of %s comes "+
				"from user input, shell metacharacters in it (;, |, $(...)) run arbitrary commands.", fn, shell, flag, script, script),
			Suggested: "Run the program directly, exec.Command(\"git\", \"log\", ref), so no shell parses the values; " +
				"if a shell is unavoidable pass values as positional parameters (sh -c 'git log \"$1\"' sh ref).",
		})
		return true
	})
}

// shellGoConsts returns the names of all constants declared in f.
func shellGoConsts(f *ast.File) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
			for _, s := range d.Specs {
				for _, name := range s.(*ast.ValueSpec).Names {
					out[name.Name] = true
				}
			}
		}
		return true
	})
	return out
}

// shellGoConstant reports whether e is built from string literals and
// constants only.
func shellGoConstant(e ast.Expr, consts map[string]bool) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return consts[e.Name]
	case *ast.ParenExpr:
		return shellGoConstant(e.X, consts)
	case *ast.BinaryExpr:
		return e.Op == token.ADD && shellGoConstant(e.X, consts) && shellGoConstant(e.Y, consts)
	}
	return false
}

var (
	shellPySubprocessRE = regexp.MustCompile(`\b(subprocess|os|commands|[A-Za-z_]\w*)\s*\.\s*(run|call|check_call|check_output|Popen|getoutput|getstatusoutput|system|popen)\s*\(|(?:^|[^.\w])(run|call|check_call|check_output|Popen|getoutput|getstatusoutput|system|popen)\s*\(`)
	shellPyImportAsRE   = regexp.MustCompile(`(?m)^\s*import\s+(subprocess|os)\s+as\s+(\w+)`)
	shellPyFromImportRE = regexp.MustCompile(`(?m)^\s*from\s+(subprocess|os)\s+import\s+\(?([\w\s,]+)`)
)

// shellPyFuncs maps module.function to whether it always uses a shell.
var shellPyFuncs = map[string]bool{
	"subprocess.run": false, "subprocess.call": false, "subprocess.check_call": false,
	"subprocess.check_output": false, "subprocess.Popen": false,
	"subprocess.getoutput": true, "subprocess.getstatusoutput": true,
	"os.system": true, "os.popen": true, "commands.getoutput": true,
}

func pyShellInjection(p *lens.Pass) {
	if !p.Contains("subprocess") && !p.Contains("os.system") && !p.Contains("os.popen") && !p.Contains("commands") {
		return
	}
	py := syntax.Python(p.File)
	// Module aliases (import subprocess as sp) and names imported from
	// subprocess or os.
	alias := map[string]string{"subprocess": "subprocess", "os": "os", "commands": "commands"}
	for _, m := range shellPyImportAsRE.FindAllStringSubmatch(py.Code, -1) {
		alias[m[2]] = m[1]
	}
	direct := map[string]string{}
	for _, m := range shellPyFromImportRE.FindAllStringSubmatch(py.Code, -1) {
		for _, name := range strings.Split(m[2], ",") {
			if f := strings.Fields(name); len(f) > 0 {
				direct[f[0]] = m[1]
			}
		}
	}
	for _, m := range shellPySubprocessRE.FindAllStringSubmatchIndex(py.Code, -1) {
		var fn string
		if m[2] >= 0 {
			mod, ok := alias[py.Code[m[2]:m[3]]]
			if !ok {
				continue
			}
			fn = mod + "." + py.Code[m[4]:m[5]]
		} else {
			name := py.Code[m[6]:m[7]]
			mod, ok := direct[name]
			if !ok {
				continue
			}
			fn = mod + "." + name
		}
		alwaysShell, ok := shellPyFuncs[fn]
		if !ok {
			continue
		}
		open := m[1] - 1
		args := py.Args(open)
		if len(args) == 0 {
			continue
		}
		cmd := args[0]
		if cmd.Name != "" {
			cmd.Off = -1
		}
		shell := alwaysShell
		for _, a := range args {
			switch a.Name {
			case "shell":
				shell = strings.TrimSpace(py.Src[a.Value:a.End]) == "True"
			case "args", "cmd", "command":
				cmd = a
				cmd.Off = a.Value
			}
		}
		if cmd.Off < 0 {
			continue
		}
		value := py.Src[cmd.Off:cmd.End]
		if !shell {
			// ["sh", "-c", cmd] runs a shell without shell=True.
			if !strings.HasPrefix(value, "[") {
				continue
			}
			elems := py.Args(cmd.Off)
			if len(elems) < 3 || !shellPyList(py, elems) {
				continue
			}
			cmd = elems[2]
			value = py.Src[cmd.Off:cmd.End]
		}
		if py.Literal(cmd.Off, cmd.End) || strings.Contains(value, "quote(") || strings.Contains(value, "shlex.join(") {
			continue
		}
		line := p.FirstChanged(py.LineOf(m[0]), py.LineOf(py.Match(open)))
		if line == 0 {
			continue
		}
		p.Report(lens.Report{
			Line: line, Symbol: lens.PyFuncName(py, line),
			Message: fmt.Sprintf("%s() runs `%s` through a shell: if any part of it comes from user input, shell "+
				"metacharacters in it (;, |, $(...)) run arbitrary commands.", fn, lens.Snippet(value)),
			Suggested: shellInjectionSuggestion,
		})
	}
}

// shellPyList reports whether list elements start with a shell and "-c".
func shellPyList(py *syntax.PyFile, elems []syntax.PyArg) bool {
	unq := func(a syntax.PyArg) string {
		if !py.Literal(a.Off, a.End) {
			return ""
		}
		return strings.Trim(py.Src[a.Off:a.End], `"'`)
	}
	flag := unq(elems[1])
	return shellInterpreters[path.Base(unq(elems[0]))] && strings.HasPrefix(flag, "-") && strings.HasSuffix(flag, "c")
}

func jsShellInjection(p *lens.Pass) {
	if !p.Contains("child_process") {
		return
	}
	var ns []string              // namespace bindings of child_process
	named := map[string]string{} // local name -> exec or execSync
	for _, im := range syntax.JSImports(p.File) {
		if !syntax.JSModuleIs(im.Module, "child_process") {
			continue
		}
		switch im.Name {
		case "*", "default":
			ns = append(ns, im.Local)
		case "exec", "execSync":
			named[im.Local] = im.Name
		}
	}
	js := syntax.JS(p.File)
	p.EachChanged(func(n int, _ string) {
		lo, hi := js.LineToks(n)
		for i := lo; i < hi; i++ {
			if js.Kind(i) != syntax.TokIdent || !js.Is(i+1, "(") {
				continue
			}
			name := js.Text(i)
			switch {
			case js.Is(i-1, "."):
				if name != "exec" && name != "execSync" {
					continue
				}
				recv := js.Text(i - 2)
				isNS := false
				for _, l := range ns {
					isNS = isNS || l == recv
				}
				if !isNS && !(recv == ")" && js.Is(i-4, "(") && js.Is(i-5, "require") && strings.Contains(js.Text(i-3), "child_process")) {
					continue
				}
			default:
				var ok bool
				if name, ok = named[name]; !ok {
					continue
				}
			}
			args := js.Args(i + 1)
			if len(args) == 0 || !shellJSBuiltString(js, args[0][0], args[0][1]) {
				continue
			}
			p.Report(lens.Report{
				Line: n, Col: js.Col(i),
				Message: fmt.Sprintf("child_process.%s runs `%s` through /bin/sh: if an interpolated value comes from "+
					"user input, shell metacharacters in it (;, |, $(...)) run arbitrary commands.", name, lens.Snippet(js.Span(args[0][0], args[0][1]))),
				Suggested: "Use execFile or spawn with an argument array (no shell): execFile('git', ['log', ref]).",
			})
		}
	})
}

// shellJSBuiltString reports whether tokens [lo, hi) build a string from
// variable parts: a template with substitutions, or a concatenation with a
// non-literal operand.
func shellJSBuiltString(js *syntax.JSFile, lo, hi int) bool {
	if hi-lo == 1 {
		return js.Kind(lo) == syntax.TokTemplate && js.Toks[lo].Subst()
	}
	concat := false
	for i := lo; i < hi; i++ {
		if js.Is(i, "+") {
			concat = true
		}
		if js.Kind(i) == syntax.TokTemplate && js.Toks[i].Subst() {
			return true
		}
	}
	return concat && !js.ConstExpr(lo, hi)
}

// shellGoString returns the value of a string literal expression.
func shellGoString(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
