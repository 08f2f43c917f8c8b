package readiness

import (
	"bytes"
	"fmt"
	"go/ast"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// UndocumentedChange finds changes to a project's public surface made
// without any documentation change.
var UndocumentedChange = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/undocumented-change",
		Perspective: review.Readiness,
		Category:    CatDocumentation,
		Severity:    review.SeverityLow,
		Languages:   append([]string{review.LangGo, review.LangPython, review.LangJSON}, lens.JSLangs...),
		Depth:       review.DepthStandard,
		CrossFile:   true,
		Summary:     "Public behaviour changed without a documentation change",
		Doc: "Users learn a project's surface from its README, docs and changelog; when the change adds or alters that " +
			"surface and touches none of them, the new behaviour is undiscoverable and upgrades break without warning. " +
			"Update the docs or add a changelog entry. Triggers, on added lines of non-test files: a changed signature " +
			"(or removal) of an exported Go function or method outside internal/ and package main; a new command-line " +
			"flag or argument (Go flag and cobra/pflag, argparse add_argument, click and typer options, commander and " +
			"yargs .option/.command); a new HTTP route (net/http Handle/HandleFunc, chi/echo/gin methods, Flask/FastAPI " +
			"decorators, Express/Fastify app and router methods); a new environment variable read (os.Getenv, " +
			"os.environ, process.env) that the file did not read before; and changes to package.json's bin, exports, " +
			"main, module or types. A documentation change is any Markdown, reStructuredText or AsciiDoc file, anything " +
			"under docs/ or doc/, a README, CHANGELOG, CHANGES, HISTORY, NEWS or RELEASE file, or a .changeset entry. " +
			"New exported Go functions are not a trigger (their doc comments are their documentation), nor are matches in " +
			"comments and strings, environment writes, conftest.py, or vendored, dist and minified files.",
		Bad:  "M  cmd/serve.go   flag.Duration(\"drain-timeout\", ...)\n   (no README or CHANGELOG change)",
		Good: "M  cmd/serve.go   flag.Duration(\"drain-timeout\", ...)\nM  CHANGELOG.md   \"serve: --drain-timeout ...\"",
	},
	Run: runUndocumentedChange,
}

// surfaceTrigger is one public-surface change found in a file.
type surfaceTrigger struct {
	line int
	what string
}

var (
	goFlagRE     = regexp.MustCompile(`\b(?:flag|fs|flags|flagSet|fset|Flags\(\)|PersistentFlags\(\))\.(?:String|Bool|Int|Int64|Uint|Uint64|Float64|Duration|StringSlice|StringArray|IntSlice|Count|Func|BoolFunc|TextVar|Var)(?:Var)?P?\(\s*(?:&?[\w.]+\s*,\s*)?"([\w.-]+)"`)
	pyFlagRE     = regexp.MustCompile(`\badd_argument\(\s*["']([\w-]+)["']|@click\.(?:option|argument)\(\s*["']([\w-]+)["']|typer\.(?:Option|Argument)\([^)]*["'](--?[\w-]+)["']`)
	jsFlagRE     = regexp.MustCompile(`\.(?:option|requiredOption)\(\s*['"` + "`" + `](-[^'"` + "`" + `]*)['"` + "`" + `]|\.command\(\s*['"` + "`" + `]([\w:-]+)`)
	goRouteRE    = regexp.MustCompile(`\.(?:HandleFunc|Handle|Get|Post|Put|Patch|Delete|GET|POST|PUT|PATCH|DELETE|Any|Group)\(\s*"((?:[A-Z]+ )?/[^"]*)"`)
	pyRouteRE    = regexp.MustCompile(`@\w+\.(route|get|post|put|patch|delete|api_route|websocket)\(\s*["'](/[^"']*)["']`)
	jsRouteRE    = regexp.MustCompile(`\b(?:app|router|server|fastify|api|routes)\.(get|post|put|patch|delete|all|use|route)\(\s*['"` + "`" + `](/[^'"` + "`" + `]*)['"` + "`" + `]`)
	goEnvRE      = regexp.MustCompile(`\bos\.(?:Getenv|LookupEnv)\(\s*"(\w+)"`)
	pyEnvRE      = regexp.MustCompile(`\bos\.(?:getenv\(|environ\.get\(|environ\[)\s*["'](\w+)["']`)
	jsEnvRE      = regexp.MustCompile(`\bprocess\.env\.([A-Za-z_]\w*)|\bprocess\.env\[\s*['"](\w+)['"]`)
	pkgSurfaceRE = regexp.MustCompile(`^(\s*)"(bin|exports|main|module|types|typings)"\s*:`)
	jsonKeyRE    = regexp.MustCompile(`^(\s*)"[^"]+"\s*:`)
	goExportedRE = regexp.MustCompile(`^func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)`)
)

