package risk

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// goRepo lays out a module with pkg/a.go (10 lines, changed lines 4 and 8)
// and returns the root and the change set.
func goRepo(t *testing.T) (string, *review.ChangeSet) {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "go.mod", "// comment\nmodule example.com/m\n\ngo 1.26\n", past)
	writeFile(t, root, "pkg/a.go", lines(10), past)
	writeFile(t, root, "pkg/a_test.go", "x\n", past)
	return root, changeSet(root, file("pkg/a.go", review.StatusModified, lines(10), 4, 8))
}

const goProfile = `mode: set
example.com/m/pkg/a.go:3.10,5.2 2 1
example.com/m/pkg/a.go:7.10,9.2 3 0
example.com/m/pkg/a.go:10.1,10.5 1 1
example.com/m/pkg/b.go:1.1,2.2 1 1
`

func TestCoverageUnavailableWithoutProfile(t *testing.T) {
	root, cs := goRepo(t)
	e := evidence(Assess(cs, fullHistory, Options{Root: root}), review.SignalCoverage)
	want := review.Evidence{Signal: review.SignalCoverage, Availability: review.Unavailable,
		Evidence: "no coverage profile (coverage.out, lcov.info) found"}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("coverage (-want +got):\n%s", diff)
	}
}

func TestCoverageGoProfile(t *testing.T) {
	for _, name := range []string{"coverage.out", "cover.out", "coverage.txt"} {
		t.Run(name, func(t *testing.T) {
			root, cs := goRepo(t)
			writeFile(t, root, name, goProfile, future)
			e := evidence(Assess(cs, fullHistory, Options{Root: root}), review.SignalCoverage)
			want := review.Evidence{Signal: review.SignalCoverage, Availability: review.Observed,
				Evidence: name + " (Go cover profile, mode set): 2 of 5 statements on changed lines covered (40%) " +
					"in 1 changed file; whole files 50%; below 60%: pkg/a.go 40% (coverage is not proof of defect detection)"}
			if diff := cmp.Diff(want, e); diff != "" {
				t.Errorf("coverage (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCoverageGoProfileMergedBlocks(t *testing.T) {
	// A profile merged from two test binaries lists a block twice; it is
	// covered when either run covered it.
	root, cs := goRepo(t)
	writeFile(t, root, "coverage.out", "mode: count\n"+
		"example.com/m/pkg/a.go:3.10,5.2 2 0\n"+
		"example.com/m/pkg/a.go:3.10,5.2 2 4\n", future)
	e := evidence(Assess(cs, fullHistory, Options{Root: root}), review.SignalCoverage)
	wantContains(t, "coverage", e.Evidence, "mode count", "2 of 2 statements on changed lines covered (100%)")
}

func TestCoverageLCOV(t *testing.T) {
	for _, name := range []string{"lcov.info", "coverage/lcov.info"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "web/app.js", "a\nb\nc\nd\n", past)
			writeFile(t, root, "web/util.js", "a\nb\n", past)
			writeFile(t, root, name, "TN:\nSF:web/app.js\nFN:1,f\nDA:1,1\nDA:2,0\nDA:3,5\nDA:4,0\nLF:4\nLH:2\nend_of_record\n"+
				"TN:\nSF:"+filepath.Join(root, "web", "util.js")+"\nDA:1,0\nDA:2,3\nend_of_record\n"+
				"SF:web/other.js\nDA:1,1\nend_of_record\n", future)
			cs := changeSet(root,
				file("web/app.js", review.StatusModified, "a\nb\nc\nd\n", 2, 3),
				file("web/util.js", review.StatusModified, "a\nb\n", 2),
			)
			e := evidence(Assess(cs, fullHistory, Options{Root: root}), review.SignalCoverage)
			want := review.Evidence{Signal: review.SignalCoverage, Availability: review.Observed,
				Evidence: name + " (LCOV): 2 of 3 lines on changed lines covered (66%) in 2 changed files; " +
					"whole files 50%; below 60%: web/app.js 50% (coverage is not proof of defect detection)"}
			if diff := cmp.Diff(want, e); diff != "" {
				t.Errorf("coverage (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCoverageStaleProfile(t *testing.T) {
	root, cs := goRepo(t)
	writeFile(t, root, "coverage.out", goProfile, past.Add(-1)) // older than pkg/a.go
	r := Assess(cs, fullHistory, Options{Root: root})
	e := evidence(r, review.SignalCoverage)
	if e.Availability != review.Observed {
		t.Errorf("availability = %s", e.Availability)
	}
	wantContains(t, "coverage", e.Evidence,
		"the profile is older than 1 changed file (pkg/a.go), so its numbers may be stale")
	wantContains(t, "test notes", r.Brief.TestNotes, "(profile older than the change)")
}

func TestCoverageExplicitProfiles(t *testing.T) {
	root, cs := goRepo(t)
	writeFile(t, root, "out/c.prof", goProfile, future)
	writeFile(t, root, "coverage.out", "garbage\n", future) // ignored: not listed
	e := evidence(Assess(cs, fullHistory, Options{Root: root, Coverage: []string{"out/c.prof", "missing.out"}}),
		review.SignalCoverage)
	if e.Availability != review.Observed {
		t.Errorf("availability = %s", e.Availability)
	}
	wantContains(t, "coverage", e.Evidence, "out/c.prof (Go cover profile, mode set): 2 of 5 statements",
		"unusable: missing.out: no such file or directory")
}

func TestCoverageUnusableProfiles(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"garbage", "hello\n", "coverage.out: neither a Go cover profile (mode: …) nor an LCOV report (SF:/DA:)"},
		{"empty", "\n\n", "coverage.out: empty file"},
		{"malformed block", "mode: set\nexample.com/m/pkg/a.go:3.10,5.2 x 1\n", "coverage.out: line 2: malformed block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, cs := goRepo(t)
			writeFile(t, root, "coverage.out", tt.content, future)
			e := evidence(Assess(cs, fullHistory, Options{Root: root}), review.SignalCoverage)
			want := review.Evidence{Signal: review.SignalCoverage, Availability: review.Unavailable,
				Evidence: "no usable coverage profile: " + tt.want}
			if diff := cmp.Diff(want, e); diff != "" {
				t.Errorf("coverage (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCoverageProfileListsNoChangedFile(t *testing.T) {
	root, cs := goRepo(t)
	writeFile(t, root, "coverage.out", "mode: set\nexample.com/m/pkg/b.go:1.1,2.2 1 1\n", future)
	e := evidence(Assess(cs, fullHistory, Options{Root: root}), review.SignalCoverage)
	if e.Availability != review.Observed {
		t.Errorf("availability = %s", e.Availability)
	}
	wantContains(t, "coverage", e.Evidence, "lists none of the changed files", "not in the profile: pkg/a.go")
}

func TestResolveProfileNames(t *testing.T) {
	r := &resolver{root: "/repo", module: "example.com/m", modRead: true, cache: map[string]string{},
		changed: map[string][]int{"pkg/a.go": nil, "a.go": nil, "web/x.js": nil, "sub/pkg/c.go": nil, "sub/pkg/a.go": nil}}
	tests := []struct {
		name string
		goP  bool
		want string
	}{
		{"example.com/m/pkg/a.go", true, "pkg/a.go"},
		{"example.com/m/a.go", true, "a.go"},
		{"example.com/other/a.go", true, ""}, // a root file matches by module path only
		{"example.com/sub/pkg/c.go", true, "sub/pkg/c.go"},
		{"_/repo/pkg/a.go", true, "pkg/a.go"},
		{"/repo/web/x.js", false, "web/x.js"},
		{"./web/x.js", false, "web/x.js"},
		{"/elsewhere/web/x.js", false, "web/x.js"},
		{"web/y.js", false, ""},
		{"x/pkg/a.go", false, "pkg/a.go"},
		{"y/sub/pkg/a.go", false, "sub/pkg/a.go"},
	}
	for _, tt := range tests {
		if got := r.resolve(tt.name, tt.goP); got != tt.want {
			t.Errorf("resolve(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseInts(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want []int
		ok   bool
	}{
		{"3.10,5.2 2 1", 6, []int{3, 10, 5, 2, 2, 1}, true},
		{"4,0,abc", 2, []int{4, 0}, true},
		{"3.10,5.2 2", 6, nil, false},
		{"x", 1, nil, false},
	}
	for _, tt := range tests {
		got, ok := parseInts([]byte(tt.in), tt.n)
		if ok != tt.ok || !cmp.Equal(got, tt.want) {
			t.Errorf("parseInts(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
