package functional

import (
	"context"
	"testing"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestIgnoredErrorPackageDecls checks that the signatures of the
// package's other files, on disk and unchanged, are known: a dropped error
// of a function declared there is reported, one of another package's
// function of the same name is not.
func TestIgnoredErrorPackageDecls(t *testing.T) {
	root := t.TempDir()
	treetest.Write(t, root, map[string]string{
		"store/save.go":   "package store\n\nfunc save(p string) error { return nil }\n\ntype DB struct{}\n\nfunc (d *DB) Flush() error { return nil }\n",
		"other/load.go":   "package other\n\nfunc load() error { return nil }\n",
		"store/skip.go":   "package notstore\n\nfunc load() error { return nil }\n",
		"store/x_test.go": "package store\n\nfunc check() error { return nil }\n",
	})
	src := "package store\n\nfunc Run(d *DB) {\n\tsave(\"a\")\n\td.Flush()\n\tload()\n\tcheck()\n}\n"
	f := lenstest.NewFile("store/run.go", []byte(src))
	cs := &review.ChangeSet{Root: root, Files: []*review.File{f}}
	got, err := lens.New(review.Functional, IgnoredError).Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, fd := range got {
		lines = append(lines, fd.Span.StartLine)
	}
	if len(lines) != 2 || lines[0] != 4 || lines[1] != 5 {
		t.Errorf("findings on lines %v, want 4 (save) and 5 (d.Flush)", lines)
	}
}
