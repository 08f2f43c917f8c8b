package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Span is a region of a file: 1-based lines and 1-based byte columns. A
// zero StartCol means the span covers whole lines; EndCol is exclusive.
type Span struct {
	Path      string
	StartLine int
	StartCol  int
	EndLine   int
	EndCol    int
}

// Lines renders the line range as hve-spec's `lines` string ("45" or
// "45-52").
func (s Span) Lines() string {
	if s.EndLine <= s.StartLine {
		return fmt.Sprint(s.StartLine)
	}
	return fmt.Sprintf("%d-%d", s.StartLine, s.EndLine)
}

// Last returns the last line of the span.
func (s Span) Last() int {
	if s.EndLine < s.StartLine {
		return s.StartLine
	}
	return s.EndLine
}

// TextEdit replaces the text of Span with NewText. A span with StartCol 0
// replaces whole lines, line terminators included, so NewText should end
// with a newline unless it deletes the lines.
type TextEdit struct {
	Span    Span
	NewText string
}

// Fix is a machine-applicable change that resolves a finding.
type Fix struct {
	Title string
	Edits []TextEdit
}

// Finding is one defect a rule found on changed lines.
type Finding struct {
	// ID is a stable fingerprint of the finding (rule, path, symbol and the
	// cited code), independent of its line number and of unrelated edits.
	ID string
	// Number is the 1-based position in the merged report.
	Number      int
	RuleID      string
	Perspective Perspective
	Category    string
	// Skill names the standard the finding traces to (hve-spec §8.2), or "".
	Skill    string
	Severity Severity
	Title    string
	// Message is the problem: what is wrong and why it matters.
	Message string
	Span    Span
	// Symbol is the enclosing function, type or key, when known.
	Symbol string
	// CurrentCode is the cited snippet, secrets already redacted.
	CurrentCode string
	// SuggestedFix is a concrete replacement or instruction.
	SuggestedFix string
	Fix          *Fix
	// Confidence is "high", "medium" or "low".
	Confidence string
	// LineState is where the first cited line lives.
	LineState LineState
	// Secrets holds raw secret values cited by the finding. They are used
	// only to redact every output and are never serialised.
	Secrets []string `json:"-"`
}

// Fingerprint computes the stable ID of f from its rule, path, symbol and
// the trimmed text of its cited lines.
func Fingerprint(ruleID, path, symbol, code string) string {
	h := sha256.New()
	for _, s := range []string{ruleID, path, symbol, strings.TrimSpace(code)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "rv-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// Rejected is a finding that failed validation against the diff.
type Rejected struct {
	Finding *Finding
	Reason  string
}

// Suppressed is a finding silenced by an inline ignore comment or config.
type Suppressed struct {
	Finding *Finding
	// Reason is the justification the user wrote.
	Reason string
	// By says where the suppression came from ("inline at a.go:12",
	// "config rules").
	By string
}

// Observation is a pre-existing issue outside the diff; it never affects
// the verdict (hve-spec §2.5).
type Observation struct {
	File        string `json:"file"`
	Observation string `json:"observation"`
}
