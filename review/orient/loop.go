package orient

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// NewLoop returns the loop state of a branch nobody has steered yet.
func NewLoop(mode review.Mode) *review.Loop {
	l := &review.Loop{Provenance: review.AutomationProvenance(), Phase: review.PhaseOrientation, NextActions: []review.NextAction{}}
	if mode == review.ModeWorkflow {
		// Workflow runs sweep every item at once (hve-spec §10.4).
		l.Phase = review.PhaseComplete
	}
	return l
}

// Sync merges a fresh review with the loop: items keep the id, status,
// register, explanations and investigations of the item of the same area
// in the loop, new areas get new ids, and vanished areas leave the board.
// The result then carries the loop's next actions, gates, phase,
// provenance and emission, and the loop the merged board.
func Sync(res *review.Result, loop *review.Loop) *review.Loop {
	if loop == nil {
		loop = NewLoop(res.Mode)
	}
	if res.Mode == review.ModeInteractive && loop.Phase == review.PhaseComplete && loop.Emission == nil {
		// The loop of a workflow run: nobody steered it, so an
		// interactive review starts at orientation.
		loop.Phase = review.PhaseOrientation
	}
	prev := map[string]review.BoardItem{}
	next := 0
	for _, it := range loop.Board {
		prev[it.Area] = it
		next = max(next, itemNumber(it.ID))
	}
	for i := range res.Board {
		it := &res.Board[i]
		if old, ok := prev[it.Area]; ok {
			it.ID, it.Register = old.ID, old.Register
			it.Explained = append([]string{}, old.Explained...)
			it.Investigated = append([]string{}, old.Investigated...)
			if res.Mode == review.ModeInteractive {
				it.Status = old.Status
				if it.Status == review.StatusComplete && len(old.Investigated) == 0 && loop.Phase != review.PhaseWalkback && loop.Phase != review.PhaseEmission && loop.Phase != review.PhaseComplete {
					// Complete without an investigation or a sweep: the
					// state of an older workflow run.
					it.Status = review.StatusPending
				}
			}
			continue
		}
		next++
		it.ID = fmt.Sprintf("board-%d", next)
	}
	for i := range res.Board {
		reopen(&res.Board[i])
	}
	loop.Board = res.Board
	loop.Gates.WalkbackComplete = res.Mode == review.ModeWorkflow || swept(loop)
	res.NextActions = loop.NextActions
	res.Gates = loop.Gates
	res.Phase = loop.Phase
	res.Emission = loop.Emission
	// Human confirmations survive; what the run derived stays derived.
	res.Provenance = loop.Provenance
	res.Provenance.RecommendedDepth = review.AutomationDerived
	if loop.DepthRationale != "" && res.Depth == loop.Depth {
		res.DepthRationale = loop.DepthRationale
	}
	return loop
}

// swept reports whether a sweep ran and every item is done: complete,
// or in progress only for the open findings walked back onto it.
func swept(l *review.Loop) bool {
	if len(l.Board) == 0 || l.Phase == review.PhaseOrientation || l.Phase == review.PhaseDispatch {
		return false
	}
	for _, it := range l.Board {
		if it.Status != review.StatusComplete && (it.Status != review.StatusInProgress || len(it.Findings) == 0) {
			return false
		}
	}
	return true
}

// complete marks an item complete, unless one of its findings is open
// (accepted and not suppressed): then it stays in progress, so the board
// never calls done what still has a finding to address.
func complete(it *review.BoardItem) {
	it.Status = review.StatusComplete
	reopen(it)
}

// reopen puts back in progress a complete item with open findings.
func reopen(it *review.BoardItem) {
	if it.Status == review.StatusComplete && len(it.Findings) > 0 {
		it.Status = review.StatusInProgress
	}
}

func itemNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "board-"))
	return n
}

// ErrUnknownItem names an item id that is not on the board.
type ErrUnknownItem struct {
	ID    string
	Known []string
}

