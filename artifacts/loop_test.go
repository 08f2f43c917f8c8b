package artifacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/reviewls/reviewls/review"
)

func TestExtraNames(t *testing.T) {
	for _, tt := range []struct{ item, symbol, want string }{
		{"board-1", "Store.Get", "explanations/board-1-Store.Get.md"},
		{"board-2", "../../etc/passwd", "explanations/board-2-etc-passwd.md"},
		{"board-3", "a/b\\c d", "explanations/board-3-a-b-c-d.md"},
		{"board-4", "..", "explanations/board-4-x.md"},
	} {
		if got := ExplanationFile(tt.item, tt.symbol); got != tt.want {
			t.Errorf("ExplanationFile(%q, %q) = %q, want %q", tt.item, tt.symbol, got, tt.want)
		}
		if !explanationRE.MatchString(ExplanationFile(tt.item, tt.symbol)) {
			t.Errorf("%q does not match the metadata pattern", ExplanationFile(tt.item, tt.symbol))
		}
	}
	if got := WalkbackFile("board-1-002"); got != "walkback/board-1-002-register-2.md" || !walkbackRE.MatchString(got) {
		t.Errorf("WalkbackFile = %q", got)
	}
}

func TestWriteExtraStaysInside(t *testing.T) {
	root := t.TempDir()
	res := interactiveResult()
	p, err := WriteExtra(root, res.ChangeSet.Target, ExplanationFile("board-1", "Run"), []byte("# Run\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p, filepath.Join(root, ReviewsDir)) {
		t.Errorf("written to %s, outside the review folder", p)
	}
	if _, err := WriteExtra(root, res.ChangeSet.Target, "../../escape.md", []byte("x")); err == nil {
		t.Error("WriteExtra accepted a name outside the artifact patterns")
	}
	// The next interactive Write lists it in metadata.json.
	if _, err := Write(root, res, Options{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(Folder(root, res.ChangeSet.Target), FileMetadata))
	if err != nil || !strings.Contains(string(data), `"explanations/board-1-Run.md"`) {
		t.Errorf("metadata.json does not list the explanation: %v\n%s", err, data)
	}
}

// TestLoadLoopRoundTrip writes an interactive review with human choices
// and reads the loop state back.
func TestLoadLoopRoundTrip(t *testing.T) {
	root := t.TempDir()
	res := interactiveResult()
	if l, err := LoadLoop(root, res.ChangeSet.Target); l != nil || err != nil {
		t.Fatalf("no folder yet: %+v, %v", l, err)
	}
	res.Profile = review.ProfileCustom
	res.Perspectives = []review.Perspective{review.Security}
	res.Provenance = review.Provenance{Scope: review.HumanConfirmed, ChangeRiskEvidence: review.HumanConfirmed,
		RecommendedDepth: review.AutomationDerived, DepthTier: review.HumanConfirmed, DepthRationale: review.HumanConfirmed}
	res.Depth, res.DepthRationale = review.DepthComprehensive, "touches auth"
	res.Emission = &review.Emission{Mode: "canonical", Target: "review artifact", Status: "completed", Summary: "done"}
	res.Gates.EmissionReady = true
	if _, err := Write(root, res, Options{}); err != nil {
		t.Fatal(err)
	}
	l, err := LoadLoop(root, res.ChangeSet.Target)
	if err != nil {
		t.Fatal(err)
	}
	// The writer fills defaults (status pending, register-1) of items the
	// fixture leaves blank; complete items come back as they were.
	if len(l.Board) != len(res.Board) {
		t.Fatalf("board has %d items, want %d", len(l.Board), len(res.Board))
	}
	if diff := cmp.Diff(res.Board[0], l.Board[0], cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("board item (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]review.Perspective{review.Security}, l.Perspectives); diff != "" {
		t.Errorf("perspectives (-want +got):\n%s", diff)
	}
	if l.Depth != review.DepthComprehensive || l.DepthRationale != "touches auth" || l.Provenance != res.Provenance {
		t.Errorf("depth %v %q provenance %+v", l.Depth, l.DepthRationale, l.Provenance)
	}
	if l.Emission == nil || l.Emission.Status != "completed" || !l.Gates.EmissionReady {
		t.Errorf("emission %+v gates %+v", l.Emission, l.Gates)
	}
}