// commonEnv are environment variables every platform or toolchain sets;
// reading them adds no configuration knob.
var commonEnv = map[string]bool{
	"NODE_ENV": true, "HOME": true, "PATH": true, "USER": true, "PWD": true, "TMPDIR": true, "TERM": true,
	"SHELL": true, "LANG": true, "CI": true, "DEBUG": true, "XDG_CONFIG_HOME": true, "XDG_CACHE_HOME": true,
	"GODEBUG": true, "GOFLAGS": true, "GOOS": true, "GOARCH": true, "GOPATH": true, "GOROOT": true, "TZ": true,
	"NO_COLOR": true, "PYTHONPATH": true,
}

func runUndocumentedChange(p *lens.Pass) {
	if lens.Vendored(p.File.Path) {
		return
	}
	f := p.File
	if review.IsTestPath(f.Path) || path.Base(f.Path) == "conftest.py" {
		return
	}
	var triggers []surfaceTrigger
	switch lang := f.Language; {
	case lang == review.LangJSON:
		if path.Base(f.Path) == "package.json" {
			triggers = packageJSONTriggers(p)
		}
	case lang == review.LangGo:
		triggers = goSurfaceTriggers(p)
	case lang == review.LangPython:
		triggers = lineTriggers(p, "add_argument", "click.", "typer.", "environ", "getenv")
	case lens.IsJS(lang):
		triggers = lineTriggers(p, "ption(", "command(", "process.env")
	}
	if len(triggers) == 0 || docsChanged(p.ChangeSet) {
		return
	}
	var whats []string
	for i, t := range triggers {
		if i == 3 {
			whats = append(whats, fmt.Sprintf("and %d more", len(triggers)-3))
			break
		}
		whats = append(whats, t.what)
	}
	p.Report(lens.Report{
		Line: triggers[0].line,
		Message: fmt.Sprintf("%s changes the public surface (%s), but the change updates no documentation (README, "+
			"docs/, CHANGELOG): users will not learn about it, and upgrades may break without warning.", f.Path, strings.Join(whats, "; ")),
		Suggested: "Document the change in the README or docs/, and add a CHANGELOG entry.",
	})
}

// docsChanged reports whether the change set touches documentation.
func docsChanged(cs *review.ChangeSet) bool {
	for _, o := range cs.Files {
		p := o.Path
		base := strings.ToUpper(path.Base(p))
		ext := strings.ToLower(path.Ext(p))
		switch {
		case ext == ".md" || ext == ".mdx" || ext == ".rst" || ext == ".adoc",
			strings.HasPrefix(p, "docs/") || strings.HasPrefix(p, "doc/") || strings.Contains(p, "/docs/") || strings.Contains(p, "/doc/"),
			strings.HasPrefix(p, ".changeset/"):
			return true
		}
		for _, prefix := range []string{"README", "CHANGELOG", "CHANGES", "HISTORY", "NEWS", "RELEASE"} {
			if strings.HasPrefix(base, prefix) {
				return true
			}
		}
	}
	return false
}

