package readiness

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// UndocumentedChange notes changes to a library's public API made without
// any documentation change. It is a whole-change rule: its result is one
// review-level note (a recommended action), never a line finding.
var UndocumentedChange = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/undocumented-change",
		Perspective: review.Readiness,
		Category:    CatDocumentation,
		Severity:    review.SeverityLow,
		Languages:   append([]review.Language{review.LangGo, review.LangPython, review.LangJSON}, lens.JSLangs...),
		Depth:       review.DepthStandard,
		CrossFile:   true,
		Note:        review.NoteUndocumentedAPI,
		Summary:     "Library API changed without a documentation change",
		Doc: "Users of a library learn its API from its README, docs and changelog; when the change alters that API " +
			"and touches none of them, upgrades break without warning. Update the docs or add a changelog entry. " +
			"This is a review-level note (a recommended action), not a line finding: it never counts towards the " +
			"verdict or a gate. It covers library code only: files outside cmd/, internal/, examples/, example/, " +
			"_examples/, testdata/, test and tests directories, scripts/, tools/, hack/, bin/ and directories whose " +
			"name starts with _ or a dot, and not in a Go main package, a Python __main__.py or script, or a " +
			"private npm package (\"private\": true). Triggers, on added lines: a changed signature (or removal) of " +
			"an exported Go function, or of a method of an exported type; a new environment variable read " +
			"(os.Getenv, os.environ, process.env) that the file did not read before, a configuration knob users " +
			"cannot discover; and changes to package.json's bin, exports, main, module or types. Application " +
			"surface is not a trigger: command-line flags carry their own help text, and routes belong to an " +
			"application. A documentation change is any Markdown, reStructuredText or AsciiDoc file, anything under " +
			"docs/ or doc/, a README, CHANGELOG, CHANGES, HISTORY, NEWS or RELEASE file, or a .changeset entry. New " +
			"exported Go functions are not a trigger (their doc comments are their documentation), nor are matches in " +
			"comments and strings, environment writes, or vendored, dist and minified files.",
		Bad:  "M  store/store.go   func Get(ctx context.Context, key string) (was Get(key string))\n   (no README or CHANGELOG change)",
		Good: "M  store/store.go   func Get(ctx context.Context, key string)\nM  CHANGELOG.md     \"store: Get takes a context\"",
	},
	Change: runUndocumentedChange,
}

// surfaceTrigger is one public-surface change found in a file.
type surfaceTrigger struct {
	line int
	what string
}

var (
	goEnvRE      = regexp.MustCompile(`\bos\.(?:Getenv|LookupEnv)\(\s*"(\w+)"`)
	pyEnvRE      = regexp.MustCompile(`\bos\.(?:getenv\(|environ\.get\(|environ\[)\s*["'](\w+)["']`)
	jsEnvRE      = regexp.MustCompile(`\bprocess\.env\.([A-Za-z_]\w*)|\bprocess\.env\[\s*['"](\w+)['"]`)
	pkgSurfaceRE = regexp.MustCompile(`^(\s*)"(bin|exports|main|module|types|typings)"\s*:`)
	jsonKeyRE    = regexp.MustCompile(`^(\s*)"[^"]+"\s*:`)
)

// commonEnv are environment variables every platform or toolchain sets;
// reading them adds no configuration knob.
var commonEnv = map[string]bool{
	"NODE_ENV": true, "HOME": true, "PATH": true, "USER": true, "PWD": true, "TMPDIR": true, "TERM": true,
	"SHELL": true, "LANG": true, "CI": true, "DEBUG": true, "XDG_CONFIG_HOME": true, "XDG_CACHE_HOME": true,
	"GODEBUG": true, "GOFLAGS": true, "GOOS": true, "GOARCH": true, "GOPATH": true, "GOROOT": true, "TZ": true,
	"NO_COLOR": true, "PYTHONPATH": true,
}

// maxNoteTriggers bounds the triggers a note lists; the rest are counted.
const maxNoteTriggers = 4

