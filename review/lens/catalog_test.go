package lens_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/accessibility"
	"github.com/reviewls/reviewls/review/lens/functional"
	"github.com/reviewls/reviewls/review/lens/lenstest"
	"github.com/reviewls/reviewls/review/lens/readiness"
	"github.com/reviewls/reviewls/review/lens/security"
	"github.com/reviewls/reviewls/review/lens/standards"
	"github.com/reviewls/reviewls/review/syntax"
)

func catalog() []review.Lens {
	return []review.Lens{functional.Lens(), standards.Lens(), accessibility.Lens(), security.Lens(), readiness.Lens()}
}

// largeGo returns about n lines of ordinary, clean Go: a store type with
// methods that handle errors, contexts and locks the way well-kept code
// does.
func largeGo(n int) []byte {
	var b strings.Builder
	b.WriteString("// Package store keeps records in memory.\npackage store\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"sync\"\n)\n\n")
	b.WriteString("// ErrNotFound reports a missing record.\nvar ErrNotFound = errors.New(\"not found\")\n\n")
	b.WriteString("// Store holds records; it is safe for concurrent use.\ntype Store struct {\n\tmu      sync.Mutex\n\trecords map[string]string\n}\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `// Get%[1]d returns record %[1]d of key.
func (s *Store) Get%[1]d(ctx context.Context, key string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("get %%q: %%w", key, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.records[key]
	if !ok {
		return "", fmt.Errorf("get %%q: %%w", key, ErrNotFound)
	}
	return v, nil
}

`, i)
	}
	return []byte(b.String())
}

// largeTSX returns about n lines of an ordinary, accessible React module.
func largeTSX(n int) []byte {
	var b strings.Builder
	b.WriteString("import React, { useState } from 'react';\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `export function Field%[1]d({ label, onSave }: { label: string; onSave: (v: string) => Promise<void> }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function save() {
    try {
      await onSave(value);
    } catch (e) {
      setError(String(e));
    }
  }
  return (
    <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <label htmlFor="field-%[1]d">{label}</label>
      <input id="field-%[1]d" value={value} onChange={(e) => setValue(e.target.value)} />
      {error !== null && <p role="alert">{error}</p>}
      <button type="submit">Save</button>
    </form>
  );
}

`, i)
	}
	return []byte(b.String())
}

// largePython returns a clean Python module of about n lines: a class
// with documented methods, comprehensions, f-strings and a main guard.
func largePython(n int) []byte {
	var b strings.Builder
	b.WriteString("\"\"\"Inventory records.\"\"\"\n\nimport json\nimport logging\n\nlog = logging.getLogger(__name__)\n\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `class Store%[1]d:
    """Keeps the items of shelf %[1]d."""

    def __init__(self, items=None):
        self.items = list(items or [])

    def total(self, kind: str) -> int:
        """Returns the count of items of one kind."""
        return sum(1 for item in self.items if item.get("kind") == kind)

    def dump(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"shelf": %[1]d, "items": self.items}, f)
        log.info(f"wrote {len(self.items)} items to {path}")


`, i)
	}
	b.WriteString("if __name__ == \"__main__\":\n    print(Store0().total(\"book\"))\n")
	return []byte(b.String())
}

// largeHTML returns a clean HTML page of about n lines: sections with
// labelled forms, images with text alternatives, a table and a script.
func largeHTML(n int) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n  <title>Inventory</title>\n</head>\n<body>\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `  <section id="shelf-%[1]d">
    <h2>Shelf %[1]d</h2>
    <!-- items on shelf %[1]d -->
    <img src="/img/shelf-%[1]d.png" alt="Photo of shelf %[1]d">
    <form action="/shelves/%[1]d" method="post">
      <label for="count-%[1]d">Count</label>
      <input id="count-%[1]d" name="count" type="number" min="0">
      <button type="submit">Save</button>
    </form>
    <table>
      <tr><th scope="col">Item</th><th scope="col">Kind</th></tr>
      <tr><td>Book %[1]d</td><td>paper &amp; ink</td></tr>
    </table>
  </section>
`, i)
	}
	b.WriteString("  <script>if (a < b && c > d) { render(); }</script>\n</body>\n</html>\n")
	return []byte(b.String())
}

func benchmarkCatalog(b *testing.B, path string, content []byte) {
	lenses := catalog()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		// A fresh file each time: parses are memoised per file, and a save
		// always brings new content.
		f := lenstest.NewFile(path, content)
		cs := &review.ChangeSet{Files: []*review.File{f}}
		for _, l := range lenses {
			if _, err := l.Check(ctx, cs, nil, review.CheckOptions{Depth: review.DepthStandard}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCatalogGo runs the whole catalog at depth standard on a
// 1,000-line changed Go file.
func BenchmarkCatalogGo(b *testing.B) { benchmarkCatalog(b, "store/store.go", largeGo(1000)) }

// BenchmarkCatalogTSX runs the whole catalog at depth standard on a
// 1,000-line changed TSX file.
func BenchmarkCatalogTSX(b *testing.B) { benchmarkCatalog(b, "ui/fields.tsx", largeTSX(1000)) }

// BenchmarkCatalogHTML runs the whole catalog at depth standard on a
// 1,000-line changed HTML file.
func BenchmarkCatalogHTML(b *testing.B) { benchmarkCatalog(b, "site/index.html", largeHTML(1000)) }

// BenchmarkCatalogPython runs the whole catalog at depth standard on a
// 1,000-line changed Python file.
func BenchmarkCatalogPython(b *testing.B) { benchmarkCatalog(b, "store/store.py", largePython(1000)) }

// TestCatalogBenchInputsAreClean keeps the benchmark honest: its inputs
// are clean code, so the catalog must report nothing on them.
func TestCatalogBenchInputsAreClean(t *testing.T) {
	for path, content := range map[string][]byte{"store/store.go": largeGo(1000), "ui/fields.tsx": largeTSX(1000), "store/store.py": largePython(1000), "site/index.html": largeHTML(1000)} {
		f := lenstest.NewFile(path, content)
		cs := &review.ChangeSet{Files: []*review.File{f}}
		for _, l := range catalog() {
			got, err := l.Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range got {
				t.Errorf("%s:%d: %s: %s", path, fd.Span.StartLine, fd.RuleID, fd.Message)
			}
		}
	}
}

// perspectiveRules returns every rule of the catalog with its perspective
// package directory.
func perspectiveRules() map[string][]*lens.Rule {
	return map[string][]*lens.Rule{
		"functional":    functional.Rules(),
		"standards":     standards.Rules(),
		"accessibility": accessibility.Rules(),
		"security":      security.Rules(),
		"readiness":     readiness.Rules(),
	}
}

// TestCatalogSize holds the catalog to its minimum breadth.
func TestCatalogSize(t *testing.T) {
	min := map[string]int{"functional": 8, "security": 14, "standards": 6, "readiness": 7, "accessibility": 8}
	total := 0
	for p, rules := range perspectiveRules() {
		total += len(rules)
		if len(rules) < min[p] {
			t.Errorf("%s has %d rules, want at least %d", p, len(rules), min[p])
		}
	}
	if total < 45 {
		t.Errorf("catalog has %d rules, want at least 45", total)
	}
}

var (
	idRE       = regexp.MustCompile(`^(functional|standards|accessibility|security|readiness)/[a-z0-9]+(-[a-z0-9]+)*$`)
	categories = map[review.Perspective][]string{
		review.Functional:    {"Logic", "Edge Cases", "Error Handling", "Concurrency", "Contract"},
		review.Security:      {"Authentication & Authorization", "Input Validation", "Secrets & Sensitive Data", "Injection", "Serialization & Parsing", "Dependency & Data Handling"},
		review.Accessibility: {"Perceivable", "Operable", "Understandable", "Robust", "Cognitive"},
		// hve-spec 6.5 lists examples; Dependency is a local addition for
		// manifest changes.
		review.Readiness: {"Scope Hygiene", "Validation Evidence", "Follow-up", "PR Description", "Issue Alignment", "Checklist", "Mergeability", "Documentation", "Dependency"},
	}
	a11ySkills = []string{"wcag-22", "aria-apg", "coga", "section-508", "en-301-549"}
	languages  = []review.Language{review.LangGo, review.LangPython, review.LangJavaScript, review.LangJSX, review.LangTypeScript, review.LangTSX,
		review.LangShell, review.LangDockerfile, review.LangActions, review.LangYAML, review.LangHTML, review.LangVue, review.LangSvelte,
		review.LangMarkdown, review.LangJSON, review.LangJava, review.LangRust, review.LangRuby, review.LangC, review.LangCPP,
		review.LangCSharp, review.LangSQL, review.LangTOML, review.LangMakefile, review.LangGoMod, review.LangText}
)

// TestCatalogMetadata checks that every rule documents itself fully, with
// the exact category names of its perspective.
func TestCatalogMetadata(t *testing.T) {
	seen := map[string]bool{}
	for _, rules := range perspectiveRules() {
		for _, r := range rules {
			id := r.ID
			if !idRE.MatchString(id) {
				t.Errorf("%s: id is not <perspective>/<kebab-name>", id)
			}
			if seen[id] {
				t.Errorf("%s: duplicate id", id)
			}
			seen[id] = true
			if cats, ok := categories[r.Perspective]; ok && !slices.Contains(cats, r.Category) {
				t.Errorf("%s: category %q is not one of %q", id, r.Category, cats)
			}
			if r.Category == "" || !r.Severity.Valid() || !r.Depth.Valid() {
				t.Errorf("%s: category %q, severity %v, depth %v", id, r.Category, r.Severity, r.Depth)
			}
			if r.Summary == "" || strings.Contains(r.Summary, "\n") {
				t.Errorf("%s: summary must be one line", id)
			}
			if len(r.Doc) < 80 || strings.Contains(r.Doc, "\n\n") {
				t.Errorf("%s: doc must be one full paragraph", id)
			}
			if r.Bad == "" || r.Good == "" || r.Bad == r.Good {
				t.Errorf("%s: needs a bad and a different good example", id)
			}
			for _, l := range r.Languages {
				if !slices.Contains(languages, l) {
					t.Errorf("%s: unknown language %q", id, l)
				}
			}
			if r.Perspective == review.Accessibility && !slices.Contains(a11ySkills, r.Skill) {
				t.Errorf("%s: accessibility skill %q is not one of %q", id, r.Skill, a11ySkills)
			}
			if r.Perspective == review.Security && r.Skill == "" {
				t.Errorf("%s: a security rule names its risk pattern (a CWE)", id)
			}
			switch {
			case r.Note != "" && (!r.Note.Valid() || r.Change == nil || r.Run != nil):
				t.Errorf("%s: a note rule needs a known note kind (%q) and a Change function only", id, r.Note)
			case r.Note == "" && (r.Run == nil || r.Change != nil):
				t.Errorf("%s: a line rule needs a Run function only", id)
			}
		}
	}
}

// TestCatalogTestdata checks that every rule has its own test inputs with
// positive cases (want annotations) and near misses (lines without one).
// Cross-file rules may test with change sets in code instead.
func TestCatalogTestdata(t *testing.T) {
	for p, rules := range perspectiveRules() {
		for _, r := range rules {
			_, name, _ := strings.Cut(r.ID, "/")
			dir := filepath.Join(p, "testdata", name)
			wants, others := 0, 0
			err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				for _, line := range strings.Split(string(data), "\n") {
					switch {
					case strings.Contains(line, `want "`):
						wants++
					case strings.TrimSpace(line) != "":
						others++
					}
				}
				return nil
			})
			if err != nil {
				if r.CrossFile && os.IsNotExist(err) {
					continue
				}
				t.Errorf("%s: %v", r.ID, err)
				continue
			}
			if wants == 0 || others == 0 {
				t.Errorf("%s: testdata has %d positive and %d other lines; it needs both", r.ID, wants, others)
			}
		}
	}
}

