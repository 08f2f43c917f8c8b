package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// TestCleanCorpus is the catalog's precision bar: each fixture under
// testdata/corpus/clean is a realistic, well-made change in the style of a
// well-maintained open-source project, committed as base/ and edited as
// work/ in a real repository. Reviewed with every perspective at depth
// standard, none may produce a finding.
func TestCleanCorpus(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/corpus/clean/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 30 {
		t.Fatalf("the clean corpus has %d changes, want at least 30", len(paths))
	}
	langs := map[review.Language]bool{}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			fx := reviewtest.Repo(t, path)
			res := run(t, fx.Dir, review.Request{Profile: review.ProfileFull, Depth: review.DepthStandard})
			if res.ChangeSet.Empty() {
				t.Fatal("the fixture changes nothing")
			}
			for _, f := range res.ChangeSet.Reviewed() {
				langs[f.Language] = true
			}
			for _, f := range res.Findings {
				t.Errorf("%s:%d: %s: %s", f.Span.Path, f.Span.StartLine, f.RuleID, f.Message)
			}
			for _, p := range res.Problems {
				t.Errorf("check failed: %s", p)
			}
		})
	}
	for _, l := range []review.Language{review.LangGo, review.LangPython, review.LangJavaScript, review.LangTypeScript, review.LangTSX,
		review.LangShell, review.LangDockerfile, review.LangActions, review.LangHTML, review.LangVue, review.LangSvelte} {
		if !langs[l] {
			t.Errorf("the clean corpus has no %s change", l)
		}
	}
}