func runUndocumentedChange(p *lens.ChangePass) {
	cs := p.ChangeSet
	if docsChanged(cs) {
		return
	}
	var (
		paths []string
		whats []string
		total int
	)
	for _, f := range p.Files() {
		if !lens.LibraryPath(f.Path) {
			continue
		}
		triggers := surfaceTriggers(p.File(f), cs)
		if len(triggers) == 0 {
			continue
		}
		paths = append(paths, f.Path)
		for _, t := range triggers {
			if total < maxNoteTriggers {
				whats = append(whats, fmt.Sprintf("%s:%d %s", f.Path, t.line, t.what))
			}
			total++
		}
	}
	if total == 0 {
		return
	}
	if total > maxNoteTriggers {
		whats = append(whats, fmt.Sprintf("and %d more", total-maxNoteTriggers))
	}
	p.Note(fmt.Sprintf("The change alters the public API of library code (%s), but updates no documentation (README, "+
		"docs/, CHANGELOG): users will not learn about it, and upgrades may break without warning.", strings.Join(whats, "; ")),
		"Document the change in the README or docs/, and add a CHANGELOG entry.", paths...)
}

// surfaceTriggers returns the library-API changes of one file.
func surfaceTriggers(p *lens.Pass, cs *review.ChangeSet) []surfaceTrigger {
	f := p.File
	if lens.Vendored(f.Path) || review.IsTestPath(f.Path) {
		return nil
	}
	switch base := path.Base(f.Path); {
	case f.Language == review.LangJSON:
		if base == "package.json" && !privatePackage(cs, path.Dir(f.Path)) {
			return packageJSONTriggers(p)
		}
	case f.Language == review.LangGo:
		return goSurfaceTriggers(p)
	case f.Language == review.LangPython:
		switch base {
		case "conftest.py", "__main__.py", "setup.py", "manage.py", "noxfile.py":
			return nil
		}
		if len(syntax.Python(f).Main) > 0 {
			return nil // a script
		}
		return envTriggers(p, "environ", "getenv")
	case f.Language.IsJS():
		if privatePackage(cs, path.Dir(f.Path)) {
			return nil
		}
		return envTriggers(p, "process.env")
	}
	return nil
}

var privateOf review.Memo[*privateCache]

// privateCache remembers, per directory, whether the nearest package.json
// at or above it declares a private package.
type privateCache struct {
	mu   sync.Mutex
	dirs map[string]bool
}

