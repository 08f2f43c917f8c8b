package readiness

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// NewDependency finds dependencies added to a manifest: go.mod,
// package.json, requirements*.txt and pyproject.toml.
var NewDependency = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/new-dependency",
		Perspective: review.Readiness,
		Category:    catDependency,
		Severity:    review.SeverityLow,
		Languages:   []review.Language{review.LangGoMod, review.LangJSON, review.LangText, review.LangTOML},
		Depth:       review.DepthBasic,
		Summary:     "New dependency added",
		Doc: "A dependency added to go.mod, package.json, a requirements file or pyproject.toml brings third-party " +
			"code into the build, and it runs with the program's privileges: its maintenance, license, " +
			"transitive dependencies and provenance become the project's concern (supply-chain risk). The " +
			"finding makes the addition visible so a reviewer checks it deliberately; prefer the standard library " +
			"or an existing dependency when they do the job. Only runtime dependencies count: package.json's " +
			"dependencies (not devDependencies, peerDependencies or optionalDependencies), pyproject's " +
			"[project] dependencies, Poetry's [tool.poetry.dependencies] and optional extras other than " +
			"development ones, and requirements files other than development ones (requirements-dev.txt, " +
			"dev-requirements.txt, requirements/test.txt, ...). Not reported: version changes of a dependency " +
			"already in the manifest (a line removed in the same diff), Go modules marked // indirect or " +
			"replaced by a local directory (a sibling module of the repository), monorepo siblings and local " +
			"packages (workspace:, link:, file:, portal: versions), type stubs (@types/*, types-*), development " +
			"extras and groups ([project.optional-dependencies] dev, test, tests, lint, typing, docs, ...; " +
			"[dependency-groups]; [tool.poetry.group.*] and Poetry dev-dependencies).",
		Bad:  "require github.com/some/leftpad v0.1.0",
		Good: "// strings.Repeat from the standard library does the job.",
	},
	Run: runNewDependency,
}

// manifestKind identifies the dependency manifests the rule reads.
func manifestKind(p string) string {
	base := path.Base(p)
	switch {
	case base == "go.mod":
		return "go.mod"
	case base == "package.json":
		return "package.json"
	case base == "pyproject.toml":
		return "pyproject.toml"
	case strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt"):
		return "requirements"
	}
	return ""
}

// dependency is a dependency declared on a line.
type dependency struct {
	line          int
	name, version string
}

func runNewDependency(p *lens.Pass) {
	kind := manifestKind(p.File.Path)
	if kind == "" {
		return
	}
	var deps []dependency
	lines := p.Lines()
	switch kind {
	case "go.mod":
		deps = goModRequires(lines)
	case "package.json":
		// Only runtime dependencies: devDependencies, peerDependencies and
		// optionalDependencies are the user's or the tooling's.
		deps = packageJSONDeps(lines, "dependencies")
	case "pyproject.toml":
		deps = pyprojectDeps(lines)
	case "requirements":
		if devRequirements(p.File.Path) {
			return
		}
		deps = requirementsDeps(lines)
	}
	if len(deps) == 0 {
		return
	}
	removed := removedLines(p.File)
	for _, d := range deps {
		if !p.Changed(d.line) || removedDeclares(removed, d.name, kind) || notShipped(d) {
			continue
		}
		what := d.name
		if d.version != "" {
			what += " " + d.version
		}
		p.Report(lens.Report{
			Line:   d.line,
			Symbol: d.name,
			Title:  fmt.Sprintf("New dependency %s", d.name),
			Message: fmt.Sprintf("The change adds the dependency %s to %s: its code, and that of its own dependencies, "+
				"ships with the build and runs with the program's privileges, so its maintenance, license and "+
				"provenance need a supply-chain review.", what, p.File.Path),
			Suggested: fmt.Sprintf("Confirm %s is needed (the standard library or an existing dependency may do), "+
				"maintained and license-compatible, and pin it to a reviewed version.", d.name),
		})
	}
}

// notShipped reports a dependency that is no third-party runtime code: a
// sibling or local package of the repository, or type stubs.
func notShipped(d dependency) bool {
	for _, proto := range []string{"workspace:", "link:", "file:", "portal:"} {
		if strings.HasPrefix(d.version, proto) {
			return true
		}
	}
	return strings.HasPrefix(d.name, "@types/") || strings.HasPrefix(normalizePy(d.name), "types-")
}

// devWords name development tooling in requirements file names and
// optional-dependency groups.
var devWords = map[string]bool{
	"dev": true, "develop": true, "development": true, "test": true, "tests": true, "testing": true, "lint": true,
	"linting": true, "typing": true, "types": true, "type": true, "mypy": true, "docs": true, "doc": true, "ci": true,
	"check": true, "style": true, "format": true, "bench": true, "benchmark": true,
}

// devGroup reports whether a group or file-name word list is development
// tooling: any of its words ("dev", "test-requirements", "typing") is.
func devGroup(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' }) {
		if devWords[w] {
			return true
		}
	}
	return false
}

// devRequirements reports a requirements file of development tooling:
// requirements-dev.txt, dev-requirements.txt, requirements/test.txt, ...
func devRequirements(p string) bool {
	name := strings.TrimSuffix(path.Base(p), ".txt")
	if path.Base(path.Dir(p)) == "requirements" && devGroup(name) {
		return true
	}
	return devGroup(strings.NewReplacer("requirements", "", "reqs", "").Replace(name))
}

