package artifacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestWriteBaselineRefuses checks that a baseline is written only where
// one belongs: never in .git/ (directly or through a linked folder), never
// through a symbolic link, never over a file that is not a reviewls
// baseline, each refusal leaving the file as it was; and that a baseline,
// even one the schema now rejects, is rewritten.
func TestWriteBaselineRefuses(t *testing.T) {
	const hook = "#!/bin/sh\nexec reviewls review --staged\n"
	root := t.TempDir()
	for name, data := range map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".git/hooks/pre-commit": hook,
		"README.md":             "# project\n",
		"ci/other.json":         "{}\n",
		"old.json":              `{"schema_version": "1", "tool": "reviewls 0.1", "findings": [{"fingerprint": "rv-0123456789ab", "line": 3}]}`,
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"hooks": ".git/hooks", "git": ".git", "linked.json": "ci/other.json", "out": t.TempDir()} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	b := &review.Baseline{Entries: []review.BaselineEntry{{Fingerprint: "rv-0123456789ab", RuleID: "readiness/todo-added", Path: "a.go", Count: 1}}}
	for rel, want := range map[string]string{
		".git/hooks/pre-commit": "the path is in .git/",
		".GIT/HEAD":             "the path is in .git/",
		"hooks/pre-commit":      "a symbolic link leads its folder into .git/",
		"git/HEAD":              "a symbolic link leads its folder into .git/",
		"git/new/baseline.json": "a symbolic link leads its folder into .git/",
		"out/baseline.json":     "a symbolic link leads its folder out of the work tree",
		"README.md":             "the file there is not a reviewls baseline",
		"ci/other.json":         "the file there is not a reviewls baseline",
		"linked.json":           "it is a symbolic link",
		"dir.json":              "it is a directory, not a baseline",
	} {
		err := WriteBaseline(root, rel, b, Options{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "write baseline "+rel+": ") {
			t.Errorf("WriteBaseline(%s) = %v, want a refusal: %s", rel, err, want)
		}
	}
	for name, want := range map[string]string{".git/hooks/pre-commit": hook, ".git/HEAD": "ref: refs/heads/main\n", "README.md": "# project\n", "ci/other.json": "{}\n"} {
		if got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name))); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want it untouched", name, got, err)
		}
	}
	for _, rel := range []string{"old.json", "new/dir/baseline.json", "new/dir/baseline.json"} {
		if err := WriteBaseline(root, rel, b, Options{}); err != nil {
			t.Errorf("WriteBaseline(%s) = %v", rel, err)
			continue
		}
		if got, err := ReadBaseline(root, rel); err != nil || len(got.Entries) != 1 {
			t.Errorf("ReadBaseline(%s) = %+v, %v", rel, got, err)
		}
	}
}
