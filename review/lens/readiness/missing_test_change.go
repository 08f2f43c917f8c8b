package readiness

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// MissingTestChange notes code changed without any test change of its
// language. It is a whole-change rule: its result is a review-level note
// (a testing recommendation), never a line finding.
var MissingTestChange = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "readiness/missing-test-change",
		Perspective: review.Readiness,
		Category:    CatValidation,
		Severity:    review.SeverityLow,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthStandard,
		CrossFile:   true,
		Note:        review.NoteMissingTests,
		Summary:     "Source changed without a test change",
		Doc: "A change whose code changed while none of the project's tests did leaves the change without validation " +
			"evidence: nothing shows the new behaviour works or stays working. Add or update the tests, or say in the " +
			"change description why none are needed. This is a review-level note (a testing recommendation), not a " +
			"line finding: it never counts towards the verdict or a gate. It is raised per language (Go, Python, " +
			"JavaScript/TypeScript) only when no test file of that language changed anywhere in the change (any " +
			"_test.go; any test_*.py, *_test.py or Python file under a test directory; any *.test.*, *.spec.* or " +
			"file under __tests__, test or tests), and only for files whose code differs at the token level: " +
			"comments, layout, the text of string literals (help text, messages) and type annotations (Go declaration " +
			"types, Python annotations, TypeScript annotations, interfaces and type aliases) do not count. Not " +
			"counted either: test files, generated, vendored, dist and minified files, changes of fewer than three " +
			"code lines, configuration and type-declaration files (*.config.*, *.d.ts, setup.py, conftest.py, " +
			"__init__.py, manage.py), files under migrations/, scripts/, examples/ or docs/, and projects that do not " +
			"test the language at all (no test file of it beside the file, or a test, tests or __tests__ directory " +
			"at the root or beside it).",
		Bad:  "M  billing/invoice.py   (+24 -3)\n   (no test change)",
		Good: "M  billing/invoice.py   (+24 -3)\nM  tests/test_billing.py (+31)",
	},
	Change: runMissingTestChange,
}

// minTestedChange is the smallest change, in code lines, that calls for a
// test change: one- and two-line edits are usually renames and tweaks.
const minTestedChange = 3

type testFamily int

const (
	familyNone testFamily = iota
	familyGo
	familyPython
	familyJS
)

func familyOf(lang review.Language) testFamily {
	switch {
	case lang == review.LangGo:
		return familyGo
	case lang == review.LangPython:
		return familyPython
	case lang.IsJS():
		return familyJS
	}
	return familyNone
}

// familyNames name each family in the note, with its test convention.
var familyNames = map[testFamily][2]string{
	familyGo:     {"Go", "_test.go files"},
	familyPython: {"Python", "test_*.py or *_test.py files, or Python files under tests/"},
	familyJS:     {"JavaScript/TypeScript", "*.test.* or *.spec.* files, or files under __tests__/ or test/"},
}

// maxNotePaths bounds the files a note names; the rest are counted.
const maxNotePaths = 5

func runMissingTestChange(p *lens.ChangePass) {
	idx := testIndexOf(p.ChangeSet)
	untested := map[testFamily][]string{}
	for _, f := range p.Files() {
		fam := familyOf(f.Language)
		if fam == familyNone || len(idx.tests[fam]) > 0 || review.IsTestPath(f.Path) || untestedKind(f.Path) || lens.Vendored(f.Path) {
			continue
		}
		// The cheap line count first: most changes are small, and the
		// token comparison and the test lookups read more.
		if changedCodeLines(f) < minTestedChange || generatedFile(f.Content) || !lens.CodeChanged(f) ||
			!idx.projectTests(f.Path, fam) {
			continue
		}
		untested[fam] = append(untested[fam], f.Path)
	}
	for _, fam := range []testFamily{familyGo, familyPython, familyJS} {
		paths := untested[fam]
		if len(paths) == 0 {
			continue
		}
		names := familyNames[fam]
		p.Note(fmt.Sprintf("%s code changed in %s, but no %s test changed anywhere in the change: nothing in it "+
			"shows the new behaviour works.", names[0], listPaths(paths), names[0]),
			fmt.Sprintf("Add or update tests (%s) for the changed behaviour, or state in the change description why none are needed.", names[1]),
			paths...)
	}
}

