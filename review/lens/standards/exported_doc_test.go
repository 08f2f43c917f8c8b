package standards

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestExportedUndocumented(t *testing.T) {
	lenstest.Run(t, ExportedUndocumented, "testdata/exported-undocumented")
}

// TestExportedUndocumentedOnlyAdded checks that only names the change adds
// are reported: an exported function that was already undocumented and
// only got a new signature and body (a real shape: cobra's
// "fix CompletionFunc implementation") is the base's, not this change's.
func TestExportedUndocumentedOnlyAdded(t *testing.T) {
	const old = "package cobra\n\nfunc (c *Command) RegisterFlagCompletionFunc(name string, f func()) error {\n\treturn nil\n}\n"
	const new = "package cobra\n\nfunc (c *Command) RegisterFlagCompletionFunc(name string, f CompletionFunc) error {\n\tif f == nil {\n\t\treturn nil\n\t}\n\treturn nil\n}\n\nfunc (c *Command) GetFlagCompletionFunc(name string) (CompletionFunc, bool) {\n\treturn nil, false\n}\n\ntype Command struct{}\n\ntype CompletionFunc func()\n"
	got := lenstest.Check(t, ExportedUndocumented, lenstest.Modified("completions.go", old, new), 0, nil)
	var names []string
	for _, f := range got {
		names = append(names, f.Symbol)
	}
	if diff := cmp.Diff([]string{"Command.GetFlagCompletionFunc", "Command", "CompletionFunc"}, names); diff != "" {
		t.Errorf("reported (-want +got):\n%s", diff)
	}
}
