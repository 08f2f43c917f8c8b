package functional

import (
	"slices"
	"strings"
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

// TestIgnoredErrorFix checks the fix and the suggestion of a dropped error
// against the call's results and the enclosing function's: the issue's
// `f.WriteString(c.UsageString())` in a method the change adds, which
// returns nothing, gets `_, err :=`, an error result and a wrapped return;
// the same method in a file where it existed before gets advice, not a
// fix that would change its callers.
func TestIgnoredErrorFix(t *testing.T) {
	const before = "package cobra\n\nimport \"os\"\n\ntype Command struct{}\n\nfunc (c *Command) UsageString() string { return \"\" }\n"
	const method = "\n// WriteUsageFile writes the usage to path.\nfunc (c *Command) WriteUsageFile(path string) {\n\tf, err := os.Create(path)\n\tif err != nil {\n\t\treturn\n\t}\n\tdefer f.Close()\n\tf.WriteString(c.UsageString())\n}\n"
	added := lenstest.Modified("command.go", before, before+method)
	got := lenstest.Check(t, IgnoredError, added, 0, nil)
	if len(got) != 1 || got[0].Fix == nil {
		t.Fatalf("findings %+v, want one with a fix", got)
	}
	fixed, err := review.ApplyEdits(added.Content, got[0].Fix.Edits)
	if err != nil {
		t.Fatal(err)
	}
	const want = "package cobra\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\ntype Command struct{}\n\nfunc (c *Command) UsageString() string { return \"\" }\n" +
		"\n// WriteUsageFile writes the usage to path.\nfunc (c *Command) WriteUsageFile(path string) error {\n\tf, err := os.Create(path)\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer f.Close()\n" +
		"\tif _, err := f.WriteString(c.UsageString()); err != nil {\n\t\treturn fmt.Errorf(\"write string: %w\", err)\n\t}\n\treturn nil\n}\n"
	if string(fixed) != want {
		t.Errorf("fixed file\n%s\nwant\n%s", fixed, want)
	}
	const suggested = "Command.WriteUsageFile returns no error, so its caller cannot learn that this call failed: give it an error result and return the error wrapped, " +
		"`if _, err := f.WriteString(c.UsageString()); err != nil { return fmt.Errorf(\"write string: %w\", err) }` (the quick fix does both)."
	if got[0].SuggestedFix != suggested {
		t.Errorf("suggestion\n got %q\nwant %q", got[0].SuggestedFix, suggested)
	}

	// The method existed before: a new result would change its callers.
	existing := lenstest.Modified("command.go", before+strings.Replace(method, "\tf.WriteString(c.UsageString())\n", "", 1), before+method)
	got = lenstest.Check(t, IgnoredError, existing, 0, nil)
	if len(got) != 1 || got[0].Fix != nil {
		t.Fatalf("findings %+v, want one without a fix", got)
	}
	if want := "(no quick fix: the new result changes its callers), or handle the failure here."; !strings.HasSuffix(got[0].SuggestedFix, want) {
		t.Errorf("suggestion %q, want it to end %q", got[0].SuggestedFix, want)
	}
}
