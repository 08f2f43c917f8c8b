package lens_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/functional"
	"github.com/reviewls/reviewls/review/lens/lenstest"
	"github.com/reviewls/reviewls/review/lens/readiness"
	"github.com/reviewls/reviewls/review/lens/security"
	"github.com/reviewls/reviewls/review/lens/standards"
)

// goCorpusRules are the rules for Go and the manifests, whose precision the
// clean corpus guards.
var goCorpusRules = []*lens.Rule{
	functional.IgnoredError, functional.DeferInLoop, functional.LoopVarCapture, functional.UncheckedTypeAssertion,
	functional.NilMapWrite, functional.ContextBackground, functional.LostCancel, functional.GoAnalysis,
	security.TLSVerifyDisabled, security.WeakCrypto, security.InsecureRandom, security.SQLInjection,
	standards.Gofmt, standards.ExportedUndocumented, standards.GoNaming,
	readiness.LocalReplace, readiness.NewDependency,
}

// goCorpusChangeSet builds the change set of a fixture: base/ files are
// written to a temporary work tree and work/ files over them; each work/
// file is reviewed with the lines that differ from its base version
// marked changed.
func goCorpusChangeSet(t *testing.T, path string) *review.ChangeSet {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	base := map[string][]byte{}
	cs := &review.ChangeSet{Root: root}
	for _, side := range []string{"base/", "work/"} {
		for _, f := range ar.Files {
			rel, ok := strings.CutPrefix(f.Name, side)
			if !ok {
				continue
			}
			treetest.WriteFile(t, root, rel, f.Data)
			if side == "base/" {
				base[rel] = f.Data
				continue
			}
			file := lenstest.NewFile(rel, f.Data)
			if old, ok := base[rel]; ok {
				file = lenstest.Modified(rel, string(old), string(f.Data))
			}
			cs.Files = append(cs.Files, file)
		}
	}
	if len(cs.Files) == 0 {
		t.Fatalf("%s has no work/ files", path)
	}
	cs.Sort()
	return cs
}

// TestCleanGoCorpus runs the catalog at depth standard, and the
// type-aware go-analysis rule at depth comprehensive, on realistic clean
// Go changes: the Go rules must report nothing. Findings of other rules
// are logged for their owners.
func TestCleanGoCorpus(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "clean", "go-*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 10 {
		t.Fatalf("found %d clean Go fixtures, want at least 10", len(paths))
	}
	mine := map[string]bool{}
	for _, r := range goCorpusRules {
		mine[r.ID] = true
	}
	ctx := context.Background()
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			cs := goCorpusChangeSet(t, p)
			var got []*review.Finding
			for _, l := range catalog() {
				fs, err := l.Check(ctx, cs, nil, review.CheckOptions{Depth: review.DepthStandard})
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, fs...)
			}
			fs, err := lens.New(review.Functional, functional.GoAnalysis).Check(ctx, cs, nil, review.CheckOptions{Depth: review.DepthComprehensive})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fs...)
			for _, fd := range got {
				if mine[fd.RuleID] {
					t.Errorf("%s:%d: %s: %s", fd.Span.Path, fd.Span.StartLine, fd.RuleID, fd.Message)
				} else {
					t.Logf("%s:%d: %s (not a Go rule): %s", fd.Span.Path, fd.Span.StartLine, fd.RuleID, fd.Message)
				}
			}
		})
	}
}

// TestCleanGoCorpusChangesLines guards the fixtures themselves: every
// fixture changes at least one line of Go.
func TestCleanGoCorpusChangesLines(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "clean", "go-*.txtar"))
	for _, p := range paths {
		n := 0
		for _, f := range goCorpusChangeSet(t, p).Files {
			if f.Language == review.LangGo {
				n += len(f.Lines)
			}
		}
		if n == 0 {
			t.Errorf("%s changes no Go line", filepath.Base(p))
		}
	}
}