// lineTriggers scans the changed lines of a Python or JavaScript file for
// new flags, routes and environment variables; hints pre-filter the file.
func lineTriggers(p *lens.Pass, hints ...string) []surfaceTrigger {
	found := routePathHint(p.File.Content)
	for _, h := range hints {
		if found {
			break
		}
		found = p.Contains(h)
	}
	if !found {
		return nil
	}
	py := p.File.Language == review.LangPython
	flagRE, routeRE, envRE := jsFlagRE, jsRouteRE, jsEnvRE
	if py {
		flagRE, routeRE, envRE = pyFlagRE, pyRouteRE, pyEnvRE
	}
	var out []surfaceTrigger
	var unchangedEnv map[string]bool
	inCode := codeChecker(p)
	p.EachChanged(func(n int, line string) {
		if m := flagRE.FindStringSubmatchIndex(line); m != nil && inCode(n, m[0]) {
			out = append(out, surfaceTrigger{n, "command-line option " + firstGroupAt(line, m)})
		}
		if m := routeRE.FindStringSubmatchIndex(line); m != nil && inCode(n, m[0]) {
			route := line[m[4]:m[5]]
			switch method := line[m[2]:m[3]]; method {
			case "get", "post", "put", "patch", "delete":
				route = strings.ToUpper(method) + " " + route
			}
			out = append(out, surfaceTrigger{n, "route " + route})
		}
		for _, m := range envRE.FindAllStringSubmatchIndex(line, -1) {
			name := firstGroupAt(line, m)
			if commonEnv[name] || !inCode(n, m[0]) || envWrite.MatchString(line[m[1]:]) {
				continue
			}
			if unchangedEnv == nil {
				unchangedEnv = envOnUnchangedLines(p, envRE)
			}
			if !unchangedEnv[name] {
				unchangedEnv[name] = true // report each variable once
				out = append(out, surfaceTrigger{n, "environment variable " + name})
			}
		}
	})
	return out
}

// routePathHint reports whether content holds a call whose first argument
// is a string starting with "/" (`("/users"`), the shape of a route.
func routePathHint(content []byte) bool {
	for i := 0; i < len(content); {
		k := bytes.IndexByte(content[i:], '/')
		if k < 0 {
			return false
		}
		j := i + k
		if j >= 2 && content[j-2] == '(' && (content[j-1] == '\'' || content[j-1] == '"' || content[j-1] == '`') {
			return true
		}
		i = j + 1
	}
	return false
}

// envWrite matches the rest of a line after os.environ["X"] that assigns
// to the variable rather than reading it.
var envWrite = regexp.MustCompile(`^\s*\]?\s*=[^=]`)

// firstGroupAt returns the first participating group of a submatch index.
func firstGroupAt(line string, m []int) string {
	for i := 2; i+1 < len(m); i += 2 {
		if m[i] >= 0 {
			return line[m[i]:m[i+1]]
		}
	}
	return ""
}

// codeChecker returns a function that reports whether byte col (0-based)
// of line n is code rather than a comment or a string: Python uses the
// masked layout, JavaScript the tokens.
func codeChecker(p *lens.Pass) func(n, col int) bool {
	switch lang := p.File.Language; {
	case lang == review.LangPython:
		py := lens.Python(p.File)
		return func(n, col int) bool {
			code := py.CodeLine(n)
			line := p.Line(n)
			return col < len(code) && col < len(line) && code[col] == line[col]
		}
	case lens.IsJS(lang):
		js := lens.JS(p.File)
		return func(n, col int) bool {
			lo, hi := js.LineToks(n)
			for i := lo; i < hi; i++ {
				if js.Col(i)-1 == col {
					return js.Kind(i) == lens.JSIdent || js.Kind(i) == lens.JSPunct
				}
			}
			return false
		}
	}
	comments := lens.Comments(p.File)
	return func(n, col int) bool {
		c := comments[n-1]
		return c.Col == 0 || col < c.Col-1
	}
}

func firstGroup(m []string) string {
	for _, g := range m[1:] {
		if g != "" {
			return g
		}
	}
	return ""
}

// envOnUnchangedLines returns the environment variables read on lines the
// change did not touch: those are not new.
func envOnUnchangedLines(p *lens.Pass, re *regexp.Regexp) map[string]bool {
	out := map[string]bool{}
	for i, line := range p.Lines() {
		if p.Changed(i + 1) {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			out[firstGroup(m)] = true
		}
	}
	for _, h := range p.File.Hunks {
		for _, l := range h.Lines {
			if strings.HasPrefix(l, "-") {
				for _, m := range re.FindAllStringSubmatch(l, -1) {
					out[firstGroup(m)] = true
				}
			}
		}
	}
	return out
}

