package review

// Board item statuses.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusComplete   = "complete"
)

// Registers (hve-spec §9.3): Register 1 is factual narrative, Register 2
// structured findings and investigations.
const (
	Register1 = "register-1"
	Register2 = "register-2"
)

// BoardItem is one review area of the dispatch board (hve-spec §10.1).
type BoardItem struct {
	ID                string   `json:"id"`
	Area              string   `json:"area"`
	Status            string   `json:"status"`
	Register          string   `json:"register"`
	Summary           string   `json:"summary"`
	PreliminarySignal string   `json:"preliminarySignal"`
	Links             []string `json:"links"`
	SelectableSymbols []string `json:"selectableSymbols"`
	// Files are the changed paths of the area.
	Files []string `json:"files"`
	// Findings are the IDs of merged findings walked back onto the item.
	Findings []string `json:"findings"`
	// Explained and Investigated record the Register 1 and 2 work done.
	Explained    []string `json:"explained"`
	Investigated []string `json:"investigated"`
}

// NextAction is one entry of the manifest's nextActions.
type NextAction struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Target string `json:"target"`
	Reason string `json:"reason"`
}

// Next action kinds.
const (
	ActionBookmark    = "bookmark"
	ActionExplain     = "explain"
	ActionInvestigate = "investigate"
)

// PhaseGates are the manifest's loop gates.
type PhaseGates struct {
	OrientationConfirmed bool `json:"orientationConfirmed"`
	HumanAccepted        bool `json:"humanAccepted"`
	WalkbackComplete     bool `json:"walkbackComplete"`
	EmissionReady        bool `json:"emissionReady"`
}

// Phase is the phase of the review loop (a local extension, hve-spec
// C20); the zero value is no phase yet.
type Phase string

// Phases of the review loop.
const (
	PhaseOrientation Phase = "orientation"
	PhaseDispatch    Phase = "dispatch"
	PhaseWalkback    Phase = "walkback"
	PhaseEmission    Phase = "emission"
	PhaseComplete    Phase = "complete"
)

func (p Phase) String() string { return string(p) }

// Area is one group of the walkthrough's diff summary.
type Area struct {
	Name    string
	Kind    string // package, tests, config, docs, dependencies
	Files   []string
	Added   int
	Deleted int
	Summary string
	Symbols []string
}

// BlastKind is the kind of a [BlastItem].
type BlastKind string

const (
	// BlastHotspot is a changed file on a risky path: Path, and the
	// hotspot Classes it touches.
	BlastHotspot BlastKind = "hotspot"
	// BlastConfig is changed configuration: its Files.
	BlastConfig BlastKind = "configuration"
	// BlastDependencies is changed dependency manifests: their Files.
	BlastDependencies BlastKind = "dependencies"
	// BlastShared is a changed file called from other directories: Path,
	// and those directories as Files.
	BlastShared BlastKind = "shared module"
)

// BlastItem is one way the change reaches beyond its own files. Only
// artifacts renders it as text.
type BlastItem struct {
	Kind    BlastKind
	Path    string
	Classes []string
	Files   []string
}

// Walkthrough is the Register 1 orientation narrative: facts only, no
// severities, verdicts or recommendations.
type Walkthrough struct {
	Areas       []Area
	EntryPoints []string
	PublicAPIs  []string
	// CallPaths are callers outside their area of the changed public
	// symbols ("api/server.go:42 → store.Get").
	CallPaths   []string
	BlastRadius []BlastItem
	TestNotes   []string
	Rollout     []string
	Symbols     []string
}

// Loop is the state of the human-steered review loop (hve-spec §10),
// kept across reviews of one branch: board items keep their ids, statuses
// and the explanations and investigations done on them; the human's
// choices of perspectives and depth hold until changed.
type Loop struct {
	// Board holds the items as last synchronised with a review.
	Board       []BoardItem
	NextActions []NextAction
	Gates       PhaseGates
	Phase       Phase
	// Perspectives and Depth are the human's choices; nil and zero mean
	// none was made, and the review's recommendation applies.
	Perspectives   []Perspective
	Depth          Depth
	DepthRationale string
	// Provenance records which parts of the review state a human
	// confirmed; recommendedDepth always stays automation-derived.
	Provenance Provenance
	// Emission is the emission decision, once taken.
	Emission *Emission
}

// Emission is the outcome recorded in emission-record.json (hve-spec
// §11.6).
type Emission struct {
	Mode    string `json:"mode"`
	Target  string `json:"target"`
	Status  string `json:"status"`
	Summary string `json:"summary"`
}

// Item returns the board item with the id, or nil.
func (l *Loop) Item(id string) *BoardItem {
	for i := range l.Board {
		if l.Board[i].ID == id {
			return &l.Board[i]
		}
	}
	return nil
}

// LineOrigin says which commit last changed a line of a file at the
// review base (a first-parent blame).
type LineOrigin struct {
	Line    int
	Commit  string // "" when unknown (beyond the history examined)
	Author  string
	When    int64 // Unix seconds
	Subject string
}
