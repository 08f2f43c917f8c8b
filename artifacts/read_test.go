package artifacts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func TestReadRoundTrip(t *testing.T) {
	root := t.TempDir()
	res := interactiveResult()
	w := writeOK(t, root, res)
	d, err := Read(w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Metadata(res, testOpts), *d.Metadata); diff != "" {
		t.Errorf("metadata (-built +read):\n%s", diff)
	}
	if diff := cmp.Diff(Manifest(res, testOpts), *d.Manifest); diff != "" {
		t.Errorf("manifest (-built +read):\n%s", diff)
	}
	if d.Manifest.DepthTier != review.DepthBasic || d.Manifest.BoardItems[0].ID != "board-1" {
		t.Errorf("decoded manifest %+v", d.Manifest)
	}
}

func TestReadIsStrict(t *testing.T) {
	tests := []struct {
		name, file, old, new, want string
	}{
		{"unknown metadata field", FileMetadata, `"reviewer": "code-review"`, `"reviewer": "code-review", "score": 3`, "score"},
		{"unknown board field", FileManifest, `"area": "web/src",`, `"area": "web/src", "owner": "me",`, "owner"},
		{"bad verdict", FileMetadata, `"approve_with_comments"`, `"lgtm"`, "/verdict"},
		{"trailing data", FileMetadata, "\n}\n", "\n}\n{}\n", "metadata.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			w := writeOK(t, root, interactiveResult())
			edit(t, filepath.Join(w.Dir, tc.file), tc.old, tc.new)
			_, err := Read(w.Dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read = %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
	t.Run("missing manifest", func(t *testing.T) {
		root := t.TempDir()
		w := writeOK(t, root, cleanResult())
		if err := os.Remove(filepath.Join(w.Dir, FileManifest)); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(w.Dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Read = %v, want ErrNotExist", err)
		}
	})
}

func edit(t *testing.T, name, old, new string) {
	t.Helper()
	data := string(readFile(t, name))
	if !strings.Contains(data, old) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	if err := os.WriteFile(name, []byte(strings.Replace(data, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidateFolder corrupts a written folder in several ways and checks
// that Validate reports every problem, file by file.
func TestValidateFolder(t *testing.T) {
	root := t.TempDir()
	w := writeOK(t, root, workflowResult())
	if err := Validate(w.Dir); err != nil {
		t.Fatalf("fresh folder: %v", err)
	}
	edit(t, filepath.Join(w.Dir, FileMetadata), `"request_changes"`, `"lgtm"`)
	edit(t, filepath.Join(w.Dir, "security-findings.json"), `"severity": "Critical"`, `"severity": "critical"`)
	edit(t, filepath.Join(w.Dir, FileDiffState), `"branch": "feat/login",`, `"branch": "feat/login", "extra": 1,`)
	if err := os.WriteFile(filepath.Join(w.Dir, FileRiver), []byte(`{"version": "1", "timest`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(w.Dir, FileManifest)); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(w.Dir, "other.json"), "not ours, not checked")

	err := Validate(w.Dir)
	var fe *FolderError
	if !errors.As(err, &fe) {
		t.Fatalf("Validate = %v, want *FolderError", err)
	}
	got := map[string]string{}
	for _, f := range fe.Files {
		got[f.File] = strings.Join(f.Problems, "; ")
	}
	want := map[string]string{
		FileDiffState:            "extra",
		FileManifest:             "missing",
		FileMetadata:             "/verdict",
		FileRiver:                "invalid JSON",
		"security-findings.json": "/findings/0/severity",
	}
	if len(got) != len(want) {
		t.Errorf("files with problems: %v", got)
	}
	for file, sub := range want {
		if !strings.Contains(got[file], sub) {
			t.Errorf("%s: problems %q do not mention %q", file, got[file], sub)
		}
	}
	msg := err.Error()
	for file := range want {
		if !strings.Contains(msg, "\n"+file+":") {
			t.Errorf("error message does not list %s:\n%s", file, msg)
		}
	}
}

func TestValidateMissingFolder(t *testing.T) {
	err := Validate(filepath.Join(t.TempDir(), "nope"))
	var fe *FolderError
	if err == nil || errors.As(err, &fe) {
		t.Errorf("Validate(missing) = %v, want a plain error", err)
	}
}