// removedLines returns the lines the diff removes from the file.
func removedLines(f *review.File) []string {
	var out []string
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if strings.HasPrefix(l, "-") {
				out = append(out, l[1:])
			}
		}
	}
	return out
}

// removedDeclares reports whether a removed line declared the same
// dependency, so the change only updates it.
func removedDeclares(removed []string, name, kind string) bool {
	for _, l := range removed {
		switch kind {
		case "go.mod":
			if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "require")); len(f) > 0 && f[0] == name {
				return true
			}
		case "package.json":
			if strings.Contains(l, `"`+name+`"`) {
				return true
			}
		default:
			if m := pyRequirementRE.FindStringSubmatch(strings.Trim(strings.TrimSpace(l), `"',`)); m != nil &&
				normalizePy(m[1]) == normalizePy(name) {
				return true
			}
			if k, _, ok := strings.Cut(l, "="); ok && normalizePy(strings.TrimSpace(k)) == normalizePy(name) {
				return true
			}
		}
	}
	return false
}

func normalizePy(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "-", ".", "-").Replace(name))
}

// goModRequires returns the direct requirements of a go.mod file, leaving
// out modules replaced by a local directory (siblings in the repository).
func goModRequires(lines []string) []dependency {
	var out []dependency
	local := map[string]bool{}
	all := goModLines(lines)
	for _, l := range all {
		if l.verb == "replace" && len(l.args) >= 3 && localPath(l.args[len(l.args)-1]) {
			local[l.args[0]] = true
		}
	}
	for _, l := range all {
		if l.verb == "require" && len(l.args) >= 2 && !l.indirect && !local[l.args[0]] {
			out = append(out, dependency{l.n, l.args[0], l.args[1]})
		}
	}
	return out
}

var jsonDepRE = regexp.MustCompile(`^\s*"([^"]+)"\s*:\s*"([^"]*)"`)

// packageJSONDeps returns the entries of the dependency objects of a
// package.json file named sections ("dependencies"), found by a line scan
// of the usual layout (one entry per line).
func packageJSONDeps(lines []string, sections ...string) []dependency {
	var out []dependency
	in := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case !in:
			in = strings.HasSuffix(t, "{") && slices.ContainsFunc(sections, func(s string) bool { return strings.HasPrefix(t, `"`+s+`"`) })
		case strings.HasPrefix(t, "}"):
			in = false
		default:
			if m := jsonDepRE.FindStringSubmatch(l); m != nil {
				out = append(out, dependency{i + 1, m[1], m[2]})
			}
		}
	}
	return out
}

// pyRequirementRE matches a PEP 508 requirement: the name, then extras,
// a version specifier or a marker.
var pyRequirementRE = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([<>=!~^][^;#]*)?`)

// requirementsDeps returns the requirements of a pip requirements file.
func requirementsDeps(lines []string) []dependency {
	var out []dependency
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "-") {
			continue // comments and options (-r, -e, --index-url)
		}
		if m := pyRequirementRE.FindStringSubmatch(t); m != nil {
			out = append(out, dependency{i + 1, m[1], strings.TrimSpace(m[3])})
		}
	}
	return out
}

// stripTOMLComment removes a # comment that is not inside a string.
func stripTOMLComment(l string) string {
	var quote byte
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return l[:i]
		}
	}
	return l
}

var tomlStringRE = regexp.MustCompile(`"([^"]+)"|'([^']+)'`)

// pyprojectDeps returns the runtime dependencies of a pyproject.toml
// file: the strings of [project] dependencies and of the optional extras
// that are not development groups, and the keys of Poetry's main
// dependency table. [dependency-groups] (PEP 735) are never installed
// with the package, so they are left out.
func pyprojectDeps(lines []string) []dependency {
	var out []dependency
	table := ""
	inArray, skipping := false, false
	for i, l := range lines {
		t := strings.TrimSpace(stripTOMLComment(l))
		switch {
		case t == "":
			continue
		case !inArray && strings.HasPrefix(t, "["):
			table = strings.Trim(t, "[] ")
			inArray = false
			continue
		}
		// Poetry's main dependencies only: groups and dev-dependencies
		// are development tooling.
		poetry := table == "tool.poetry.dependencies"
		switch {
		case poetry:
			if k, v, ok := strings.Cut(t, "="); ok {
				name := strings.Trim(strings.TrimSpace(k), `"'`)
				if name != "python" {
					out = append(out, dependency{i + 1, name, strings.Trim(strings.TrimSpace(v), `"'`)})
				}
			}
		case table == "project" || table == "project.optional-dependencies":
			rest := t
			if !inArray {
				k, v, ok := strings.Cut(t, "=")
				if !ok || !strings.HasPrefix(strings.TrimSpace(v), "[") {
					continue
				}
				key := strings.Trim(strings.TrimSpace(k), `"'`)
				if table == "project" && key != "dependencies" {
					continue
				}
				inArray, rest = true, strings.TrimSpace(v)[1:]
				skipping = table == "project.optional-dependencies" && devGroup(key)
			}
			if skipping {
				if strings.Contains(tomlStringRE.ReplaceAllString(rest, ""), "]") {
					inArray = false
				}
				continue
			}
			for _, item := range tomlStringRE.FindAllStringSubmatch(rest, -1) {
				spec := item[1] + item[2]
				if m := pyRequirementRE.FindStringSubmatch(spec); m != nil {
					out = append(out, dependency{i + 1, m[1], strings.TrimSpace(m[3])})
				}
			}
			if strings.Contains(tomlStringRE.ReplaceAllString(rest, ""), "]") {
				inArray = false
			}
		}
	}
	return out
}
