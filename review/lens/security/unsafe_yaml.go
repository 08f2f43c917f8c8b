package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// UnsafeYAMLLoad finds PyYAML loads that can construct arbitrary Python
// objects.
var UnsafeYAMLLoad = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/unsafe-yaml-load",
		Perspective: review.Security,
		Category:    CatParsing,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangPython},
		Depth:       review.DepthBasic,
		Skill:       "CWE-502",
		Summary:     "Unsafe YAML load",
		Doc: "yaml.load with the full Loader (yaml.Loader, UnsafeLoader, CLoader) and yaml.unsafe_load honour tags such " +
			"as !!python/object/apply, so a YAML document from an upload, a request or a repository the attacker " +
			"controls runs arbitrary code when it is parsed; yaml.load without a Loader raises TypeError in PyYAML 6 and " +
			"silently used an unsafe loader before 5.1. Use yaml.safe_load (the fix), or pass Loader=yaml.SafeLoader. " +
			"FullLoader and yaml.full_load are not reported: since PyYAML 5.4 they refuse the tags that run code. " +
			"Custom loader classes are not reported either, since they usually derive from SafeLoader, nor are test files.",
		Bad:     "config = yaml.load(request.data, Loader=yaml.Loader)",
		Good:    "config = yaml.safe_load(request.data)",
		Fixable: true,
	},
	Run: runUnsafeYAMLLoad,
}

var (
	yamlLoadRE = regexp.MustCompile(`\byaml\s*\.\s*(load|load_all|unsafe_load|unsafe_load_all)\s*\(`)
	// unsafeLoaders construct arbitrary Python objects.
	unsafeLoaders = map[string]bool{"Loader": true, "UnsafeLoader": true, "CLoader": true, "CUnsafeLoader": true}
)

func runUnsafeYAMLLoad(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return // tests handle fixtures, not attacker input
	}
	if !p.Contains("yaml") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, _ string) {
		code := py.CodeLine(n)
		if !strings.Contains(code, "yaml") {
			return
		}
		for _, m := range yamlLoadRE.FindAllStringSubmatchIndex(code, -1) {
			fn := code[m[2]:m[3]]
			open := py.Offset(n) + m[1] - 1
			end := py.Match(open)
			args := py.Args(open)
			if end < 0 || len(args) == 0 || args[0].Name != "" {
				continue
			}
			safe := strings.Replace(fn, "unsafe_", "", 1)
			safe = "safe_" + safe
			why := fmt.Sprintf("yaml.%s honours !!python/object tags", fn)
			if !strings.HasPrefix(fn, "unsafe_") {
				loader := ""
				for i, a := range args {
					if a.Name == "Loader" || a.Name == "" && i == 1 {
						loader = strings.TrimSpace(py.Src[a.Value:a.End])
					}
				}
				name := strings.TrimPrefix(loader, "yaml.")
				switch {
				case loader == "":
					why = fmt.Sprintf("yaml.%s without a Loader raises TypeError in PyYAML 6 and used an unsafe loader before 5.1", fn)
				case unsafeLoaders[name]:
					why = fmt.Sprintf("yaml.%s with %s honours !!python/object tags", fn, loader)
				default:
					continue
				}
			}
			stream := py.Src[args[0].Off:args[0].End]
			// Rename the function; replace the whole call only to drop a
			// Loader argument.
			edit := review.TextEdit{
				Span:    review.Span{Path: p.File.Path, StartLine: n, StartCol: m[2] + 1, EndLine: n, EndCol: m[3] + 1},
				NewText: safe,
			}
			if len(args) > 1 {
				edit = review.TextEdit{
					Span: review.Span{
						Path: p.File.Path, StartLine: n, StartCol: m[2] + 1,
						EndLine: py.LineOf(end), EndCol: end - py.Offset(py.LineOf(end)) + 2,
					},
					NewText: safe + "(" + stream + ")",
				}
			}
			p.Report(lens.Report{
				Line: n, Col: m[2] - len("yaml.") + 1,
				Message: fmt.Sprintf("%s: a document from an untrusted source (an upload, a request, a file an attacker "+
					"can write) that carries !!python/object/apply runs arbitrary code when it is parsed.", why),
				Suggested: fmt.Sprintf("Use yaml.%s(%s), or pass Loader=yaml.SafeLoader.", safe, lens.Snippet(stream)),
				Fix: &review.Fix{
					Title: fmt.Sprintf("Use yaml.%s", safe),
					Edits: []review.TextEdit{edit},
				},
			})
		}
	})
}
