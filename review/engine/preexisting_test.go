package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// goFunc returns a Go function whose body is n lines long; the lines listed
// in edited differ from the plain version, as a small fix would change
// them.
func goFunc(name string, n int, edited ...int) string {
	var b strings.Builder
	// The variable is named after the function, so that two functions
	// share no line and the diff cannot align one with the other.
	v := strings.ToLower(name)
	fmt.Fprintf(&b, "func %s() int {\n\t%s := 0\n", name, v)
	for i := 2; i < n; i++ {
		op := "+="
		if slices.Contains(edited, i) {
			op = "-="
		}
		fmt.Fprintf(&b, "\t%s %s %d\n", v, op, i)
	}
	fmt.Fprintf(&b, "\treturn %s\n}\n", v)
	return b.String()
}

func goFile(funcs ...string) string {
	return "package a\n\n" + strings.Join(funcs, "\n")
}

// ofRule returns "rule@path:line" for the findings of rule.
func ofRule(fs []*review.Finding, rule string) []string {
	var out []string
	for _, f := range fs {
		if f.RuleID == rule {
			out = append(out, f.RuleID+"@"+f.Span.Path+":"+f.Span.Lines())
		}
	}
	return out
}

func preexisting(res *review.Result, rule string) []string {
	var fs []*review.Finding
	for _, p := range res.PreExisting {
		fs = append(fs, p.Finding)
	}
	return ofRule(fs, rule)
}

const longFunction = "standards/long-function"

// TestLongFunctionHoldsTheLine is the measuring rule under differential
// review: a function already over the limit in the base is pre-existing
// whatever the change does to its length, unless it grows by half again;
// crossing the limit or adding a long function is the change's own.
func TestLongFunctionHoldsTheLine(t *testing.T) {
	for _, tc := range []struct {
		name       string
		base, head string
		want, pre  []string
		state      review.BaselineState
	}{
		{name: "a 3-line fix in a 268-line function",
			base: goFile(goFunc("Big", 268)), head: goFile(goFunc("Big", 268, 100, 101, 102)),
			pre: []string{longFunction + "@a.go:103"}},
		{name: "shrinking from 99 to 92 lines",
			base: goFile(goFunc("Big", 99)), head: goFile(goFunc("Big", 92, 50)),
			pre: []string{longFunction + "@a.go:53"}},
		{name: "growing from 70 to 90 lines crosses the limit",
			base: goFile(goFunc("Big", 70)), head: goFile(goFunc("Big", 90)),
			want: []string{longFunction + "@a.go:73"}, state: review.BaselineNew},
		{name: "a new 100-line function",
			base: goFile(goFunc("Small", 5)), head: goFile(goFunc("Small", 5), goFunc("Big", 100)),
			want: []string{longFunction + "@a.go:11"}, state: review.BaselineNew},
		{name: "growing by half again is reported as updated",
			base: goFile(goFunc("Big", 100)), head: goFile(goFunc("Big", 150)),
			want: []string{longFunction + "@a.go:103"}, state: review.BaselineUpdated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t, map[string]string{"a.go": tc.base})
			write(t, dir, "a.go", []byte(tc.head))
			res := run(t, dir, review.Request{Depth: review.DepthStandard})
			if got := ofRule(res.Findings, longFunction); !slices.Equal(got, tc.want) {
				t.Errorf("findings = %v, want %v", got, tc.want)
			}
			if got := preexisting(res, longFunction); !slices.Equal(got, tc.pre) {
				t.Errorf("pre-existing = %v, want %v", got, tc.pre)
			}
			for _, f := range res.Findings {
				if f.RuleID == longFunction && f.Baseline != tc.state {
					t.Errorf("baseline state = %q, want %q", f.Baseline, tc.state)
				}
			}
		})
	}
}

const (
	todoRule  = "readiness/todo-added"
	debugRule = "standards/debug-statement"
)

// TestPatternHoldsTheLine: a pattern the base already has is pre-existing
// on a touched (here re-indented) line, and counting is a multiset: a third
// copy of a pattern that existed twice is one new finding. A TODO, whose
// rule also answers edited markers by removed ones, counts the same way.
func TestPatternHoldsTheLine(t *testing.T) {
	for _, pat := range []struct{ rule, line string }{
		{debugRule, "breakpoint()  # stop before the load"},
		{todoRule, "x = load()  # TODO: handle a missing file"},
	} {
		line := pat.line
		base := "def f():\n    " + line + "\n    y = 2\n    " + line + "\n    return x\n"
		indented := "def f(flag):\n    if flag:\n        " + line + "\n        y = 2\n        " + line + "\n    return x\n"
		third := "def f(flag):\n    if flag:\n        " + line + "\n        y = 2\n        " + line + "\n        " + line + "\n    return x\n"
		for _, tc := range []struct {
			name, head string
			new, pre   int
		}{
			{"re-indented copies", indented, 0, 2},
			{"a third copy", third, 1, 2},
		} {
			t.Run(pat.rule+"/"+tc.name, func(t *testing.T) {
				dir := repo(t, map[string]string{"a.py": base})
				write(t, dir, "a.py", []byte(tc.head))
				res := run(t, dir, review.Request{})
				got, pre := ofRule(res.Findings, pat.rule), preexisting(res, pat.rule)
				if len(got) != tc.new || len(pre) != tc.pre {
					t.Errorf("new %v, pre-existing %v; want %d new and %d pre-existing", got, pre, tc.new, tc.pre)
				}
			})
		}

		// A new copy in a file without a base version is new.
		dir := repo(t, map[string]string{"a.py": base})
		write(t, dir, "b.py", []byte(base))
		res := run(t, dir, review.Request{})
		if got := ofRule(res.Findings, pat.rule); len(got) != 2 {
			t.Errorf("%s: findings of the new file = %v, want its 2 copies", pat.rule, got)
		}
	}
}

