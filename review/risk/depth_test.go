package risk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// depthRepo is a work tree where every signal can be observed: a Go module
// with pkg/calc.go and its test on disk, and a fresh coverage profile that
// covers the changed line when covered is set.
func depthRepo(t *testing.T, covered bool) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "go.mod", "module example.com/m\n", past)
	writeFile(t, root, "pkg/calc.go", lines(10), past)
	writeFile(t, root, "pkg/calc_test.go", "x\n", past)
	writeFile(t, root, "api/handler.go", lines(10), past)
	writeFile(t, root, "internal/auth/login.go", lines(10), past)
	writeFile(t, root, "internal/auth/login_test.go", "x\n", past)
	count := 0
	if covered {
		count = 1
	}
	writeFile(t, root, "coverage.out", fmt.Sprintf("mode: set\n"+
		"example.com/m/pkg/calc.go:3.1,5.2 4 %d\n"+
		"example.com/m/api/handler.go:3.1,5.2 4 %d\n"+
		"example.com/m/internal/auth/login.go:3.1,5.2 4 %d\n", count, count, count), future)
	return root
}

func TestRecommendedDepth(t *testing.T) {
	calc := func() *review.File { return file("pkg/calc.go", review.StatusModified, lines(10), 4) }
	tests := []struct {
		name    string
		covered bool
		hist    *review.History
		noCov   bool // delete the profile
		files   func() []*review.File
		want    review.Depth
		reason  []string
		incompl bool
	}{
		{
			name: "basic: everything available and benign", covered: true, hist: fullHistory,
			files: func() []*review.File { return []*review.File{calc()} },
			want:  review.DepthBasic, reason: []string{"basic: every signal is available", "narrow (TRIVIAL)"},
		},
		{
			name: "standard: history unavailable", covered: true, hist: nil,
			files: func() []*review.File { return []*review.File{calc()} },
			want:  review.DepthStandard, incompl: true,
			reason: []string{"evidence is incomplete (history unavailable)", "never escalates"},
		},
		{
			name: "standard: coverage unavailable", hist: fullHistory, noCov: true,
			files: func() []*review.File { return []*review.File{calc()} },
			want:  review.DepthStandard, incompl: true, reason: []string{"(coverage unavailable)"},
		},
		{
			name: "standard: low coverage keeps it from basic", covered: false, hist: fullHistory,
			files: func() []*review.File { return []*review.File{calc()} },
			want:  review.DepthStandard, reason: []string{"not basic: coverage below 75%: pkg/calc.go (0% of changed statements)"},
		},
		{
			name: "standard: untested file keeps it from basic", covered: true, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{calc(), file("pkg/extra.go", review.StatusModified, lines(3), 1)}
			},
			want: review.DepthStandard, reason: []string{"no test for pkg/extra.go", "pkg/extra.go (not in a coverage profile)"},
		},
		{
			name: "standard: broad scope keeps it from basic", covered: true, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{calc(), file("go.mod", review.StatusModified, "require x v1\n", 1)}
			},
			want: review.DepthStandard, reason: []string{"scope is BROAD"},
		},
		{
			name: "standard: feature flag rollback keeps it from basic", covered: true, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{file("pkg/calc.go", review.StatusModified, lines(3)+"\tif featureFlag(\"x\") {\n", 4)}
			},
			want: review.DepthStandard, reason: []string{"rollback involves feature flag"},
		},
		{
			name: "comprehensive: critical path, even with evidence missing", hist: nil, noCov: true,
			files: func() []*review.File {
				return []*review.File{file("internal/auth/login.go", review.StatusModified, lines(10), 4)}
			},
			want: review.DepthComprehensive, incompl: true,
			reason: []string{`comprehensive: critical path: internal/auth/login.go (auth ("auth" in path))`},
		},
		{
			name: "comprehensive: weak detection for important logic", covered: true, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{file("api/handler.go", review.StatusModified, lines(10), 4)}
			},
			want:   review.DepthComprehensive,
			reason: []string{"weak detection for important logic: api/handler.go (Medium, no test found)"},
		},
		{
			name: "comprehensive: important logic with low fresh coverage", covered: false, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{file("internal/auth/login.go", review.StatusModified, lines(10), 4)}
			},
			want:   review.DepthComprehensive,
			reason: []string{"weak detection for important logic: internal/auth/login.go (High, changed code 0% covered)"},
		},
		{
			name: "comprehensive: broad behavioural spread", covered: true, hist: fullHistory,
			files: func() []*review.File {
				var fs []*review.File
				for i := range 4 {
					fs = append(fs, file(fmt.Sprintf("area%d/x.go", i), review.StatusModified, "x\n", 1))
				}
				return fs
			},
			want: review.DepthComprehensive, reason: []string{"broad behavioural spread: 4 top-level areas (area0, area1, area2, area3)"},
		},
		{
			name: "comprehensive: hard rollback", hist: nil, noCov: true,
			files: func() []*review.File {
				return []*review.File{file("db/migrations/1.sql", review.StatusAdded, "ALTER TABLE t ADD c int;\n")}
			},
			want: review.DepthComprehensive, incompl: true,
			reason: []string{"hard rollback: db/migrations/1.sql (migration), db/migrations/1.sql line 1 (ALTER TABLE)"},
		},
		{
			name: "comprehensive: material ambiguity", covered: true, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{calc(), {Path: "pkg/huge.go", Status: review.StatusModified,
					Skip: "size 2.1 MiB exceeds the 1 MiB cap"}}
			},
			want:   review.DepthComprehensive,
			reason: []string{"material ambiguity: source not reviewed (pkg/huge.go: size 2.1 MiB exceeds the 1 MiB cap)"},
		},
		{
			name: "skipped lockfile is no ambiguity", covered: true, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{calc(), {Path: "web/dist/app.min.js", Status: review.StatusModified, Skip: "minified"}}
			},
			want: review.DepthBasic,
		},
		{
			name: "comprehensive: qualitative trigger with complete evidence", covered: true, hist: fullHistory,
			files: func() []*review.File {
				return []*review.File{calc(), file("pkg/msg.proto", review.StatusModified, "int32 id = 1;\n", 1)}
			},
			want: review.DepthComprehensive, reason: []string{"comprehensive: possibly hard rollback: data format definitions change (pkg/msg.proto)"},
		},
		{
			name: "standard: qualitative trigger with incomplete evidence", hist: nil, noCov: true,
			files: func() []*review.File {
				return []*review.File{calc(), file("pkg/msg.proto", review.StatusModified, "int32 id = 1;\n", 1)}
			},
			want: review.DepthStandard, incompl: true,
			reason: []string{"standard: evidence is incomplete", "qualitative cue to confirm: possibly hard rollback"},
		},
		{
			name: "standard: stale coverage is inconclusive", hist: fullHistory,
			files: func() []*review.File { return []*review.File{calc()} },
			want:  review.DepthStandard, reason: []string{"coverage is inconclusive"},
		},
		{
			name: "basic: documentation only", hist: fullHistory, covered: true,
			files: func() []*review.File {
				return []*review.File{file("docs/guide.md", review.StatusModified, "a\nb\n", 1)}
			},
			want: review.DepthBasic,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := depthRepo(t, tt.covered)
			if tt.noCov {
				root = t.TempDir()
				writeFile(t, root, "pkg/calc_test.go", "x\n", past)
				writeFile(t, root, "internal/auth/login_test.go", "x\n", past)
			}
			if strings.Contains(tt.name, "stale") {
				writeFile(t, root, "coverage.out", "mode: set\nexample.com/m/pkg/calc.go:3.1,5.2 4 1\n", past.Add(-1))
			}
			r := Assess(changeSet(root, tt.files()...), tt.hist, Options{})
			if r.RecommendedDepth != tt.want {
				t.Errorf("depth = %s, want %s\nreason: %s\nevidence: %v", r.RecommendedDepth, tt.want, r.DepthReason, r.Evidence)
			}
			if r.Incomplete != tt.incompl {
				t.Errorf("incomplete = %v, want %v", r.Incomplete, tt.incompl)
			}
			if !strings.HasPrefix(r.DepthReason, r.RecommendedDepth.String()+": ") {
				t.Errorf("reason %q does not start with %q", r.DepthReason, r.RecommendedDepth.String()+": ")
			}
			wantContains(t, "depth reason", r.DepthReason, tt.reason...)
		})
	}
}
