package risk

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/review"
)

// testKind says what is known of the tests of a changed source file.
type testKind uint8

const (
	testNotNeeded testKind = iota // not behaviour-changing product code
	testFound                     // a test by convention exists or changed
	testMissing                   // the language has a convention and no candidate exists
	testUnchecked                 // no convention for the language, or the work tree is unknown
)

// testState is the test evidence of one changed file.
type testState struct {
	kind testKind
	// by is the test that was found ("a/foo_test.go", "inline #[cfg(test)]",
	// "package test a/bar_test.go"), or why nothing was checked.
	by string
	// changed reports that the test is part of the change.
	changed bool
}

// findTests sets the test state of every behaviour-changing, shipped source
// file of files. It looks at the change set first and then stats at most
// a handful of conventional sibling paths per file under root; it never
// lists a directory.
func findTests(files []*fileFacts, byPath map[string]*fileFacts, root string) {
	// goTests maps a directory to a changed, not deleted _test.go in it.
	goTests := map[string]string{}
	for _, t := range files {
		if t.test && strings.HasSuffix(t.path, "_test.go") && t.f.Status != review.StatusDeleted {
			if _, ok := goTests[t.dir]; !ok {
				goTests[t.dir] = t.path
			}
		}
	}
	for _, ff := range files {
		if !ff.needsTest() {
			continue
		}
		ff.tests = testsOf(ff, goTests, byPath, root)
	}
}

func testsOf(ff *fileFacts, goTests map[string]string, byPath map[string]*fileFacts, root string) testState {
	cands := testCandidates(ff.path, ff.lang)
	for _, c := range cands {
		if t := byPath[c]; t != nil && t.f.Status != review.StatusDeleted {
			return testState{kind: testFound, by: c, changed: true}
		}
	}
	if ff.lang == review.LangGo {
		// Any test of the package exercises the package: a changed
		// _test.go beside the file counts.
		if t, ok := goTests[ff.dir]; ok {
			return testState{kind: testFound, by: "package test " + t, changed: true}
		}
	}
	if ff.lang == review.LangRust {
		for _, l := range ff.content {
			if strings.Contains(l, "#[cfg(test)]") {
				return testState{kind: testFound, by: "inline #[cfg(test)]"}
			}
		}
	}
	if len(cands) == 0 {
		return testState{kind: testUnchecked, by: "no test-file convention for " + langName(ff.lang)}
	}
	if root == "" {
		return testState{kind: testUnchecked, by: "work tree unknown"}
	}
	for _, c := range cands {
		if t := byPath[c]; t != nil {
			continue // deleted by this change
		}
		if onDisk(ff.f, root, c) {
			return testState{kind: testFound, by: c}
		}
	}
	return testState{kind: testMissing}
}

// testCandidates returns the conventional test paths of source file p, at
// most six, most specific first:
//
//	Go          foo.go → foo_test.go
//	Python      foo.py → test_foo.py, foo_test.py, tests/test_foo.py, test/test_foo.py (beside it), tests/test_foo.py (root)
//	JS/TS       foo.ts → foo.test.ts, foo.spec.ts, __tests__/foo.test.ts (.tsx also .ts; .vue/.svelte .ts and .js)
//	Ruby        lib/a/foo.rb, app/a/foo.rb → spec/a/foo_spec.rb, test/a/foo_test.rb; foo_spec.rb beside it
//	Java        src/main/java/a/Foo.java → src/test/java/a/FooTest.java, FooTests.java
//
// Other languages have no candidates (Rust keeps unit tests inline).
func testCandidates(p string, lang review.Language) []string {
	dir, base := path.Split(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch lang {
	case review.LangGo:
		return []string{dir + stem + "_test.go"}
	case review.LangPython:
		return []string{dir + "test_" + stem + ".py", dir + stem + "_test.py", dir + "tests/test_" + stem + ".py",
			dir + "test/test_" + stem + ".py", "tests/test_" + stem + ".py"}
	case review.LangJavaScript, review.LangJSX, review.LangTypeScript, review.LangTSX, review.LangVue, review.LangSvelte:
		exts := []string{ext}
		switch ext {
		case ".tsx":
			exts = append(exts, ".ts")
		case ".jsx":
			exts = append(exts, ".js")
		case ".vue", ".svelte":
			exts = []string{".ts", ".js"}
		}
		var out []string
		for _, e := range exts {
			out = append(out, dir+stem+".test"+e, dir+stem+".spec"+e, dir+"__tests__/"+stem+".test"+e)
		}
		return out
	case review.LangRuby:
		rel := strings.TrimSuffix(p, ext)
		for _, pre := range []string{"lib/", "app/"} {
			rel = strings.TrimPrefix(rel, pre)
		}
		return []string{"spec/" + rel + "_spec.rb", "test/" + rel + "_test.rb", dir + stem + "_spec.rb"}
	case review.LangJava:
		tdir := dir
		if i := strings.Index(dir, "src/main/"); i >= 0 {
			tdir = dir[:i] + "src/test/" + dir[i+len("src/main/"):]
		}
		return []string{tdir + stem + "Test.java", tdir + stem + "Tests.java"}
	}
	return nil
}

// needsTest reports a behaviour-changing product source file that is not
// deleted. SQL is left out: schema and query files are tested through the
// code that runs them.
func (ff *facts) needsTest() bool {
	return ff.code && ff.lang != review.LangSQL && ff.shipped() && ff.behavioural() && ff.f.Status != review.StatusDeleted
}

// siblings memoises, on a source file, which of its unchanged test
// candidates exist on disk. A candidate that is created, changed or
// deleted later shows in the change set, which testsOf consults first, so
// the remembered answer only serves candidates nobody touched.
var siblings review.Memo[*sync.Map]

func onDisk(f *review.File, root, candidate string) bool {
	m := siblings.Of(f, func() *sync.Map { return &sync.Map{} })
	if v, ok := m.Load(candidate); ok {
		return v.(bool)
	}
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(candidate)))
	found := err == nil && fi.Mode().IsRegular()
	m.Store(candidate, found)
	return found
}
