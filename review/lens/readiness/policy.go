package readiness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// Policy finds what the project's explicit policy (`policy:` in
// .reviewls.yaml) forbids: a changed file under a forbidden path, an
// added import of a forbidden package, an added forbidden dependency. A
// review that finds one recommends reject ([review.PolicyRule]).
var Policy = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          review.PolicyRule,
		Perspective: review.Readiness,
		Category:    CatMergeability,
		Severity:    review.SeverityHigh,
		Depth:       review.DepthBasic,
		Summary:     "Forbidden by the project policy",
		Doc: "The project's configuration states what no change may do, under `policy:` in .reviewls.yaml: " +
			"`forbidden-paths` (doublestar globs of files no change may add or modify), `forbidden-imports` (Go " +
			"import paths, Python modules, JavaScript and TypeScript packages; a subpackage of one is forbidden " +
			"too) and `forbidden-dependencies` (modules in go.mod, packages in package.json, requirements files " +
			"and pyproject.toml). Each added line that breaks it is a finding citing the policy; a review with " +
			"one recommends reject, the only way a review rejects: from a written policy, never from preference. " +
			"Without a policy the rule finds nothing.",
		Bad:  "import \"github.com/pkg/errors\" // with policy: {forbidden-imports: [github.com/pkg/errors]}",
		Good: "import \"errors\"",
	},
	Run: runPolicy,
}

func runPolicy(p *lens.Pass) {
	if p.Config == nil || p.Config.Policy.Empty() {
		return
	}
	pol := p.Config.Policy
	for _, glob := range pol.Paths {
		if ok, _ := doublestar.Match(glob, p.File.Path); ok {
			if n := p.FirstChanged(1, len(p.Lines())); n > 0 {
				reportPolicy(p, n, "forbidden-paths", glob, fmt.Sprintf("a change to %s", p.File.Path))
			}
			break
		}
	}
	if len(pol.Imports) > 0 {
		for _, im := range imports(p.File) {
			if !p.Changed(im.line) {
				continue
			}
			if entry, ok := forbidden(pol.Imports, im.name, p.File.Language); ok {
				reportPolicy(p, im.line, "forbidden-imports", entry, "an import of "+im.name)
			}
		}
	}
	if len(pol.Dependencies) > 0 {
		for _, d := range allDependencies(p) {
			if !p.Changed(d.line) {
				continue
			}
			if entry, ok := forbidden(pol.Dependencies, d.name, review.LangUnknown); ok {
				reportPolicy(p, d.line, "forbidden-dependencies", entry, "the dependency "+d.name)
			}
		}
	}
}

// reportPolicy reports what breaks the entry of the policy's key.
func reportPolicy(p *lens.Pass, n int, key, entry, what string) {
	p.Report(lens.Report{
		Line:  n,
		Title: fmt.Sprintf("Forbidden by policy.%s: %s", key, entry),
		Message: fmt.Sprintf("The change adds %s, which the project policy forbids (policy.%s lists %q in .reviewls.yaml): "+
			"the change does not fit the project as it is written down.", what, key, entry),
		Suggested: fmt.Sprintf("Leave it out of the change; if the policy should change, change policy.%s in its own reviewed change.", key),
		Match:     key + " " + entry,
	})
}

// forbidden returns the entry of list that forbids name: the same name,
// or one of its subpackages (a Go or JavaScript path below it, a Python
// module inside it).
func forbidden(list []string, name string, lang review.Language) (string, bool) {
	name = strings.TrimPrefix(name, "node:")
	for _, e := range list {
		switch {
		case name == e, strings.HasPrefix(name, e+"/"):
			return e, true
		case lang == review.LangPython && strings.HasPrefix(name, e+"."):
			return e, true
		case lang == review.LangUnknown && normalizePy(name) == normalizePy(e):
			return e, true // a Python distribution spelled another way
		}
	}
	return "", false
}

// importLine is an import and the line it is on.
type importLine struct {
	line int
	name string
}

// imports returns the imports of a Go, Python, JavaScript or TypeScript
// file.
func imports(f *review.File) []importLine {
	var out []importLine
	switch {
	case f.Language == review.LangGo:
		g := syntax.Go(f)
		if g.File == nil {
			return nil
		}
		for _, im := range g.File.Imports {
			if s, err := strconv.Unquote(im.Path.Value); err == nil {
				out = append(out, importLine{g.Line(im.Path.Pos()), s})
			}
		}
	case f.Language == review.LangPython:
		py := syntax.Python(f)
		for n := 1; n <= len(py.Lines); n++ {
			if !py.Lines[n-1].Logical {
				continue
			}
			code := strings.TrimSpace(py.CodeLine(n))
			switch {
			case strings.HasPrefix(code, "import "):
				for _, part := range strings.Split(strings.TrimPrefix(code, "import "), ",") {
					if fs := strings.Fields(part); len(fs) > 0 {
						out = append(out, importLine{n, strings.Trim(fs[0], "()")})
					}
				}
			case strings.HasPrefix(code, "from "):
				if fs := strings.Fields(code); len(fs) >= 2 && !strings.HasPrefix(fs[1], ".") {
					out = append(out, importLine{n, fs[1]})
				}
			}
		}
	case f.Language.IsJS():
		js := syntax.JS(f)
		t := js.Toks
		text := func(i int) string { return js.Src[t[i].Off:t[i].End] }
		for i := 1; i < len(t); i++ {
			s := text(i)
			if len(s) < 2 || s[0] != '"' && s[0] != '\'' {
				continue
			}
			prev := text(i - 1)
			call := prev == "(" && i >= 2 && (text(i-2) == "require" || text(i-2) == "import")
			if prev == "from" || prev == "import" || call {
				out = append(out, importLine{int(t[i].Line), s[1 : len(s)-1]})
			}
		}
	}
	return out
}

// allDependencies returns every dependency a manifest declares, runtime
// or not: a policy forbids a package in any role.
func allDependencies(p *lens.Pass) []dependency {
	lines := p.Lines()
	switch manifestKind(p.File.Path) {
	case "go.mod":
		var out []dependency
		for _, l := range goModLines(lines) {
			if l.verb == "require" && len(l.args) >= 1 {
				out = append(out, dependency{line: l.n, name: l.args[0]})
			}
		}
		return out
	case "package.json":
		return packageJSONDeps(lines, "dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
	case "pyproject.toml":
		return pyprojectDeps(lines)
	case "requirements":
		return requirementsDeps(lines)
	}
	return nil
}
