package main

import (
	"context"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

func init() {
	matrixCmds["oldbaseline"] = cmdOldBaseline
}

// cmdOldBaseline writes the baseline of the repository in the current
// directory as a version of reviewls before issue 26 wrote it: every
// finding of the committed tree, its secrets included (a hand-edited
// baseline can hold the same).
//
//	oldbaseline
func cmdOldBaseline(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: oldbaseline")
	}
	eng, err := engine.Open(ts.MkAbs("."), engine.Options{})
	ts.Check(err)
	defer eng.Close()
	scan, err := eng.ScanTree(context.Background())
	ts.Check(err)
	b := &review.Baseline{}
	for _, f := range scan.Findings {
		b.Entries = append(b.Entries, review.BaselineEntry{Fingerprint: f.ID, RuleID: f.RuleID, Path: f.Span.Path, Count: 1})
	}
	ts.Check(artifacts.WriteBaseline(eng.Root(), eng.Config().BaselinePath(), b, artifacts.Options{Tool: "reviewls", Version: "v0.0.0"}))
}
