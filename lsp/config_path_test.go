package lsp

import "testing"

// TestIsConfigPath checks the paths whose change makes the next review a
// full scan: the configuration, and every ignore or attributes file.
func TestIsConfigPath(t *testing.T) {
	for p, want := range map[string]bool{
		".reviewls.yaml": true, ".gitignore": true, "sub/.gitignore": true,
		".gitattributes": true, "sub/dir/.gitattributes": true,
		"a.go": false, "gitattributes": false, "sub/.reviewls.yaml": false,
	} {
		if got := isConfigPath(p); got != want {
			t.Errorf("isConfigPath(%q) = %v, want %v", p, got, want)
		}
	}
}