func (e *ErrUnknownItem) Error() string {
	return fmt.Sprintf("unknown board item %q (the board has %s)", e.ID, strings.Join(e.Known, ", "))
}

// item returns the board item with the id or an error naming the known
// ones.
func item(l *review.Loop, id string) (*review.BoardItem, error) {
	if it := l.Item(id); it != nil {
		return it, nil
	}
	var known []string
	for _, it := range l.Board {
		known = append(known, it.ID)
	}
	if len(known) == 0 {
		known = []string{"no items"}
	}
	return nil, &ErrUnknownItem{ID: id, Known: known}
}

// begin records that a human started on item id: the loop moves past
// orientation and a pending item is in progress.
func begin(l *review.Loop, id string) (*review.BoardItem, error) {
	it, err := item(l, id)
	if err != nil {
		return nil, err
	}
	touch(l)
	if it.Status == review.StatusPending {
		it.Status = review.StatusInProgress
	}
	return it, nil
}

// touch moves the loop past orientation: a human acted on the board.
func touch(l *review.Loop) {
	l.Gates.OrientationConfirmed = true
	if l.Phase == review.PhaseOrientation || l.Phase == "" {
		l.Phase = review.PhaseDispatch
	}
}

// addAction appends a next action with the next free id of its kind.
func addAction(l *review.Loop, kind, target, reason string) review.NextAction {
	n := 1
	for _, a := range l.NextActions {
		if a.Kind == kind {
			n++
		}
	}
	a := review.NextAction{ID: fmt.Sprintf("%s-%d", kind, n), Kind: kind, Target: target, Reason: reason}
	l.NextActions = append(l.NextActions, a)
	return a
}

// Confirm records that the human saw the walkthrough or the board.
func Confirm(l *review.Loop) {
	l.Gates.OrientationConfirmed = true
	l.Provenance.Scope = review.HumanConfirmed
	l.Provenance.ChangeRiskEvidence = review.HumanConfirmed
}

// Bookmark marks an item for a closer look, with an optional question,
// and routes it: a question about what something does goes to the
// explainer (Register 1), a question about correctness, safety or impact
// to an investigation (Register 2).
func Bookmark(l *review.Loop, id, question string) (review.NextAction, error) {
	it, err := begin(l, id)
	if err != nil {
		return review.NextAction{}, err
	}
	reason := question
	if reason == "" {
		reason = "bookmarked for a closer look"
	}
	if question != "" {
		it.Register = RouteRegister(question)
	}
	return addAction(l, review.ActionBookmark, id, reason), nil
}

// RouteRegister routes a question (hve-spec §10.5): a shallow "what does
// this do" question (what, where, which, how does, explain, describe) goes
// to the explainer in Register 1; a deep one — is it correct, safe, handled
// everywhere, what does it break — to an investigation in Register 2.
func RouteRegister(question string) string {
	q := strings.ToLower(strings.TrimSpace(question))
	for _, deep := range []string{"correct", "safe", "secur", "why", "risk", "regress", "break", "impact", "implicat", "should", "bug", "race", "leak", "valid", "test", "handle", "every caller"} {
		if strings.Contains(q, deep) {
			return review.Register2
		}
	}
	for _, shallow := range []string{"what ", "where ", "which ", "how does ", "how do ", "how is ", "explain", "describe", "who calls"} {
		if strings.HasPrefix(q, shallow) {
			return review.Register1
		}
	}
	return review.Register2
}

// Explained records an explanation written for an item's symbol, and the
// symbols it suggests looking at next.
func Explained(l *review.Loop, id, symbol, artifact string, followOn []string) (review.NextAction, error) {
	it, err := begin(l, id)
	if err != nil {
		return review.NextAction{}, err
	}
	if !contains(it.Explained, artifact) {
		it.Explained = append(it.Explained, artifact)
	}
	a := addAction(l, review.ActionExplain, id+":"+symbol, "explained in "+artifact)
	for _, s := range followOn {
		addAction(l, ActionFollowUp, id+":"+s, "follow-on symbol of "+symbol)
	}
	return a, nil
}

