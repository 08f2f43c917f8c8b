package readiness

import (
	"context"
	"sort"
	"strconv"
	"testing"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// scriptChangeSet returns a change set of untracked files (every line
// changed). When onDisk is not nil, its files are written to a temporary
// root together with the changed ones, as committed files around the
// change.
func scriptChangeSet(t *testing.T, changed map[string]string, onDisk map[string]string) *review.ChangeSet {
	t.Helper()
	cs := &review.ChangeSet{}
	if onDisk != nil {
		cs.Root = t.TempDir()
		for p, content := range onDisk {
			scriptWrite(t, cs.Root, p, content)
		}
	}
	for p, content := range changed {
		if cs.Root != "" {
			scriptWrite(t, cs.Root, p, content)
		}
		cs.Files = append(cs.Files, lenstest.NewFile(p, []byte(content)))
	}
	cs.Sort()
	return cs
}

func scriptWrite(t *testing.T, root, p, content string) {
	t.Helper()
	treetest.WriteFile(t, root, p, []byte(content))
}

// scriptCheck runs rule over the whole change set and returns
// "path:line" keys of its findings, sorted.
func scriptCheck(t *testing.T, rule *lens.Rule, cs *review.ChangeSet) ([]string, []*review.Finding) {
	t.Helper()
	got, err := lens.New(rule.Perspective, rule).Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, fd := range got {
		keys = append(keys, fd.Span.Path+":"+strconv.Itoa(fd.Span.StartLine))
	}
	sort.Strings(keys)
	return keys, got
}