// TestEditedTodoIsNotNew replays cobra's "Fix some typos": a reworded TODO
// is no new TODO, and a FIXME kept beside an edited line is pre-existing.
func TestEditedTodoIsNotNew(t *testing.T) {
	const old = "def f():\n    # TODO: currently the parent hook doesnt run\n    return 1  # FIXME: overflow\n"
	const new = "def f():\n    # TODO: currently the parent hook does not run\n    return 2  # FIXME: overflow\n"
	dir := repo(t, map[string]string{"a.py": old})
	write(t, dir, "a.py", []byte(new))
	res := run(t, dir, review.Request{})
	if got, pre := ofRule(res.Findings, todoRule), preexisting(res, todoRule); len(got) != 0 || len(pre) != 1 {
		t.Errorf("new %v, pre-existing %v; want none new and the FIXME pre-existing", got, pre)
	}
}

// TestRenameHoldsTheLine: a renamed file's base version is the old path's,
// and its findings are keyed by the new path.
func TestRenameHoldsTheLine(t *testing.T) {
	dir := repo(t, map[string]string{"old.go": goFile(goFunc("Big", 100))})
	reviewtest.Git(t, dir, "mv", "old.go", "new.go")
	write(t, dir, "new.go", []byte(goFile(goFunc("Big", 100, 50))))
	res := run(t, dir, review.Request{Depth: review.DepthStandard})
	if f := res.ChangeSet.File("new.go"); f == nil || f.Status != review.StatusRenamed {
		t.Fatalf("new.go is not a rename: %v", res.ChangeSet.Paths())
	}
	if got := ofRule(res.Findings, longFunction); len(got) != 0 {
		t.Errorf("findings = %v, want none", got)
	}
	if got := preexisting(res, longFunction); !slices.Equal(got, []string{longFunction + "@new.go:53"}) {
		t.Errorf("pre-existing = %v, want the long function at new.go:53", got)
	}
}

// TestStagedHoldsTheLine: a staged review compares the index with HEAD, so
// HEAD's blob is the base and the index blob is what is checked: the work
// tree plays no part.
func TestStagedHoldsTheLine(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": goFile(goFunc("Old", 100))})
	write(t, dir, "a.go", []byte(goFile(goFunc("Old", 100, 40), goFunc("Added", 100))))
	reviewtest.Git(t, dir, "add", "a.go")
	// The work tree drops the added function again and grows the old one
	// past half again; neither is staged.
	write(t, dir, "a.go", []byte(goFile(goFunc("Old", 160, 40))))
	res := run(t, dir, review.Request{Staged: true, Depth: review.DepthStandard})
	if got, want := ofRule(res.Findings, longFunction), []string{longFunction + "@a.go:106"}; !slices.Equal(got, want) {
		t.Errorf("findings = %v, want %v (the staged new function only)", got, want)
	}
	if got, want := preexisting(res, longFunction), []string{longFunction + "@a.go:43"}; !slices.Equal(got, want) {
		t.Errorf("pre-existing = %v, want %v", got, want)
	}
}

// TestBranchDiffHoldsTheLine: a branch diff's base is the merge-base, not
// HEAD: a long function committed on the branch is still the change's own.
func TestBranchDiffHoldsTheLine(t *testing.T) {
	dir := repo(t, map[string]string{"a.go": goFile(goFunc("Old", 100))})
	reviewtest.Git(t, dir, "checkout", "-q", "-b", "feat")
	write(t, dir, "a.go", []byte(goFile(goFunc("Old", 100, 30), goFunc("Branch", 100))))
	reviewtest.Git(t, dir, "commit", "-q", "-am", "add Branch")
	write(t, dir, "a.go", []byte(goFile(goFunc("Old", 100, 30, 31), goFunc("Branch", 100, 20))))
	res := run(t, dir, review.Request{Base: "main", Depth: review.DepthStandard})
	if got, want := ofRule(res.Findings, longFunction), []string{longFunction + "@a.go:106"}; !slices.Equal(got, want) {
		t.Errorf("findings = %v, want %v (Branch, committed after the merge-base)", got, want)
	}
	if got, want := preexisting(res, longFunction), []string{longFunction + "@a.go:33"}; !slices.Equal(got, want) {
		t.Errorf("pre-existing = %v, want %v", got, want)
	}
}

