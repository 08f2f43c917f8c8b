package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// TestResolveUserFindingCaps checks max-findings in the user's file: each
// cap it sets takes the place of the repository's, the other stays.
func TestResolveUserFindingCaps(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	writeFile(t, root, FileName, "max-findings: {per-file: 20, per-review: 300}\n")
	writeFile(t, user, UserFileName, "max-findings: {per-review: 0}\n")
	res, err := Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	want := review.FindingCaps{PerFile: 20, PerReview: -1}
	if diff := cmp.Diff(want, res.Config.MaxFindings); diff != "" {
		t.Errorf("merged caps (-want +got):\n%s", diff)
	}
}

// TestFieldsCoverKeys checks that every key of the file can be merged
// from the user's file: a key without a field panicked the merge.
func TestFieldsCoverKeys(t *testing.T) {
	for _, k := range Keys() {
		if fields[k] == nil {
			t.Errorf("key %q has no field to merge", k)
		}
	}
}
