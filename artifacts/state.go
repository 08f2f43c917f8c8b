package artifacts

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// SchemaVersion is the metadata.json schema_version.
const SchemaVersion = "1"

// Reviewer is the metadata.json reviewer name the protocol requires.
const Reviewer = "code-review"

// MetadataDoc is metadata.json (hve-spec 8.8).
type MetadataDoc struct {
	SchemaVersion string         `json:"schema_version"`
	Branch        string         `json:"branch"`
	HeadCommit    string         `json:"head_commit"`
	ReviewedAt    string         `json:"reviewed_at"`
	Verdict       review.Verdict `json:"verdict"`
	FilesChanged  []string       `json:"files_changed"`
	FindingsCount review.Counts  `json:"findings_count"`
	Reviewer      string         `json:"reviewer"`
	// Artifacts lists the orientation-first artifacts of an interactive
	// run; nil for workflow runs.
	Artifacts *ArtifactIndex `json:"artifacts,omitempty"`
	// FindingsNotShown counts the findings the caps left out (a local
	// extension).
	FindingsNotShown int `json:"findings_not_shown,omitempty"`
	// Decision is the review decision (a local extension, seed 003).
	Decision *DecisionDoc `json:"decision,omitempty"`
}

// ArtifactIndex is metadata.json's artifacts object: folder-relative paths,
// each present only when produced.
type ArtifactIndex struct {
	DispatchManifest string   `json:"dispatch_manifest,omitempty"`
	DispatchBoard    string   `json:"dispatch_board,omitempty"`
	Walkthrough      string   `json:"walkthrough,omitempty"`
	EmissionRecord   string   `json:"emission_record,omitempty"`
	ModelReview      string   `json:"model_review,omitempty"`
	Explanations     []string `json:"explanations,omitempty"`
	Walkbacks        []string `json:"walkbacks,omitempty"`
}

// reviewedAtLayout is the metadata.json timestamp format.
const reviewedAtLayout = "2006-01-02T15:04:05Z"

// Patterns of the on-request orientation artifacts that metadata.json may
// list (see the metadata schema).
var (
	explanationRE = regexp.MustCompile(`^explanations/[A-Za-z0-9][A-Za-z0-9._-]*\.md$`)
	walkbackRE    = regexp.MustCompile(`^walkback/[a-z0-9]+(-[a-z0-9]+)*-[0-9]{3}-register-2\.md$`)
)

// Metadata builds metadata.json. extras lists the folder-relative
// explanation and walkback files of an interactive review
// ("explanations/board-1-Run.md", "walkback/board-1-001-register-2.md");
// names that fit neither pattern are ignored, and workflow runs ignore
// extras entirely.
func Metadata(res *review.Result, opts Options, extras ...string) MetadataDoc {
	return newView(res, opts).metadata(extras)
}

func (v *view) metadata(extras []string) MetadataDoc {
	files := []string{}
	for _, f := range v.sourceFiles() {
		files = append(files, f.Path)
	}
	m := MetadataDoc{
		SchemaVersion:    SchemaVersion,
		Branch:           v.branch(),
		HeadCommit:       v.headCommit(),
		ReviewedAt:       v.now.Format(reviewedAtLayout),
		Verdict:          v.verdict,
		FilesChanged:     files,
		FindingsCount:    v.counts,
		Reviewer:         Reviewer,
		FindingsNotShown: v.res.CutCount(),
		Decision:         v.decisionDoc(),
	}
	if v.interactive() {
		idx := &ArtifactIndex{
			DispatchManifest: FileManifest,
			DispatchBoard:    FileBoard,
			Walkthrough:      FileWalkthrough,
			EmissionRecord:   FileEmissionRecord,
		}
		for _, e := range slices.Sorted(slices.Values(extras)) {
			switch {
			case explanationRE.MatchString(e) && !slices.Contains(idx.Explanations, e):
				idx.Explanations = append(idx.Explanations, e)
			case walkbackRE.MatchString(e) && !slices.Contains(idx.Walkbacks, e):
				idx.Walkbacks = append(idx.Walkbacks, e)
			}
		}
		m.Artifacts = idx
	}
	if v.hasLedger() {
		if m.Artifacts == nil {
			m.Artifacts = &ArtifactIndex{}
		}
		m.Artifacts.ModelReview = FileModelReview
	}
	return m
}

// ReviewTarget is the reviewTarget object of diff-state.json and
// dispatch-manifest.json (hve-spec 1.1); absent parts are null.
type ReviewTarget struct {
	Kind     review.TargetKind `json:"kind"`
	Provider string            `json:"provider"`
	ID       *string           `json:"id"`
	URL      *string           `json:"url"`
	BaseRef  *string           `json:"baseRef"`
	HeadRef  *string           `json:"headRef"`
	HeadSHA  *string           `json:"headSha"`
}