// listPaths names up to maxNotePaths paths and counts the rest.
func listPaths(paths []string) string {
	if len(paths) <= maxNotePaths {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more files", strings.Join(paths[:maxNotePaths], ", "), len(paths)-maxNotePaths)
}

// untestedKind reports files that are not expected to have unit tests of
// their own.
func untestedKind(p string) bool {
	base := path.Base(p)
	switch {
	case strings.Contains(base, ".config."), strings.HasSuffix(base, ".d.ts"),
		base == "setup.py", base == "conftest.py", base == "__init__.py", base == "manage.py", base == "__main__.py":
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "migrations", "scripts", "script", "examples", "example", "docs", "alembic":
			return true
		}
	}
	return false
}

// generatedFile reports a generated-code header in the first lines.
func generatedFile(content []byte) bool {
	head := string(content[:min(len(content), 1024)])
	return strings.Contains(head, "Code generated") && strings.Contains(head, "DO NOT EDIT") ||
		strings.Contains(head, "@generated") || strings.Contains(strings.ToLower(head), "autogenerated") ||
		strings.Contains(strings.ToLower(head), "auto-generated")
}

// testIndex is what the rule needs to know about a change set's tests,
// built once per change set: the changed test files by family, and the
// on-disk lookups already made.
type testIndex struct {
	cs    *review.ChangeSet
	tests map[testFamily][]string // changed test files

	mu      sync.Mutex
	dirs    map[string]map[testFamily]bool // directory -> families with a test file in it
	rootDir *bool                          // a tests/, test/, __tests__ or spec/ directory at the root
}

var testIndexes review.Memo[*testIndex]

func testIndexOf(cs *review.ChangeSet) *testIndex {
	return testIndexes.OfSet(cs, func() *testIndex {
		x := &testIndex{cs: cs, tests: map[testFamily][]string{}, dirs: map[string]map[testFamily]bool{}}
		for _, o := range cs.Files {
			if !review.IsTestPath(o.Path) {
				continue
			}
			fam := familyOf(o.Language)
			if fam == familyNone {
				fam = familyOf(review.DetectLanguage(o.Path, nil))
			}
			x.tests[fam] = append(x.tests[fam], o.Path)
		}
		return x
	})
}

// projectTests reports whether the project tests the family's language:
// a test file of it is in the change set, beside the file, or a test
// directory is at the root or beside it.
func (x *testIndex) projectTests(p string, fam testFamily) bool {
	if len(x.tests[fam]) > 0 {
		return true
	}
	if x.cs.Root == "" {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.rootDir == nil {
		found := false
		for _, d := range []string{"tests", "test", "__tests__", "spec"} {
			if fi, err := os.Stat(filepath.Join(x.cs.Root, d)); err == nil && fi.IsDir() {
				found = true
				break
			}
		}
		x.rootDir = &found
	}
	if *x.rootDir {
		return true
	}
	dir := path.Dir(p)
	fams, ok := x.dirs[dir]
	if !ok {
		fams = map[testFamily]bool{}
		entries, _ := os.ReadDir(filepath.Join(x.cs.Root, filepath.FromSlash(dir)))
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() {
				if name == "__tests__" || name == "tests" || name == "test" {
					fams[familyGo], fams[familyPython], fams[familyJS] = true, true, true
				}
				continue
			}
			if review.IsTestPath(path.Join(dir, name)) {
				fams[familyOf(review.DetectLanguage(name, nil))] = true
			}
		}
		x.dirs[dir] = fams
	}
	return fams[fam]
}

// codeKey keys the memo of changedCodeLines on the file: its
// changed-line map (the count depends on the file alone, and a later
// change set shares an unchanged file).
type codeKey struct{ lines uintptr }

var codeLines review.MemoBy[codeKey, int]

// changedCodeLines counts the changed lines of f that are code: not blank
// and not starting a comment.
func changedCodeLines(f *review.File) int {
	key := codeKey{reflect.ValueOf(f.Lines).Pointer()}
	return codeLines.Of(f, key, func() int {
		n := 0
		lineComment := syntax.CommentSyntax(f.Language).Line
		lens.EachChangedLine(f, func(_ int, line string) {
			t := strings.TrimSpace(line)
			// A cheap test that needs no lexer: the count only gates the
			// token comparison.
			if t == "" || lineComment != "" && strings.HasPrefix(t, lineComment) ||
				strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") {
				return
			}
			n++
		})
		return n
	})
}
