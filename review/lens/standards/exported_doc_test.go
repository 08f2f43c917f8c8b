package standards

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review/lens/lenstest"
)

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

// TestExportedUndocumentedLibraryOnly checks two real near misses: names
// added to internal/ or application packages (gh's internal/keyring,
// pkg/cmd/extension), which no user outside the module sees, and names
// added to a file whose existing API is mostly undocumented (gh's
// git/client.go), whose convention the finding would only fight.
func TestExportedUndocumentedLibraryOnly(t *testing.T) {
	const added = "package keyring\n\ntype TimeoutError struct{ message string }\n"
	for _, p := range []string{"internal/keyring/keyring.go", "pkg/cmd/extension/extension.go", "examples/x/x.go", "_tools/x.go"} {
		if got := lenstest.Check(t, ExportedUndocumented, lenstest.NewFile(p, []byte(added)), 0, nil); len(got) != 0 {
			t.Errorf("%s: got %+v, want nothing", p, got)
		}
	}
	if got := lenstest.Check(t, ExportedUndocumented, lenstest.NewFile("keyring/keyring.go", []byte(added)), 0, nil); len(got) != 1 {
		t.Errorf("library package: got %d findings, want 1", len(got))
	}

	undocumented := "package git\n\ntype Client struct{}\n\nfunc (c *Client) Remotes() error {\n\treturn nil\n}\n\nfunc (c *Client) Config() error {\n\treturn nil\n}\n\n// Commits lists commits.\nfunc (c *Client) Commits() error {\n\treturn nil\n}\n"
	more := undocumented + "\nfunc (c *Client) TrackingBranchNames() []string {\n\treturn nil\n}\n"
	if got := lenstest.Check(t, ExportedUndocumented, lenstest.Modified("git/client.go", undocumented, more), 0, nil); len(got) != 0 {
		t.Errorf("mostly undocumented file: got %+v, want nothing", got)
	}
	documented := strings.NewReplacer("type Client", "// Client runs git.\ntype Client", "func (c *Client) Remotes", "// Remotes lists remotes.\nfunc (c *Client) Remotes").Replace(undocumented)
	if got := lenstest.Check(t, ExportedUndocumented, lenstest.Modified("git/client.go", documented, documented+"\nfunc (c *Client) TrackingBranchNames() []string {\n\treturn nil\n}\n"), 0, nil); len(got) != 1 {
		t.Errorf("documented file: got %d findings, want 1", len(got))
	}
}