// ActionFollowUp is the next-action kind of follow-on symbols and
// questions returned by the explainer and investigations (a local
// extension: hve-spec §14 leaves the kind open).
const ActionFollowUp = "follow-up"

// NextInvestigation returns the next free investigation id of an item,
// "<item>-NNN" (hve-spec §10.5).
func NextInvestigation(l *review.Loop, id string) (string, error) {
	it, err := item(l, id)
	if err != nil {
		return "", err
	}
	n := 0
	for _, a := range l.NextActions {
		if a.Kind == review.ActionInvestigate && strings.HasPrefix(a.ID, id+"-") {
			n = max(n, investigationNumber(a.ID))
		}
	}
	for _, p := range it.Investigated {
		n = max(n, investigationNumber(strings.TrimSuffix(p[strings.LastIndex(p, "/")+1:], "-register-2.md")))
	}
	return fmt.Sprintf("%s-%03d", id, n+1), nil
}

func investigationNumber(s string) int {
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return 0
	}
	n, _ := strconv.Atoi(s[i+1:])
	return n
}

// Investigated records an investigation: the walk-back merges it onto its
// item, which is complete for this pass, and its follow-on questions
// become next actions.
func Investigated(l *review.Loop, id, investigation, question, artifact string, followOn []string) (review.NextAction, error) {
	it, err := item(l, id)
	if err != nil {
		return review.NextAction{}, err
	}
	touch(l)
	complete(it)
	it.Register = review.Register2
	if !contains(it.Investigated, artifact) {
		it.Investigated = append(it.Investigated, artifact)
	}
	a := review.NextAction{ID: investigation, Kind: review.ActionInvestigate, Target: id, Reason: question}
	l.NextActions = append(l.NextActions, a)
	for _, q := range followOn {
		addAction(l, ActionFollowUp, id, q)
	}
	return a, nil
}

// SelectPerspectives records the human's choice of perspectives.
func SelectPerspectives(l *review.Loop, ps []review.Perspective) {
	touch(l)
	l.Perspectives = append([]review.Perspective(nil), ps...)
	l.Gates.HumanAccepted = true
	l.Provenance.Scope = review.HumanConfirmed
}

// SetDepth records the human's depth and why; recommendedDepth stays
// automation-derived.
func SetDepth(l *review.Loop, d review.Depth, rationale string) {
	touch(l)
	l.Depth, l.DepthRationale = d, rationale
	l.Gates.HumanAccepted = true
	l.Provenance.DepthTier = review.HumanConfirmed
	l.Provenance.DepthRationale = review.HumanConfirmed
	l.Provenance.ChangeRiskEvidence = review.HumanConfirmed
}

// Sweep records that the selected perspectives ran over every item: each
// is complete but those with open findings, and the walk-back of findings
// is done.
func Sweep(l *review.Loop) {
	touch(l)
	for i := range l.Board {
		complete(&l.Board[i])
	}
	l.Phase = review.PhaseWalkback
	l.Gates.WalkbackComplete = len(l.Board) > 0
}

// Emit takes the emission decision. reviewls never posts anything outside
// the repository: the canonical review artifact is the only target. With
// confirmation the emission is ready and completed; without, it is
// recorded as skipped.
func Emit(l *review.Loop, confirm bool, summary string) review.Emission {
	e := review.Emission{Mode: "canonical", Target: "review artifact", Status: "skipped", Summary: "emission not confirmed: " + summary}
	if confirm {
		e.Status, e.Summary = "completed", summary
		l.Gates.EmissionReady = true
		l.Phase = review.PhaseComplete
	} else {
		l.Gates.EmissionReady = false
		l.Phase = review.PhaseEmission
	}
	l.Emission = &e
	return e
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
