package functional

import (
	"slices"
	"testing"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestIgnoredErrorPackageDecls checks that the signatures of the
// package's other files, on disk and unchanged, are known: a dropped error
// of a function declared there is reported, one of another package's
// function of the same name is not; and that the module's other packages
// are read through the import path (a function, and a method of a type a
// function of that package returns).
func TestIgnoredErrorPackageDecls(t *testing.T) {
	root := t.TempDir()
	treetest.Write(t, root, map[string]string{
		"store/save.go":   "package store\n\nfunc save(p string) error { return nil }\n\ntype DB struct{}\n\nfunc (d *DB) Flush() error { return nil }\n",
		"other/load.go":   "package other\n\nfunc load() error { return nil }\n",
		"store/skip.go":   "package notstore\n\nfunc load() error { return nil }\n",
		"store/x_test.go": "package store\n\nfunc check() error { return nil }\n",
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"util/exec.go":    "package util\n\ntype Cmd struct{}\n\nfunc Command(s string) *Cmd { return nil }\n\nfunc (c *Cmd) Start() error { return nil }\n\nfunc SetMode(m int) error { return nil }\n",
	})
	src := "package store\n\nimport \"example.com/m/util\"\n\nfunc Run(d *DB) {\n\tsave(\"a\")\n\td.Flush()\n\tload()\n\tcheck()\n" +
		"\tutil.SetMode(1)\n\tcmd := util.Command(\"x\")\n\tcmd.Start()\n}\n"
	f := lenstest.NewFile("store/run.go", []byte(src))
	cs := &review.ChangeSet{Root: root, Files: []*review.File{f}}
	got := lenstest.CheckSet(t, IgnoredError, cs, 0, nil)
	var lines []int
	for _, fd := range got {
		lines = append(lines, fd.Span.StartLine)
	}
	if want := []int{6, 7, 10, 12}; !slices.Equal(lines, want) {
		t.Errorf("findings on lines %v, want %v (save, d.Flush, util.SetMode, cmd.Start)", lines, want)
	}
}