func goSurfaceTriggers(p *lens.Pass) []surfaceTrigger {
	var out []surfaceTrigger
	if p.Contains("flag") || p.Contains("Flags()") || p.Contains("Handle") || p.Contains("\"/") || p.Contains("os.Getenv") || p.Contains("os.LookupEnv") {
		var unchangedEnv map[string]bool
		var inCode func(n, col int) bool
		code := func(n, col int) bool {
			if inCode == nil {
				inCode = codeChecker(p)
			}
			return inCode(n, col)
		}
		p.EachChanged(func(n int, line string) {
			if m := goFlagRE.FindStringSubmatchIndex(line); m != nil && code(n, m[0]) {
				out = append(out, surfaceTrigger{n, "flag -" + line[m[2]:m[3]]})
			}
			if m := goRouteRE.FindStringSubmatchIndex(line); m != nil && code(n, m[0]) {
				out = append(out, surfaceTrigger{n, "route " + line[m[2]:m[3]]})
			}
			for _, m := range goEnvRE.FindAllStringSubmatch(line, -1) {
				if commonEnv[m[1]] || !code(n, strings.Index(line, m[0])) {
					continue
				}
				if unchangedEnv == nil {
					unchangedEnv = envOnUnchangedLines(p, goEnvRE)
				}
				if !unchangedEnv[m[1]] {
					unchangedEnv[m[1]] = true
					out = append(out, surfaceTrigger{n, "environment variable " + m[1]})
				}
			}
		})
	}
	return append(out, goAPITriggers(p)...)
}

// goAPITriggers reports exported functions whose signature line was
// replaced by a different one, or removed, in a public package.
func goAPITriggers(p *lens.Pass) []surfaceTrigger {
	if len(p.File.Hunks) == 0 || strings.Contains("/"+p.File.Path, "/internal/") {
		return nil
	}
	old := map[string]string{} // exported name -> removed signature line
	for _, h := range p.File.Hunks {
		for _, l := range h.Lines {
			if !strings.HasPrefix(l, "-func ") {
				continue
			}
			if m := goExportedRE.FindStringSubmatch(l[1:]); m != nil {
				old[m[1]] = strings.TrimSpace(l[1:])
			}
		}
	}
	if len(old) == 0 {
		return nil
	}
	g := lens.GoFile(p.File)
	if g.File == nil || g.File.Name.Name == "main" {
		return nil
	}
	var out []surfaceTrigger
	lines := p.Lines()
	for _, d := range g.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		sig, ok := old[fd.Name.Name]
		if !ok {
			continue
		}
		delete(old, fd.Name.Name)
		line := g.Line(fd.Name.Pos())
		if !p.Changed(line) || strings.TrimSpace(lines[line-1]) == sig {
			continue
		}
		// A doc comment rewritten with the signature is the API's
		// documentation changing with it.
		if fd.Doc != nil && changedBetween(p, g.Line(fd.Doc.Pos()), g.Line(fd.Doc.End())) {
			continue
		}
		out = append(out, surfaceTrigger{line, fmt.Sprintf("signature of exported %s changed", lens.FuncName(fd))})
	}
	first := p.File.ChangedLines()
	if len(first) == 0 {
		return out
	}
	for _, name := range slices.Sorted(maps.Keys(old)) {
		out = append(out, surfaceTrigger{first[0], fmt.Sprintf("exported %s removed", name)})
	}
	return out
}

// packageJSONTriggers reports changed lines inside package.json's
// entry-point keys.
func packageJSONTriggers(p *lens.Pass) []surfaceTrigger {
	lines := p.Lines()
	top := -1 // indentation of top-level keys
	key := ""
	var out []surfaceTrigger
	reported := map[string]bool{}
	for i, line := range lines {
		if m := jsonKeyRE.FindStringSubmatch(line); m != nil {
			if top < 0 {
				top = len(m[1])
			}
			if len(m[1]) == top {
				key = ""
				if s := pkgSurfaceRE.FindStringSubmatch(line); s != nil {
					key = s[2]
				}
			}
		}
		if key != "" && p.Changed(i+1) && !reported[key] {
			reported[key] = true
			out = append(out, surfaceTrigger{i + 1, fmt.Sprintf("package.json %q", key)})
		}
	}
	return out
}

// changedBetween reports whether any line in [from, to] changed.
func changedBetween(p *lens.Pass, from, to int) bool {
	for n := from; n <= to; n++ {
		if p.Changed(n) {
			return true
		}
	}
	return false
}