// privatePackage reports whether the nearest package.json at or above dir
// (the change set's version, else the work tree's) says "private": true:
// an application or a monorepo root, not a published library.
func privatePackage(cs *review.ChangeSet, dir string) bool {
	c := privateOf.OfSet(cs, func() *privateCache { return &privateCache{dirs: map[string]bool{}} })
	c.mu.Lock()
	defer c.mu.Unlock()
	var walk func(dir string) bool
	walk = func(dir string) bool {
		if v, ok := c.dirs[dir]; ok {
			return v
		}
		pj := path.Join(dir, "package.json")
		var data []byte
		if f := cs.File(pj); f != nil {
			data = f.Content
		} else if cs.Root != "" {
			data, _ = os.ReadFile(filepath.Join(cs.Root, filepath.FromSlash(pj)))
		}
		var v bool
		if data != nil {
			var pkg struct {
				Private bool `json:"private"`
			}
			_ = json.Unmarshal(data, &pkg) // a malformed manifest is not private
			v = pkg.Private
		} else if dir != "." && dir != "/" && dir != "" {
			v = walk(path.Dir(dir))
		}
		c.dirs[dir] = v
		return v
	}
	return walk(dir)
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

// envTriggers scans the changed lines of a Python or JavaScript file for
// environment variables it did not read before; hints pre-filter the
// file.
func envTriggers(p *lens.Pass, hints ...string) []surfaceTrigger {
	found := false
	for _, h := range hints {
		found = found || p.Contains(h)
	}
	if !found {
		return nil
	}
	envRE := jsEnvRE
	if p.File.Language == review.LangPython {
		envRE = pyEnvRE
	}
	var out []surfaceTrigger
	var unchangedEnv map[string]bool
	inCode := codeChecker(p)
	p.EachChanged(func(n int, line string) {
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
		py := syntax.Python(p.File)
		return func(n, col int) bool {
			code := py.CodeLine(n)
			line := p.Line(n)
			return col < len(code) && col < len(line) && code[col] == line[col]
		}
	case lang.IsJS():
		js := syntax.JS(p.File)
		return func(n, col int) bool {
			lo, hi := js.LineToks(n)
			for i := lo; i < hi; i++ {
				if js.Col(i)-1 == col {
					return js.Kind(i) == syntax.TokIdent || js.Kind(i) == syntax.TokPunct
				}
			}
			return false
		}
	}
	comments := syntax.Comments(p.File)
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

// goSurfaceTriggers returns the API changes and new environment reads of
// a Go library package's file.
func goSurfaceTriggers(p *lens.Pass) []surfaceTrigger {
	g := syntax.Go(p.File)
	if g.File == nil || g.File.Name.Name == "main" {
		return nil
	}
	var out []surfaceTrigger
	if p.Contains("os.Getenv") || p.Contains("os.LookupEnv") {
		var unchangedEnv map[string]bool
		inCode := codeChecker(p)
		p.EachChanged(func(n int, line string) {
			for _, m := range goEnvRE.FindAllStringSubmatch(line, -1) {
				if commonEnv[m[1]] || !inCode(n, strings.Index(line, m[0])) {
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
	return append(out, goAPITriggers(p, g)...)
}

// goAPITriggers reports exported functions, and methods of exported
// types, whose signature changed or that were removed: the base version
// (rebuilt from the hunks) and the new one are parsed and their
// signatures compared token by token, comments left out.
func goAPITriggers(p *lens.Pass, g *syntax.GoFile) []surfaceTrigger {
	// Memoised on the file: the language server's runs reuse the files a
	// save did not change, and the base parse is the cost.
	return goAPIOf.Of(p.File, func() []surfaceTrigger { return computeGoAPITriggers(p, g) })
}

var goAPIOf review.Memo[[]surfaceTrigger]

func computeGoAPITriggers(p *lens.Pass, g *syntax.GoFile) []surfaceTrigger {
	src, ok := lens.OldContent(p.File)
	if !ok || len(src) == 0 {
		return nil // the base is unknown, or the file is new
	}
	fset := token.NewFileSet()
	base, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if base == nil {
		return nil
	}
	old := goAPI(fset, base, src)
	if len(old) == 0 {
		return nil
	}
	var out []surfaceTrigger
	for key, sig := range goAPI(g.Fset, g.File, p.File.Content) {
		was, ok := old[key]
		delete(old, key)
		if !ok || was.sig == sig.sig {
			continue
		}
		// A doc comment rewritten with the signature is the API's
		// documentation changing with it.
		if d := sig.decl.Doc; d != nil && changedBetween(p, g.Line(d.Pos()), g.Line(d.End())) {
			continue
		}
		out = append(out, surfaceTrigger{g.Line(sig.decl.Name.Pos()), fmt.Sprintf("signature of exported %s changed", key)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	if first := p.File.ChangedLines(); len(first) > 0 {
		for _, key := range slices.Sorted(maps.Keys(old)) {
			out = append(out, surfaceTrigger{first[0], fmt.Sprintf("exported %s removed", key)})
		}
	}
	return out
}

// goSignature is an exported function's declaration and its signature's
// tokens (receiver, name, parameters, results; comments left out).
type goSignature struct {
	decl *ast.FuncDecl
	sig  string
}

// goAPI returns the exported functions, and methods of exported types, of
// a Go file by qualified name (Type.Method).
func goAPI(fset *token.FileSet, f *ast.File, src []byte) map[string]goSignature {
	out := map[string]goSignature{}
	if f == nil || f.Name.Name == "main" {
		return out
	}
	tf := fset.File(f.Package)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !fd.Name.IsExported() || fd.Recv != nil && !token.IsExported(syntax.GoRecvType(fd)) || tf == nil {
			continue
		}
		start, end := tf.Offset(fd.Pos()), tf.Offset(fd.Type.End())
		if start < 0 || end > len(src) || start > end {
			continue
		}
		var s scanner.Scanner
		seg := src[start:end]
		s.Init(token.NewFileSet().AddFile("", -1, len(seg)), seg, nil, 0)
		var b strings.Builder
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.SEMICOLON && lit == "\n" {
				continue
			}
			b.WriteString(tok.String() + lit + " ")
		}
		out[syntax.GoFuncName(fd)] = goSignature{fd, b.String()}
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
