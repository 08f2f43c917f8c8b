package orient

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
)

// Walkthrough builds the factual orientation narrative of a change.
func Walkthrough(cs *review.ChangeSet, areas []review.Area, risk *review.Risk) *review.Walkthrough {
	w := &review.Walkthrough{Areas: areas}
	for _, a := range areas {
		if a.Kind != KindPackage {
			continue
		}
		for _, p := range a.Files {
			if isEntryPoint(p) {
				w.EntryPoints = append(w.EntryPoints, p)
			}
		}
		w.Symbols = append(w.Symbols, a.Symbols...)
	}
	if risk != nil {
		for _, h := range risk.Hotspots {
			w.BlastRadius = append(w.BlastRadius, fmt.Sprintf("%s touches %v", h.Path, h.Classes))
		}
		if risk.Brief.TestNotes != "" {
			w.TestNotes = append(w.TestNotes, risk.Brief.TestNotes)
		}
		if risk.Brief.RolloutNotes != "" {
			w.Rollout = append(w.Rollout, risk.Brief.RolloutNotes)
		}
	}
	return w
}

func isEntryPoint(p string) bool {
	switch {
	case len(p) >= 7 && p[len(p)-7:] == "main.go",
		len(p) > 4 && (p[:4] == "cmd/"):
		return true
	}
	return false
}
