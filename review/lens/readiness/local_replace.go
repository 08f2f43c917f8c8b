package readiness

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// catDependency is the category of the dependency rules: what the change
// adds to the build's supply chain.
const catDependency = "Dependency"

// LocalReplace finds go.mod replace directives that point at a local
// directory.
var LocalReplace = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/local-replace",
		Perspective: review.Readiness,
		Category:    catDependency,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGoMod},
		Depth:       review.DepthBasic,
		Fixable:     true,
		Summary:     "go.mod replace points at a local directory",
		Doc: "A replace directive that points a module at a local path (`=> ../lib`, `=> ./vendor/x`) only works " +
			"on the machine that has that directory: everyone else's build, CI and `go install module@version` " +
			"fail or silently build something else, and the released module ignores it anyway. It is usually a " +
			"development aid committed by accident. Remove it before merging and depend on a published version " +
			"(or use a go.work file, which stays local). Replacements by another module version or fork " +
			"(`=> github.com/fork/x v1.2.3`) are not reported.",
		Bad:  "replace example.com/lib => ../lib",
		Good: "require example.com/lib v1.4.0",
	},
	Run: runLocalReplace,
}

// goModLine is a directive line of a go.mod file.
type goModLine struct {
	n    int
	verb string // "require", "replace", ...
	args []string
	// block reports a line inside a parenthesised block.
	block bool
	// indirect reports a "// indirect" comment.
	indirect bool
}

// goModLines returns the directive lines of a go.mod file, block members
// included, with their comments removed.
func goModLines(lines []string) []goModLine {
	var out []goModLine
	block := ""
	for i, raw := range lines {
		line, comment, _ := strings.Cut(raw, "//")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case block != "" && f[0] == ")":
			block = ""
		case block != "":
			out = append(out, goModLine{n: i + 1, verb: block, args: f, block: true, indirect: strings.TrimSpace(comment) == "indirect"})
		case len(f) == 2 && f[1] == "(":
			block = f[0]
		default:
			out = append(out, goModLine{n: i + 1, verb: f[0], args: f[1:], indirect: strings.TrimSpace(comment) == "indirect"})
		}
	}
	return out
}

// localPath reports a replacement target that is a directory rather than a
// module version.
func localPath(p string) bool {
	return strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." ||
		strings.HasPrefix(p, "/") || len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func runLocalReplace(p *lens.Pass) {
	if !p.Contains("replace") {
		return
	}
	for _, l := range goModLines(p.Lines()) {
		if l.verb != "replace" || !p.Changed(l.n) {
			continue
		}
		arrow := -1
		for i, a := range l.args {
			if a == "=>" {
				arrow = i
			}
		}
		if arrow < 1 || arrow+1 >= len(l.args) || !localPath(l.args[arrow+1]) {
			continue
		}
		mod, dir := l.args[0], l.args[arrow+1]
		p.Report(lens.Report{
			Line:  l.n,
			Title: fmt.Sprintf("go.mod replaces %s with the local directory %s", mod, dir),
			Message: fmt.Sprintf("%s is replaced by the local directory %s, which exists only on the author's machine: other "+
				"builds, CI and `go install` fail or build different code, and the replacement is ignored once the "+
				"module is used as a dependency.", mod, dir),
			Suggested: fmt.Sprintf("Remove the replace directive and require a published version of %s; keep local "+
				"development overrides in an uncommitted go.work file.", mod),
			Fix: &review.Fix{
				Title: "Remove the replace directive",
				Edits: []review.TextEdit{{Span: review.Span{Path: p.File.Path, StartLine: l.n, EndLine: l.n}}},
			},
		})
	}
}
