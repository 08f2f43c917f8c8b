package artifacts

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// SARIF 2.1.0 constants.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// srcRoot is the uriBaseId of every location: paths are relative to the
	// repository root, which the consumer (a CI upload) knows.
	srcRoot = "%SRCROOT%"
	// fingerprintKey names reviewls's stable finding id among the partial
	// fingerprints.
	fingerprintKey = "reviewls/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
	// Properties carry the review decision (a SARIF property bag).
	Properties *sarifRunProp `json:"properties,omitempty"`
}

// sarifRunProp is the run's property bag: the decision under "reviewls".
type sarifRunProp struct {
	Decision *DecisionDoc `json:"reviewls/decision"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifRuleLevel `json:"defaultConfiguration"`
	Properties           *sarifRuleProp `json:"properties,omitempty"`
}

type sarifRuleProp struct {
	Tags []string `json:"tags,omitempty"`
}

type sarifRuleLevel struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints,omitempty"`
	BaselineState       string             `json:"baselineState,omitempty"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	// Properties name the model of a model finding, and whether it is
	// advisory (counts for no gate).
	Properties *sarifResultProp `json:"properties,omitempty"`
}

type sarifResultProp struct {
	Model    string `json:"model"`
	Advisory bool   `json:"advisory"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

type sarifSuppression struct {
	Kind string `json:"kind"`
	// Status is "underReview" for a held secret (review.Suppressed.Held),
	// whose inline ignore the gate does not accept; empty otherwise.
	Status        string `json:"status,omitempty"`
	Justification string `json:"justification,omitempty"`
}

// sarifLevel maps a severity to a SARIF level: Critical and High are
// errors, Medium a warning, Low a note.
func sarifLevel(s review.Severity) string {
	switch s {
	case review.SeverityCritical, review.SeverityHigh:
		return "error"
	case review.SeverityMedium:
		return "warning"
	}
	return "note"
}

// SARIF renders the accepted findings as a SARIF 2.1.0 log with one run.
// Suppressed findings are included with a SARIF suppression, so code
// scanning dashboards show them as dismissed rather than lose them. Each
// result carries its fingerprint under partialFingerprints["reviewls/v1"]
// and, when the review compared it with the base or a baseline, its
// baselineState (§3.27.24): "new", or "updated" for a measured finding that
// grew by half again. With opts.PreExisting the pre-existing findings are
// results too, "unchanged", so a dashboard can show them as known. Rule
// descriptions come from opts.Rules, falling back to the finding's text.
func SARIF(res *review.Result, opts Options) ([]byte, error) {
	v := newView(res, opts)
	return encodeJSON(v.sarif(), v.red)
}

func (v *view) sarif() sarifLog {
	type entry struct {
		f          *review.Finding
		suppressed *review.Suppressed
		state      review.BaselineState
	}
	var entries []entry
	for _, f := range v.findings {
		entries = append(entries, entry{f: f, state: f.Baseline})
	}
	for i := range v.res.Suppressed {
		if s := &v.res.Suppressed[i]; s.Finding != nil {
			entries = append(entries, entry{f: s.Finding, suppressed: s, state: s.Finding.Baseline})
		}
	}
	if v.opts.PreExisting {
		for _, p := range v.res.PreExisting {
			entries = append(entries, entry{f: p.Finding, state: review.BaselineUnchanged})
		}
	}
	// A baseline entry the reviewed files no longer carry is an absent
	// result (§3.27.24): it has no line, only its file and fingerprint.
	for _, a := range v.res.Absent {
		f := v.absentFinding(a)
		for range a.Count {
			entries = append(entries, entry{f: f, state: review.BaselineAbsent})
		}
	}

	// Rules referenced by the results, sorted by id.
	first := map[string]*review.Finding{}
	for _, e := range entries {
		if _, ok := first[e.f.RuleID]; !ok {
			first[e.f.RuleID] = e.f
		}
	}
	ids := sortedKeys(first)
	rules := make([]sarifRule, 0, len(ids))
	for _, id := range ids {
		rules = append(rules, v.sarifRule(id, first[id]))
	}

	results := make([]sarifResult, 0, len(entries))
	for _, e := range entries {
		f := e.f
		r := sarifResult{
			RuleID:    f.RuleID,
			RuleIndex: slices.Index(ids, f.RuleID),
			Level:     sarifLevel(f.Severity),
			Message:   sarifText{Text: sarifMessage(f)},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: sarifURI(f.Span.Path), URIBaseID: srcRoot},
				Region:           sarifSpan(f.Span, Column(v.cs, f)),
			}}},
		}
		r.PartialFingerprints = map[string]string{fingerprintKey: findingID(f)}
		r.BaselineState = string(e.state)
		if fix := sarifFixOf(f); fix != nil {
			r.Fixes = []sarifFix{*fix}
		}
		if f.Model != "" {
			r.Properties = &sarifResultProp{Model: f.Model, Advisory: v.res.Advisory(f)}
		}
		if s := e.suppressed; s != nil {
			kind := "external"
			if strings.HasPrefix(s.By, "inline") {
				kind = "inSource"
			}
			sup := sarifSuppression{Kind: kind, Justification: s.Reason}
			if s.Held {
				sup.Status = "underReview"
			}
			r.Suppressions = []sarifSuppression{sup}
		}
		results = append(results, r)
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           v.opts.tool(),
			Version:        v.opts.version(),
			InformationURI: InformationURI,
			Rules:          rules,
		}},
		Results: results,
	}
	if d := v.decisionDoc(); d != nil {
		run.Properties = &sarifRunProp{Decision: d}
	}
	return sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

