package functional

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

func TestLoopVarCaptureFixes(t *testing.T) {
	content, err := os.ReadFile("testdata/loop-var-capture/legacy.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := lenstest.CheckFixes(t, LoopVarCapture, lenstest.NewFile("jobs/legacy.go", content)); n == 0 {
		t.Error("no fix was checked")
	}
}

// checkWithGoMod runs rule on a Go file beside a go.mod, either reviewed in
// the change set or only on disk.
func checkWithGoMod(t *testing.T, rule *lens.Rule, goMod string, onDisk bool, f *review.File) []*review.Finding {
	t.Helper()
	root := t.TempDir()
	cs := &review.ChangeSet{Root: root, Files: []*review.File{f}}
	if onDisk {
		if err := os.MkdirAll(filepath.Join(root, "jobs"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(goMod), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		cs.Files = append(cs.Files, lenstest.NewFile("go.mod", []byte(goMod)))
	}
	cs.Sort()
	got, err := lens.New(rule.Perspective, rule).Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
	if err != nil {
		t.Fatal(err)
	}
	var out []*review.Finding
	for _, fd := range got {
		if fd.Span.Path == f.Path {
			out = append(out, fd)
		}
	}
	return out
}

func TestLoopVarCaptureGoMod(t *testing.T) {
	for _, tt := range []struct {
		name   string
		goMod  string
		onDisk bool
		want   int
	}{
		{"go 1.21 on disk", "module example.com/jobs\n\ngo 1.21\n", true, 1},
		{"go 1.21.5 in the change set", "module example.com/jobs\n\ngo 1.21.5 // pinned\n", false, 1},
		{"go 1.22", "module example.com/jobs\n\ngo 1.22\n", true, 0},
		{"no go directive", "module example.com/jobs\n", true, 0},
	} {
		f := lenstest.Input(t, "testdata/loop-var-capture/modern.go", "jobs/modern.go")
		got := checkWithGoMod(t, LoopVarCapture, tt.goMod, tt.onDisk, f)
		if len(got) != tt.want {
			t.Errorf("%s: got %d findings, want %d", tt.name, len(got), tt.want)
		}
		if tt.want > 0 && len(got) > 0 && got[0].Span.StartLine != 10 {
			t.Errorf("%s: finding on line %d, want 10", tt.name, got[0].Span.StartLine)
		}
	}
}
