package review

import (
	"fmt"
	"strings"
)

// Severity ranks a finding. The zero value is not a valid severity.
type Severity int

// Severities in increasing order of importance.
const (
	SeverityLow Severity = iota + 1
	SeverityMedium
	SeverityHigh
	SeverityCritical
)

var severityNames = [...]string{"", "Low", "Medium", "High", "Critical"}

// String returns the title-case name used in findings JSON ("High").
func (s Severity) String() string {
	if s < SeverityLow || s > SeverityCritical {
		return fmt.Sprintf("Severity(%d)", int(s))
	}
	return severityNames[s]
}

// Lower returns the lower-case key used in counts and flags ("high").
func (s Severity) Lower() string { return strings.ToLower(s.String()) }

// Valid reports whether s is one of the four severities.
func (s Severity) Valid() bool { return s >= SeverityLow && s <= SeverityCritical }

// ParseSeverity parses a severity name in any case.
func ParseSeverity(name string) (Severity, error) {
	for i := SeverityLow; i <= SeverityCritical; i++ {
		if strings.EqualFold(name, severityNames[i]) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want critical, high, medium or low)", name)
}

// MarshalText implements [encoding.TextMarshaler].
func (s Severity) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("invalid severity %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler].
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Perspective names a findings lens (hve-spec §1.3).
type Perspective string

// The five findings perspectives.
const (
	Functional    Perspective = "functional"
	Standards     Perspective = "standards"
	Accessibility Perspective = "accessibility"
	Security      Perspective = "security"
	Readiness     Perspective = "readiness"
)

// AllPerspectives lists the perspectives in their canonical order, which is
// also the tie-break order when merged findings share a severity.
var AllPerspectives = []Perspective{Functional, Standards, Accessibility, Security, Readiness}

// ParsePerspective parses a perspective name.
func ParsePerspective(name string) (Perspective, error) {
	for _, p := range AllPerspectives {
		if strings.EqualFold(name, string(p)) {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown perspective %q (want functional, standards, accessibility, security or readiness)", name)
}

// ParsePerspectives parses a comma-separated list of perspectives, dropping
// duplicates and returning them in canonical order.
func ParsePerspectives(list string) ([]Perspective, error) {
	seen := map[Perspective]bool{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		p, err := ParsePerspective(f)
		if err != nil {
			return nil, err
		}
		seen[p] = true
	}
	return SortPerspectives(seen), nil
}

// SortPerspectives returns the members of set in canonical order.
func SortPerspectives(set map[Perspective]bool) []Perspective {
	out := []Perspective{}
	for _, p := range AllPerspectives {
		if set[p] {
			out = append(out, p)
		}
	}
	return out
}

// Title returns the capitalised name used as a title tag ("Functional").
func (p Perspective) Title() string {
	if p == "" {
		return ""
	}
	return strings.ToUpper(string(p[:1])) + string(p[1:])
}

// Index returns the canonical position of p, or len(AllPerspectives).
func (p Perspective) Index() int {
	for i, q := range AllPerspectives {
		if p == q {
			return i
		}
	}
	return len(AllPerspectives)
}

// Depth is the verification-rigor tier (hve-spec §4). The zero value means
// "not chosen": the engine then uses the recommended depth.
type Depth int

// Depth tiers.
const (
	DepthBasic Depth = iota + 1
	DepthStandard
	DepthComprehensive
)

var depthNames = [...]string{"", "basic", "standard", "comprehensive"}

func (d Depth) String() string {
	if d < DepthBasic || d > DepthComprehensive {
		return fmt.Sprintf("Depth(%d)", int(d))
	}
	return depthNames[d]
}

// Valid reports whether d is one of the three tiers.
func (d Depth) Valid() bool { return d >= DepthBasic && d <= DepthComprehensive }

// ParseDepth parses basic, standard or comprehensive.
func ParseDepth(name string) (Depth, error) {
	for i := DepthBasic; i <= DepthComprehensive; i++ {
		if strings.EqualFold(name, depthNames[i]) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown depth %q (want basic, standard or comprehensive)", name)
}

// MarshalText implements [encoding.TextMarshaler].
func (d Depth) MarshalText() ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("invalid depth %d", int(d))
	}
	return []byte(d.String()), nil
}

// UnmarshalText implements [encoding.TextUnmarshaler].
func (d *Depth) UnmarshalText(b []byte) error {
	v, err := ParseDepth(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Profile seeds the recommended perspectives (hve-spec §1.2).
type Profile string

// Review profiles.
const (
	ProfileStandard Profile = "standard"
	ProfileFull     Profile = "full"
	ProfileCustom   Profile = "custom"
)

// ParseProfile parses standard, full or custom.
func ParseProfile(name string) (Profile, error) {
	switch p := Profile(strings.ToLower(name)); p {
	case ProfileStandard, ProfileFull, ProfileCustom:
		return p, nil
	}
	return "", fmt.Errorf("unknown profile %q (want standard, full or custom)", name)
}

// Mode says who drives the review: a human in an editor (interactive) or an
// automation host such as CI or a hook (workflow).
type Mode string

// Review modes.
const (
	ModeWorkflow    Mode = "workflow"
	ModeInteractive Mode = "interactive"
)

// ParseMode parses workflow or interactive.
func ParseMode(name string) (Mode, error) {
	switch m := Mode(strings.ToLower(name)); m {
	case ModeWorkflow, ModeInteractive:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q (want workflow or interactive)", name)
}

// Verdict is the normalised review outcome (hve-spec §7.2).
type Verdict string

// Verdicts.
const (
	VerdictApprove             Verdict = "approve"
	VerdictApproveWithComments Verdict = "approve_with_comments"
	VerdictRequestChanges      Verdict = "request_changes"
)

// Display returns the rendered form of the verdict ("❌ Request changes").
func (v Verdict) Display() string {
	switch v {
	case VerdictApprove:
		return "✅ Approve"
	case VerdictApproveWithComments:
		return "💬 Approve with comments"
	case VerdictRequestChanges:
		return "❌ Request changes"
	}
	return string(v)
}

// Counts holds the number of accepted findings per severity. Its JSON form is
// both `severity_counts` and `findings_count` (hve-spec §7.4).
type Counts struct {
	Critical int `json:"critical"`
	High     int `json:"high"`
	Medium   int `json:"medium"`
	Low      int `json:"low"`
}

// Add counts one finding of severity s.
func (c *Counts) Add(s Severity) {
	if n := c.of(s); n != nil {
		*n++
	}
}

// Remove uncounts one finding of severity s.
func (c *Counts) Remove(s Severity) {
	if n := c.of(s); n != nil {
		*n--
	}
}

// of returns the count of severity s, nil for no severity.
func (c *Counts) of(s Severity) *int {
	switch s {
	case SeverityCritical:
		return &c.Critical
	case SeverityHigh:
		return &c.High
	case SeverityMedium:
		return &c.Medium
	case SeverityLow:
		return &c.Low
	}
	return nil
}

// Total returns the number of counted findings.
func (c Counts) Total() int { return c.Critical + c.High + c.Medium + c.Low }

// AtLeast returns the number of counted findings of severity s or higher.
func (c Counts) AtLeast(s Severity) int {
	n := 0
	if s <= SeverityCritical {
		n += c.Critical
	}
	if s <= SeverityHigh {
		n += c.High
	}
	if s <= SeverityMedium {
		n += c.Medium
	}
	if s <= SeverityLow {
		n += c.Low
	}
	return n
}

// VerdictFor derives the verdict from finding counts by the seed's rule
// (hve-spec §7.2): any Critical or High requests changes, only Medium/Low
// approves with comments, none approves. A review counts its accepted
// findings and the secrets a gate holds ([Result.GateCounts]): a secret
// silenced by an inline ignore alone still blocks the gate, so the review
// that reports it never approves.
func VerdictFor(c Counts) Verdict {
	switch {
	case c.Critical+c.High > 0:
		return VerdictRequestChanges
	case c.Medium+c.Low > 0:
		return VerdictApproveWithComments
	}
	return VerdictApprove
}