// absentFinding stands for an absent baseline entry in SARIF output.
func (v *view) absentFinding(a review.BaselineEntry) *review.Finding {
	p, _, _ := strings.Cut(a.RuleID, "/")
	f := &review.Finding{ID: a.Fingerprint, RuleID: a.RuleID, Perspective: review.Perspective(p), Severity: review.SeverityLow,
		Span: review.Span{Path: a.Path}, Title: a.RuleID}
	if info, ok := v.rules[a.RuleID]; ok {
		f.Severity, f.Title = info.Severity, info.Summary
	}
	f.Message = fmt.Sprintf("%s: recorded in the baseline, no longer found in %s.", f.Title, a.Path)
	return f
}

func (v *view) sarifRule(id string, example *review.Finding) sarifRule {
	r := sarifRule{
		ID:                   id,
		ShortDescription:     sarifText{Text: rawTitle(example)},
		FullDescription:      sarifText{Text: rawTitle(example)},
		HelpURI:              RuleHelpURI(id),
		DefaultConfiguration: sarifRuleLevel{Level: sarifLevel(example.Severity)},
	}
	if info, ok := v.rules[id]; ok {
		if info.Summary != "" {
			r.ShortDescription.Text = info.Summary
			r.FullDescription.Text = info.Summary
		}
		if info.Doc != "" {
			r.FullDescription.Text = info.Doc
		}
		if info.Severity.Valid() {
			r.DefaultConfiguration.Level = sarifLevel(info.Severity)
		}
	}
	var tags []string
	if example.Perspective != "" {
		tags = append(tags, string(example.Perspective))
	}
	if c := category(example); c != "" && c != example.Perspective.Title() {
		tags = append(tags, c)
	}
	if len(tags) > 0 {
		r.Properties = &sarifRuleProp{Tags: tags}
	}
	return r
}

func sarifMessage(f *review.Finding) string {
	title, msg := rawTitle(f), strings.TrimSpace(f.Message)
	switch {
	case msg == "":
		return title
	case title == "" || strings.HasPrefix(msg, title):
		return msg
	}
	return title + ": " + msg
}

// sarifURI turns a repository-relative path into a relative URI reference,
// percent-encoding what a URI cannot hold (spaces, '#', '%', ...).
func sarifURI(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// sarifSpan converts a span to a SARIF region starting at column col (as
// Column gives it), nil when it has no line. A span of whole lines has no
// endColumn: the region ends with its last line, as SARIF reads it.
func sarifSpan(s review.Span, col int) *sarifRegion {
	if s.StartLine < 1 {
		return nil
	}
	r := &sarifRegion{StartLine: s.StartLine, StartColumn: col, EndLine: s.Last()}
	if s.StartCol > 0 && s.EndCol > 0 {
		r.EndColumn = s.EndCol
	}
	return r
}

// Column is the 1-based column a finding starts at, as every output
// shows it: its own column or, for a finding about whole lines, its first
// line's first non-blank byte (1 when the line is blank or unknown).
func Column(cs *review.ChangeSet, f *review.Finding) int {
	if f.Span.StartCol > 0 {
		return f.Span.StartCol
	}
	if file := cs.File(f.Span.Path); file != nil {
		if lines := file.TextLines(); f.Span.StartLine >= 1 && f.Span.StartLine <= len(lines) {
			return max(review.FirstNonBlank(lines[f.Span.StartLine-1]), 1)
		}
	}
	return 1
}

// sarifFixOf converts a finding's machine-applicable fix. An edit of whole
// lines (StartCol 0) deletes from the start of its first line to the start
// of the line after its last, so the line terminators go with it, as
// review.TextEdit defines.
func sarifFixOf(f *review.Finding) *sarifFix {
	if f.Fix == nil || len(f.Fix.Edits) == 0 {
		return nil
	}
	byPath := map[string][]sarifReplacement{}
	var order []string
	for _, e := range f.Fix.Edits {
		p := e.Span.Path
		if p == "" {
			p = f.Span.Path
		}
		if e.Span.StartLine < 1 {
			continue
		}
		var del sarifRegion
		if e.Span.StartCol == 0 {
			del = sarifRegion{StartLine: e.Span.StartLine, StartColumn: 1, EndLine: e.Span.Last() + 1, EndColumn: 1}
		} else {
			end := e.Span.EndLine
			if end < e.Span.StartLine {
				end = e.Span.StartLine
			}
			endCol := e.Span.EndCol
			if endCol < 1 {
				endCol = e.Span.StartCol
			}
			del = sarifRegion{StartLine: e.Span.StartLine, StartColumn: e.Span.StartCol, EndLine: end, EndColumn: endCol}
		}
		if _, ok := byPath[p]; !ok {
			order = append(order, p)
		}
		byPath[p] = append(byPath[p], sarifReplacement{DeletedRegion: del, InsertedContent: sarifText{Text: e.NewText}})
	}
	if len(order) == 0 {
		return nil
	}
	fix := &sarifFix{Description: sarifText{Text: orText(f.Fix.Title, "Apply the suggested fix")}}
	for _, p := range order {
		fix.ArtifactChanges = append(fix.ArtifactChanges, sarifArtifactChange{
			ArtifactLocation: sarifArtifact{URI: sarifURI(p), URIBaseID: srcRoot},
			Replacements:     byPath[p],
		})
	}
	return fix
}
