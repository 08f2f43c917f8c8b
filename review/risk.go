package review

// Signal names one of the six change-risk evidence categories (hve-spec §3.2).
type Signal string

// The six change-risk signals, in the order the protocol lists them.
const (
	SignalChangeScope     Signal = "change-scope"
	SignalPathCriticality Signal = "path-criticality"
	SignalHistory         Signal = "history"
	SignalTestPresence    Signal = "test-presence"
	SignalCoverage        Signal = "coverage"
	SignalRollback        Signal = "rollback"
)

// AllSignals lists the six signals in protocol order.
var AllSignals = []Signal{SignalChangeScope, SignalPathCriticality, SignalHistory, SignalTestPresence, SignalCoverage, SignalRollback}

// Availability is the evidence basis of a signal (hve-spec §3.3).
type Availability string

// Availability states.
const (
	Observed    Availability = "observed"
	Unavailable Availability = "unavailable"
	Qualitative Availability = "qualitative"
)

// Evidence is one entry of changeRiskEvidence.
type Evidence struct {
	Signal       Signal       `json:"signal"`
	Availability Availability `json:"availability"`
	Evidence     string       `json:"evidence"`
}

// ScopeTier summarises the size and criticality of a change.
type ScopeTier string

// Scope tiers.
const (
	TierTrivial  ScopeTier = "TRIVIAL"
	TierLocal    ScopeTier = "LOCAL"
	TierBroad    ScopeTier = "BROAD"
	TierHighRisk ScopeTier = "HIGH_RISK"
)

// Hotspot is a changed path that touches a hotspot class (auth, crypto,
// parsing, deserialization, persistence, secrets, networking, concurrency).
type Hotspot struct {
	Path    string   `json:"path"`
	Classes []string `json:"classes"`
}

// SpecialistSignal is a specialist concern class that fired (security,
// supply-chain, ai, accessibility, efficiency, privacy) and why.
type SpecialistSignal struct {
	Concern string   `json:"concern"`
	Signals []string `json:"signals"`
	Files   []string `json:"files"`
}

// ChangeBrief is the short statement of what changed (hve-spec §12.3).
type ChangeBrief struct {
	Intent         string   `json:"intent"`
	PrimaryModules []string `json:"primaryModules"`
	RiskAreas      []string `json:"riskAreas"`
	TestNotes      string   `json:"testNotes"`
	RolloutNotes   string   `json:"rolloutNotes"`
}

// Risk is the Tier 0 assessment of a change: advisory input to the human's
// depth choice, never a score.
type Risk struct {
	Brief            ChangeBrief
	Evidence         []Evidence
	RecommendedDepth Depth
	// DepthReason explains the recommendation in words.
	DepthReason string
	Tier        ScopeTier
	Hotspots    []Hotspot
	Specialist  []SpecialistSignal
	// FileRisk classifies each changed path High, Medium or Low
	// (hve-spec §7.3).
	FileRisk map[string]string
	// Incomplete reports that a material signal was unavailable.
	Incomplete bool
}

// HasHotspot reports whether any hotspot has one of the given classes.
func (r *Risk) HasHotspot(classes ...string) bool {
	if r == nil {
		return false
	}
	for _, h := range r.Hotspots {
		for _, c := range h.Classes {
			for _, want := range classes {
				if c == want {
					return true
				}
			}
		}
	}
	return false
}

// HasSpecialist reports whether the specialist concern fired.
func (r *Risk) HasSpecialist(concern string) bool {
	if r == nil {
		return false
	}
	for _, s := range r.Specialist {
		if s.Concern == concern {
			return true
		}
	}
	return false
}

// Commit is one entry of a path's history.
type Commit struct {
	Hash    string
	Author  string
	When    int64 // Unix seconds
	Subject string
	Paths   []string
}

// History is the recent history of the touched paths.
type History struct {
	// Available is false when the repository has no usable history (unborn,
	// shallow beyond the window, or unreadable).
	Available bool
	// Shallow reports a shallow clone.
	Shallow bool
	Commits []Commit
	// Limit is the number of commits examined.
	Limit int
	// Reason explains why history is unavailable.
	Reason string
}

// Provenance records who decided each part of the review state
// (hve-spec §3.5).
type Provenance struct {
	Scope              string `json:"scope"`
	ChangeRiskEvidence string `json:"changeRiskEvidence"`
	RecommendedDepth   string `json:"recommendedDepth"`
	DepthTier          string `json:"depthTier"`
	DepthRationale     string `json:"depthRationale"`
}

// Provenance values.
const (
	HumanConfirmed    = "human-confirmed"
	AutomationDerived = "automation-derived"
)

// AutomationProvenance is the provenance of a run nobody has steered yet.
func AutomationProvenance() Provenance {
	return Provenance{AutomationDerived, AutomationDerived, AutomationDerived, AutomationDerived, AutomationDerived}
}