// TestIDStableWhenLinesShift inserts 50 lines above a finding: its id
// (the fingerprint) does not move with it.
func TestIDStableWhenLinesShift(t *testing.T) {
	dir := repo(t, map[string]string{"keep.txt": "x\n"})
	body := "def f():\n    x = load()  # TODO: handle a missing file\n    return x\n"
	write(t, dir, "a.py", []byte(body))
	before := run(t, dir, review.Request{})
	write(t, dir, "a.py", []byte(strings.Repeat("# filler\n", 50)+body))
	after := run(t, dir, review.Request{})
	b, a := ofRule(before.Findings, todoRule), ofRule(after.Findings, todoRule)
	if len(b) != 1 || len(a) != 1 || b[0] == a[0] {
		t.Fatalf("findings before %v and after %v: want one each, on different lines", b, a)
	}
	id := func(res *review.Result) string {
		for _, f := range res.Findings {
			if f.RuleID == todoRule {
				return f.ID
			}
		}
		return ""
	}
	if id(before) != id(after) {
		t.Errorf("id %s became %s when the finding moved down 50 lines", id(before), id(after))
	}
}

// TestScanTree checks the whole-tree scan behind baselines: every file
// committed at HEAD as if new, the review's skips applied, untracked,
// staged and unstaged changes left out, and the baseline it makes covers
// exactly its findings.
func TestScanTree(t *testing.T) {
	const todo = "x = 1  # TODO: handle a missing file\n"
	dir := repo(t, map[string]string{"a.py": todo + "y = 2  # TODO: close it\n", "b/c.py": todo, "vendor/v.py": todo})
	write(t, dir, "untracked.py", []byte(todo))
	write(t, dir, "staged.py", []byte(todo))
	reviewtest.Git(t, dir, "add", "staged.py")
	write(t, dir, "b/c.py", []byte("z = 0\n"+todo+todo))
	eng, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	scan, err := eng.ScanTree(t.Context())
	if err != nil || len(scan.Problems) > 0 {
		t.Fatalf("ScanTree: %v %v", err, scan)
	}
	if head := strings.TrimSpace(reviewtest.Git(t, dir, "rev-parse", "HEAD")); scan.Head != head {
		t.Errorf("scanned %s, want HEAD %s", scan.Head, head)
	}
	found := scan.Findings
	want := []string{todoRule + "@a.py:1", todoRule + "@a.py:2", todoRule + "@b/c.py:1"}
	if got := ofRule(found, todoRule); !slices.Equal(got, want) {
		t.Errorf("findings = %v, want %v", got, want)
	}
	b := review.NewBaseline(found)
	if outside, inside, absent := b.Compare(found); len(outside) != 0 || len(inside) != len(found) || len(absent) != 0 {
		t.Errorf("a scan against its own baseline: %d outside, %d inside, %d absent", len(outside), len(inside), len(absent))
	}
	if outside, _, absent := b.Compare(found[1:]); len(outside) != 0 || len(absent) != 1 || absent[0].Count != 1 {
		t.Errorf("a finding gone: %d outside, absent %v", len(outside), absent)
	}
}

// TestSecretHoldsTheLine: a secret's fingerprint stands for its place, not
// its value, yet the base version still decides by value: the same key
// moved or re-indented is pre-existing, a new key in the old key's place
// is the change's own.
func TestSecretHoldsTheLine(t *testing.T) {
	const rule = "security/hardcoded-secret"
	base := "package a\n\nfunc f() {\n\tkey := \"AKIAZ7Q2R5T6W3X4Y6B2\"\n\t_ = key\n}\n"
	for _, tc := range []struct {
		name, head string
		want, pre  []string
	}{
		{"moved and re-indented", "package a\n\n// f uses the key.\nfunc f() {\n\tif true {\n\t\tkey := \"AKIAZ7Q2R5T6W3X4Y6B2\"\n\t\t_ = key\n\t}\n}\n",
			nil, []string{rule + "@a.go:6"}},
		{"the line edited around it", "package a\n\nfunc f() {\n\tkey := \"AKIAZ7Q2R5T6W3X4Y6B2\" // the staging account\n\t_ = key\n}\n",
			nil, []string{rule + "@a.go:4"}},
		{"replaced in place", "package a\n\nfunc f() {\n\tkey := \"AKIA5XRILAV5FVCYK43K\"\n\t_ = key\n}\n",
			[]string{rule + "@a.go:4"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t, map[string]string{"a.go": base})
			write(t, dir, "a.go", []byte(tc.head))
			res := run(t, dir, review.Request{})
			if got := ofRule(res.Findings, rule); !slices.Equal(got, tc.want) {
				t.Errorf("findings = %v, want %v", got, tc.want)
			}
			if got := preexisting(res, rule); !slices.Equal(got, tc.pre) {
				t.Errorf("pre-existing = %v, want %v", got, tc.pre)
			}
		})
	}
}