func (v *view) reviewTarget() ReviewTarget {
	t := v.target
	kind := t.Kind
	if kind == "" {
		kind = review.LocalChanges
	}
	provider := t.Provider
	switch provider {
	case "github", "gitlab", "ado", "unknown":
	default:
		provider = "unknown"
	}
	return ReviewTarget{
		Kind:     kind,
		Provider: provider,
		BaseRef:  nullable(t.BaseRef),
		HeadRef:  nullable(t.HeadRef),
		HeadSHA:  nullable(t.HeadSHA),
	}
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DiffStateDoc is diff-state.json in its perspective-batch form
// (hve-spec 12.1), with the local extensions the schema describes.
type DiffStateDoc struct {
	Branch                 string                    `json:"branch"`
	Base                   string                    `json:"base"`
	ReviewTarget           ReviewTarget              `json:"reviewTarget"`
	ReviewProfile          review.Profile            `json:"reviewProfile"`
	Files                  []string                  `json:"files"`
	UntrackedFiles         []string                  `json:"untrackedFiles"`
	Extensions             []string                  `json:"extensions"`
	DiffPatchPath          string                    `json:"diffPatchPath"`
	FindingsFolder         string                    `json:"findingsFolder"`
	ReviewStateProvenance  review.Provenance         `json:"reviewStateProvenance"`
	ChangeRiskEvidence     []review.Evidence         `json:"changeRiskEvidence"`
	RecommendedDepth       review.Depth              `json:"recommendedDepth"`
	DepthTier              review.Depth              `json:"depthTier"`
	DepthRationale         string                    `json:"depthRationale"`
	SelectedPerspectives   []review.Perspective      `json:"selectedPerspectives"`
	Task                   Task                      `json:"task"`
	Hotspots               []string                  `json:"hotspots"`
	OutOfScope             []string                  `json:"outOfScope"`
	ChangeBrief            *review.ChangeBrief       `json:"changeBrief,omitempty"`
	SpecialistSignals      []review.SpecialistSignal `json:"specialistSignals"`
	ScopeTier              review.ScopeTier          `json:"scopeTier,omitempty"`
	HotspotClasses         []review.Hotspot          `json:"hotspotClasses"`
	RecommendedDepthReason string                    `json:"recommendedDepthReason,omitempty"`
	TypeAwareAnalysis      *AnalysisReport           `json:"typeAwareAnalysis,omitempty"`
	ReviewMode             review.Mode               `json:"reviewMode"`
	SkippedFiles           []SkippedFile             `json:"skippedFiles"`
	RejectedFindings       []RejectedFinding         `json:"rejectedFindings"`
	SuppressedFindings     []SuppressedFinding       `json:"suppressedFindings"`
	// ItemDispatch holds the per-item loop fields while an explanation or
	// investigation is dispatched (hve-spec 10.5); nil otherwise.
	*ItemDispatch
}

// Task is diff-state.json's serialized task: the perspective_batch form
// (Outputs) or the orientation form (OutputPath).
type Task struct {
	Kind       string                        `json:"kind"`
	Outputs    map[review.Perspective]string `json:"outputs,omitempty"`
	OutputPath string                        `json:"outputPath,omitempty"`
}

// Task kinds.
const (
	TaskPerspectiveBatch = "perspective_batch"
	TaskOrientation      = "orientation"
)

// MarshalJSON writes the form that Kind selects; a perspective batch always
// has its outputs object, even when empty.
func (t Task) MarshalJSON() ([]byte, error) {
	if t.Kind == TaskOrientation {
		return json.Marshal(struct {
			Kind       string `json:"kind"`
			OutputPath string `json:"outputPath"`
		}{t.Kind, t.OutputPath})
	}
	outputs := t.Outputs
	if outputs == nil {
		outputs = map[review.Perspective]string{}
	}
	return json.Marshal(struct {
		Kind    string                        `json:"kind"`
		Outputs map[review.Perspective]string `json:"outputs"`
	}{t.Kind, outputs})
}

// SkippedFile is a changed path listed but not reviewed.
type SkippedFile struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// RejectedFinding records a raw finding that failed validation against the
// diff (hve-spec 8.3).
type RejectedFinding struct {
	Perspective review.Perspective `json:"perspective"`
	Title       string             `json:"title"`
	Reason      string             `json:"reason"`
	File        string             `json:"file"`
	Lines       string             `json:"lines"`
}

// SuppressedFinding records a finding silenced by an ignore comment or by
// configuration.
type SuppressedFinding struct {
	Perspective review.Perspective `json:"perspective"`
	RuleID      string             `json:"ruleId"`
	Title       string             `json:"title"`
	File        string             `json:"file"`
	Lines       string             `json:"lines"`
	Reason      string             `json:"reason"`
	By          string             `json:"by"`
}

// ItemDispatch holds the diff-state.json fields set before one board item
// is explained (Register 1) or investigated (Register 2), hve-spec 10.5.
type ItemDispatch struct {
	BoardItem                string   `json:"boardItem,omitempty"`
	TargetSymbol             string   `json:"targetSymbol,omitempty"`
	TargetPath               string   `json:"targetPath,omitempty"`
	Question                 string   `json:"question,omitempty"`
	InvestigationID          string   `json:"investigationId,omitempty"`
	ResearchTopic            string   `json:"researchTopic,omitempty"`
	ResearchPurpose          string   `json:"researchPurpose,omitempty"`
	ResearchAudienceUse      string   `json:"researchAudienceUse,omitempty"`
	ResearchQuestions        []string `json:"researchQuestions,omitempty"`
	EvidenceCriteria         []string `json:"evidenceCriteria,omitempty"`
	ResearchScope            []string `json:"researchScope,omitempty"`
	ResearchNonGoals         []string `json:"researchNonGoals,omitempty"`
	ResearchConstraints      []string `json:"researchConstraints,omitempty"`
	SuppliedEvidence         []string `json:"suppliedEvidence,omitempty"`
	ResearchRequestedOutputs []string `json:"researchRequestedOutputs,omitempty"`
	ResearchOutputMode       string   `json:"researchOutputMode,omitempty"`
	TrustedEvidenceRoot      string   `json:"trustedEvidenceRoot,omitempty"`
	Register2ArtifactPath    string   `json:"register2ArtifactPath,omitempty"`
}

// DiffState builds diff-state.json. The task is always the perspective
// batch: by the time reviewls writes the folder, every selected perspective
// has run and its findings file is part of the same write.
func DiffState(res *review.Result, opts Options) DiffStateDoc {
	return newView(res, opts).diffState()
}

func (v *view) diffState() DiffStateDoc {
	folder := findingsFolder(v.folder)
	outputs := map[review.Perspective]string{}
	for _, p := range v.lanes {
		outputs[p] = folder + FindingsFile(p)
	}
	d := DiffStateDoc{
		Branch:                 v.branch(),
		Base:                   v.base(),
		ReviewTarget:           v.reviewTarget(),
		ReviewProfile:          v.profile,
		Files:                  v.reviewedPaths(),
		UntrackedFiles:         orEmpty(v.cs.Untracked()),
		Extensions:             v.extensions(),
		DiffPatchPath:          DiffPatchPath,
		FindingsFolder:         folder,
		ReviewStateProvenance:  v.provenance,
		ChangeRiskEvidence:     v.evidence,
		RecommendedDepth:       v.recDepth,
		DepthTier:              v.depth,
		DepthRationale:         v.rationale,
		SelectedPerspectives:   v.selected,
		Task:                   Task{Kind: TaskPerspectiveBatch, Outputs: outputs},
		Hotspots:               v.hotspotPaths(),
		OutOfScope:             []string{},
		SpecialistSignals:      []review.SpecialistSignal{},
		ScopeTier:              v.risk.Tier,
		HotspotClasses:         []review.Hotspot{},
		RecommendedDepthReason: v.risk.DepthReason,
		TypeAwareAnalysis:      analysisReport(v.res.Analysis),
		ReviewMode:             v.mode,
		SkippedFiles:           []SkippedFile{},
		RejectedFindings:       []RejectedFinding{},
		SuppressedFindings:     []SuppressedFinding{},
	}
	if v.res.Risk != nil {
		b := v.risk.Brief
		b.PrimaryModules = orEmpty(b.PrimaryModules)
		b.RiskAreas = orEmpty(b.RiskAreas)
		d.ChangeBrief = &b
	}
	for _, s := range v.risk.Specialist {
		s.Signals = orEmpty(s.Signals)
		s.Files = orEmpty(s.Files)
		d.SpecialistSignals = append(d.SpecialistSignals, s)
	}
	for _, h := range v.risk.Hotspots {
		if h.Path != "" && len(h.Classes) > 0 {
			d.HotspotClasses = append(d.HotspotClasses, h)
		}
	}
	for _, f := range v.skipped() {
		d.SkippedFiles = append(d.SkippedFiles, SkippedFile{File: f.Path, Reason: f.Skip.String()})
	}
	for _, r := range v.res.Rejected {
		if r.Finding == nil {
			continue
		}
		d.RejectedFindings = append(d.RejectedFindings, RejectedFinding{
			Perspective: r.Finding.Perspective,
			Title:       rawTitle(r.Finding),
			Reason:      orText(r.Reason, "rejected"),
			File:        r.Finding.Span.Path,
			Lines:       spanLines(r.Finding.Span),
		})
	}
	for _, s := range v.res.Suppressed {
		if s.Finding == nil {
			continue
		}
		d.SuppressedFindings = append(d.SuppressedFindings, SuppressedFinding{
			Perspective: s.Finding.Perspective,
			RuleID:      s.Finding.RuleID,
			Title:       rawTitle(s.Finding),
			File:        s.Finding.Span.Path,
			Lines:       spanLines(s.Finding.Span),
			Reason:      s.Reason,
			By:          s.By,
		})
	}
	return d
}

// spanLines renders a span's lines, or "" when it has none.
func spanLines(s review.Span) string {
	if s.StartLine < 1 {
		return ""
	}
	return s.Lines()
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ManifestDoc is dispatch-manifest.json (hve-spec 10.1).
type ManifestDoc struct {
	ReviewTarget            ReviewTarget         `json:"reviewTarget"`
	ReviewProfile           review.Profile       `json:"reviewProfile"`
	RecommendedPerspectives []review.Perspective `json:"recommendedPerspectives"`
	SelectedPerspectives    []review.Perspective `json:"selectedPerspectives"`
	RecommendedDepth        review.Depth         `json:"recommendedDepth"`
	DepthTier               review.Depth         `json:"depthTier"`
	PhaseGates              review.PhaseGates    `json:"phaseGates"`
	CurrentPhase            review.Phase         `json:"currentPhase"`
	NextActions             []review.NextAction  `json:"nextActions"`
	BoardItems              []review.BoardItem   `json:"boardItems"`
}

// Manifest builds dispatch-manifest.json from the result's board and loop
// state.
func Manifest(res *review.Result, opts Options) ManifestDoc {
	return newView(res, opts).manifest()
}

func (v *view) manifest() ManifestDoc {
	m := ManifestDoc{
		ReviewTarget:            v.reviewTarget(),
		ReviewProfile:           v.profile,
		RecommendedPerspectives: v.recommended,
		SelectedPerspectives:    v.selected,
		RecommendedDepth:        v.recDepth,
		DepthTier:               v.depth,
		PhaseGates:              v.res.Gates,
		CurrentPhase:            v.phase,
		NextActions:             orEmpty(slices.Clone(v.res.NextActions)),
		BoardItems:              v.board(),
	}
	return m
}

// board returns the board items with every list non-nil.
func (v *view) board() []review.BoardItem {
	out := []review.BoardItem{}
	for _, b := range v.res.Board {
		b.Links = nonEmpty(b.Links)
		b.SelectableSymbols = nonEmpty(b.SelectableSymbols)
		b.Files = orEmpty(b.Files)
		b.Findings = orEmpty(b.Findings)
		b.Explained = orEmpty(b.Explained)
		b.Investigated = orEmpty(b.Investigated)
		if b.Status == "" {
			b.Status = review.StatusPending
		}
		if b.Register == "" {
			b.Register = review.Register1
		}
		if strings.TrimSpace(b.Summary) == "" {
			b.Summary = b.Area
		}
		out = append(out, b)
	}
	return out
}

// EmissionRecordDoc is emission-record.json (hve-spec 11.6).
type EmissionRecordDoc struct {
	Mode          string `json:"mode"`
	Target        string `json:"target"`
	Status        string `json:"status"`
	Summary       string `json:"summary"`
	Authorization string `json:"authorization,omitempty"`
}

// EmissionRecord builds the emission record of an interactive review. A
// local reviewer has no pull request to post to, so the only mode is the
// canonical report. Until the human confirms emission (the reviewls.emit
// command sets the manifest's emissionReady gate) the record says it is
// skipped, awaiting confirmation; once the gate is set, the report that
// this write persists is the emission, recorded as completed.
func EmissionRecord(res *review.Result) EmissionRecordDoc {
	if res != nil && res.Emission != nil {
		e := res.Emission
		return EmissionRecordDoc{Mode: e.Mode, Target: e.Target, Status: e.Status, Summary: e.Summary}
	}
	status, summary := "skipped", "awaiting human confirmation (reviewls.emit)"
	if res != nil && res.Gates.EmissionReady {
		status, summary = "completed", "canonical review artifact persisted after human confirmation"
	}
	return EmissionRecordDoc{Mode: "canonical", Target: "review artifact", Status: status, Summary: summary}
}
