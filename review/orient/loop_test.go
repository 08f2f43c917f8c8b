package orient

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func result(mode review.Mode, areas ...string) *review.Result {
	res := &review.Result{Mode: mode, Depth: review.DepthStandard}
	for i, a := range areas {
		res.Board = append(res.Board, review.BoardItem{ID: "board-" + string(rune('1'+i)), Area: a, Status: review.StatusPending, Register: review.Register2})
	}
	return res
}

func ids(items []review.BoardItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.ID+"="+it.Area+"/"+it.Status)
	}
	return out
}

// TestSyncKeepsIdsAndStatus checks that items keep their ids and status
// across reviews, new areas get fresh ids and vanished ones leave.
func TestSyncKeepsIdsAndStatus(t *testing.T) {
	loop := Sync(result(review.ModeInteractive, "api", "store"), nil)
	if loop.Phase != review.PhaseOrientation || loop.Provenance != review.AutomationProvenance() {
		t.Fatalf("new loop = %+v", loop)
	}
	if _, err := Bookmark(loop, "board-2", "what does Get return?"); err != nil {
		t.Fatal(err)
	}
	// The next review: store is still there (now second... first), api is
	// gone, cache is new.
	res := result(review.ModeInteractive, "cache", "store")
	loop = Sync(res, loop)
	want := []string{"board-3=cache/pending", "board-2=store/in_progress"}
	if diff := cmp.Diff(want, ids(res.Board)); diff != "" {
		t.Errorf("board (-want +got):\n%s", diff)
	}
	if res.Phase != review.PhaseDispatch || !res.Gates.OrientationConfirmed {
		t.Errorf("phase %q gates %+v after a bookmark", res.Phase, res.Gates)
	}
	if len(res.NextActions) != 1 || res.NextActions[0].ID != "bookmark-1" || res.NextActions[0].Target != "board-2" {
		t.Errorf("next actions = %+v", res.NextActions)
	}
}

func TestBookmarkRoutesQuestions(t *testing.T) {
	for q, want := range map[string]string{
		"what does Refresh do?":            review.Register1,
		"how is the index read":            review.Register1,
		"is the lock handling correct?":    review.Register2,
		"could this break callers":         review.Register2,
		"why does it hash racy entries":    review.Register2,
		"is the new input validated first": review.Register2,
	} {
		if got := RouteRegister(q); got != want {
			t.Errorf("RouteRegister(%q) = %s, want %s", q, got, want)
		}
	}
}

func TestUnknownItem(t *testing.T) {
	loop := Sync(result(review.ModeInteractive, "api"), nil)
	before := *loop
	_, err := Bookmark(loop, "board-9", "")
	var ue *ErrUnknownItem
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown board item "board-9" (the board has board-1)`) {
		t.Fatalf("err = %v", err)
	}
	if loop.Phase != before.Phase || len(loop.NextActions) != 0 || loop.Gates != before.Gates {
		t.Errorf("a failed bookmark changed the loop: %+v", loop)
	}
	if _, err := NextInvestigation(loop, "nope"); err == nil {
		t.Error("NextInvestigation of an unknown item: want an error")
	}
}

// TestInvestigationsAndSweep walks an item through explanation,
// investigations and a sweep, then emission.
func TestInvestigationsAndSweep(t *testing.T) {
	loop := Sync(result(review.ModeInteractive, "api", "store"), nil)
	if _, err := Explained(loop, "board-1", "Handler", "explanations/board-1-Handler.md", []string{"Store.Get"}); err != nil {
		t.Fatal(err)
	}
	id, _ := NextInvestigation(loop, "board-1")
	if id != "board-1-001" {
		t.Fatalf("first investigation id = %q", id)
	}
	if _, err := Investigated(loop, "board-1", id, "is auth checked?", "walkback/board-1-001-register-2.md", []string{"who calls Handler?"}); err != nil {
		t.Fatal(err)
	}
	if id, _ = NextInvestigation(loop, "board-1"); id != "board-1-002" {
		t.Errorf("second investigation id = %q", id)
	}
	it := loop.Item("board-1")
	if it.Status != review.StatusComplete || it.Register != review.Register2 || len(it.Explained) != 1 || len(it.Investigated) != 1 {
		t.Errorf("item after the walk-back = %+v", it)
	}
	var kinds []string
	for _, a := range loop.NextActions {
		kinds = append(kinds, a.ID+":"+a.Kind)
	}
	want := []string{"explain-1:explain", "follow-up-1:follow-up", "board-1-001:investigate", "follow-up-2:follow-up"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("next actions (-want +got):\n%s", diff)
	}

	SelectPerspectives(loop, []review.Perspective{review.Security})
	SetDepth(loop, review.DepthComprehensive, "auth code")
	if !loop.Gates.HumanAccepted || loop.Provenance.DepthTier != review.HumanConfirmed || loop.Provenance.RecommendedDepth != review.AutomationDerived {
		t.Errorf("provenance after human choices = %+v", loop.Provenance)
	}
	Sweep(loop)
	res := result(review.ModeInteractive, "api", "store")
	loop = Sync(res, loop)
	if !res.Gates.WalkbackComplete || res.Phase != review.PhaseWalkback {
		t.Errorf("after the sweep: gates %+v phase %s", res.Gates, res.Phase)
	}
	// A new area after the sweep is pending: the walk-back is no longer
	// complete.
	res = result(review.ModeInteractive, "api", "store", "web")
	loop = Sync(res, loop)
	if res.Gates.WalkbackComplete {
		t.Error("walkbackComplete with a pending item")
	}

	e := Emit(loop, false, "2 findings")
	if e.Status != "skipped" || loop.Gates.EmissionReady || loop.Phase != review.PhaseEmission {
		t.Errorf("unconfirmed emission = %+v, loop %+v", e, loop.Gates)
	}
	e = Emit(loop, true, "2 findings")
	if e.Status != "completed" || e.Mode != "canonical" || e.Target != "review artifact" || !loop.Gates.EmissionReady || loop.Phase != review.PhaseComplete {
		t.Errorf("confirmed emission = %+v, loop %+v", e, loop.Gates)
	}
}

// TestWorkflowLoopIsNotComplete checks that an interactive review over the
// loop of a workflow run (phase complete, nobody steered it) starts at
// orientation with every item pending: nothing was inspected.
func TestWorkflowLoopIsNotComplete(t *testing.T) {
	workflow := result(review.ModeWorkflow, "api", "store")
	loop := Sync(workflow, nil)
	for _, it := range workflow.Board {
		if it.Status != review.StatusPending {
			t.Errorf("workflow item %s is %s before anything was inspected", it.ID, it.Status)
		}
	}
	loop.Board[0].Status = review.StatusComplete // as older workflow runs wrote it
	res := result(review.ModeInteractive, "api", "store")
	Sync(res, loop)
	if res.Phase != review.PhaseOrientation {
		t.Errorf("phase %s, want orientation", res.Phase)
	}
	if diff := cmp.Diff([]string{"board-1=api/pending", "board-2=store/pending"}, ids(res.Board)); diff != "" {
		t.Errorf("board (-want +got):\n%s", diff)
	}
}