// TestCatalogFixes applies every fix a fixable rule produces on its own
// positive cases: the fixed file must still parse and the finding must be
// gone. At least 12 rules carry fixes.
func TestCatalogFixes(t *testing.T) {
	fixable := 0
	for p, rules := range perspectiveRules() {
		for _, r := range rules {
			if !r.Fixable {
				continue
			}
			fixable++
			_, name, _ := strings.Cut(r.ID, "/")
			t.Run(r.ID, func(t *testing.T) {
				n := 0
				err := filepath.WalkDir(filepath.Join(p, "testdata", name), func(path string, d os.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					data, err := os.ReadFile(path)
					if err != nil {
						return err
					}
					rel := lenstest.InputName(strings.TrimPrefix(path, filepath.Join(p, "testdata", name)+string(filepath.Separator)))
					n += lenstest.CheckFixes(t, r, lenstest.NewFile(rel, data))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					t.Errorf("%s is marked fixable but produced no fix on its testdata", r.ID)
				}
			})
		}
	}
	if fixable < 12 {
		t.Errorf("%d fixable rules, want at least 12", fixable)
	}
}

// BenchmarkScanMarkupHTML measures the scan of a 1,000-line HTML file
// alone.
func BenchmarkScanMarkupHTML(b *testing.B) { benchmarkScanMarkup(b, review.LangHTML, largeHTML(1000)) }

// BenchmarkScanMarkup measures the scan of a 1,000-line TSX file alone.
func BenchmarkScanMarkup(b *testing.B) { benchmarkScanMarkup(b, review.LangTSX, largeTSX(1000)) }

func benchmarkScanMarkup(b *testing.B, lang review.Language, src []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		syntax.ScanMarkup(lang, src)
	}
}

// TestSecretRules checks review.SecretRules, the list the configuration
// and the gate rely on, against the catalog: the rules whose findings on
// their own test inputs cite a secret value are exactly those.
func TestSecretRules(t *testing.T) {
	var citing []string
	for p, rules := range perspectiveRules() {
		for _, r := range rules {
			if r.Note != "" {
				continue
			}
			_, name, _ := strings.Cut(r.ID, "/")
			dir := filepath.Join(p, "testdata", name)
			if _, err := os.Stat(dir); err != nil {
				continue // a cross-file rule tested in code
			}
			cites := false
			lenstest.RunFiles(t, r, dir, func(f *review.File) {
				for _, fd := range lenstest.Check(t, r, f, review.DepthComprehensive, nil) {
					cites = cites || fd.IsSecret()
				}
			})
			if cites {
				citing = append(citing, r.ID)
			}
		}
	}
	slices.Sort(citing)
	want := slices.Sorted(slices.Values(review.SecretRules))
	if !slices.Equal(citing, want) {
		t.Errorf("rules whose findings cite secrets: %v; review.SecretRules: %v", citing, want)
	}
}
