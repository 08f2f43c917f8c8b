package review

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Span is a region of a file: 1-based lines and 1-based byte columns. A
// zero StartCol means the span covers whole lines; EndCol is exclusive,
// and a zero EndCol means the end of the last line. A finding about whole
// lines starts at its first line's first non-blank byte ([FirstNonBlank]).
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

// FirstNonBlank returns the 1-based byte column of the first byte of line
// that is neither a space nor a tab, or 0 for a blank line.
func FirstNonBlank(line string) int {
	if i := strings.IndexFunc(line, func(r rune) bool { return r != ' ' && r != '\t' }); i >= 0 {
		return i + 1
	}
	return 0
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
	Confidence   Confidence
	// LineState is where the first cited line lives.
	LineState LineState
	// Secrets holds raw secret values cited by the finding. They are used
	// only to redact every output and are never serialised.
	Secrets []string `json:"-"`
	// Match is the normalised text the rule matched, the part of the
	// fingerprint that stands for the code: by default the first cited line
	// with its whitespace collapsed; a rule that measures sets the name of
	// what it measures (a function's name, not its length), so the
	// fingerprint does not move with the value or with unrelated edits.
	Match string
	// Removed, when not 0, is the line of the new file before which the
	// change removed the code whose absence the finding reports (a Close,
	// a check): the cited lines need not have changed themselves. Never
	// serialised.
	Removed int `json:"-"`
	// Measure is the value a measuring rule compared with its threshold (a
	// function's length), 0 for other rules. A pre-existing finding whose
	// measure grew by [GrowthFactor] or more is reported again.
	Measure int
	// Capped counts the findings of the same rule, file and severity that
	// the per-file cap left out after this one ([CheckOptions.MaxPerFile]).
	// Never serialised.
	Capped int `json:"-"`
	// Baseline is the finding's state against what was there before: new,
	// unchanged (pre-existing) or updated (a measure that grew a lot).
	Baseline BaselineState
	// Model is the name of the model whose candidate, confirmed against
	// the diff, is this finding ("" for a rule's finding).
	Model string
}

// BaselineState is a finding's state against the base version of its file
// or a baseline file, as SARIF 2.1.0's result.baselineState (§3.27.24).
type BaselineState string

// Baseline states. Absent marks a known finding no longer found.
const (
	BaselineNew       BaselineState = "new"
	BaselineUnchanged BaselineState = "unchanged"
	BaselineUpdated   BaselineState = "updated"
	BaselineAbsent    BaselineState = "absent"
)

// GrowthFactor is how much a measured value must grow over its
// pre-existing value for the finding to count as the change's own
// (baseline state updated): a 268-line function that a fix makes 271 lines
// long is the same finding, one that doubles is news. Half as much again
// is past any incidental edit and still below a rewrite.
const GrowthFactor = 1.5

// MatchText normalises cited code into a finding's default match: its
// first non-blank line with runs of whitespace collapsed to one space, so
// re-indenting or moving the code keeps the fingerprint.
func MatchText(code string) string {
	for _, line := range strings.Split(code, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			return strings.Join(f, " ")
		}
	}
	return ""
}

// HeadlineMax is the longest [Finding.Headline], in characters: what an
// editor's virtual text, its problems list and a terminal line show
// without cutting.
const HeadlineMax = 100

// Headline is the one line that stands for f wherever space is short: a
// diagnostic's message, a line of the text report. It is the title, without
// the perspective tag the merged report may add, marked " [critical]" for
// a Critical finding (editors show Critical and High alike, as errors), and
// cut at a word to [HeadlineMax] characters. The rationale (Message) goes
// where there is room: the hover, the rule's documentation.
func (f *Finding) Headline() string { return f.headline(f.Severity == SeverityCritical) }

// TitleLine is the headline without the critical mark, for outputs that
// print the severity beside it.
func (f *Finding) TitleLine() string { return f.headline(false) }

func (f *Finding) headline(critical bool) string {
	title := strings.TrimPrefix(f.Title, "["+f.Perspective.Title()+"] ")
	title = strings.Join(strings.Fields(title), " ")
	if title == "" {
		title = f.RuleID
	}
	mark := ""
	if critical {
		mark = " [critical]"
	}
	room := HeadlineMax - utf8.RuneCountInString(mark)
	if utf8.RuneCountInString(title) > room {
		r := []rune(title)[:room-1]
		cut := string(r)
		if i := strings.LastIndexByte(cut, ' '); i > room/2 {
			cut = cut[:i]
		}
		title = strings.TrimRight(cut, " ,;:") + "…"
	}
	return title + mark
}

// IsSecret reports whether f cites a secret value: every finding of a
// secret-class rule does, and an inline ignore never lets one through a
// gate on its own (see [Suppressed.Held]).
func (f *Finding) IsSecret() bool { return len(f.Secrets) > 0 }

// SecretFingerprint identifies the secret f cites, for the configuration's
// allow-secrets list (in the spirit of gitleaks' .gitleaksignore):
// "<rule-id>:<path>:<hash>", where hash is the first 16 hex digits of a
// SHA-256 over the rule id, the path and f's match, which for a secret is
// where it is — the cited line with the value masked out, and its rank
// among the same lines of the file ([SecretAnchor]) — never what it is: no
// guess of a value can be tested against a fingerprint, and a value
// changed in place keeps it. It does not move with the line, so an edit
// elsewhere in the file keeps it. It is "" when f cites no secret.
func (f *Finding) SecretFingerprint() string {
	if !f.IsSecret() {
		return ""
	}
	h := sha256.New()
	for _, s := range []string{"reviewls secret location", f.RuleID, f.Span.Path, f.Match} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return f.RuleID + ":" + f.Span.Path + ":" + hex.EncodeToString(h.Sum(nil))[:16]
}

// SecretAnchor returns the part of a secret finding's match that its
// cited line gives ([Finding.Match]): the line with each of the values
// masked out and its whitespace collapsed. The match adds the finding's
// rank among the file's findings of its rule with the same anchor
// ([SecretMatch]), which keeps apart two secrets on lines that read the
// same.
func SecretAnchor(line string, values []string) string {
	for _, v := range slices.SortedFunc(slices.Values(values), func(a, b string) int { return cmp.Compare(len(b), len(a)) }) {
		if v != "" {
			line = strings.ReplaceAll(line, v, "<secret>")
		}
	}
	return MatchText(line)
}

// SecretMatch returns the match of the secret finding with the given
// anchor ([SecretAnchor]) and rank k (0 for the first with that anchor).
func SecretMatch(anchor string, k int) string { return anchor + "#" + strconv.Itoa(k) }

// PreexistingKey is what tells f from the findings of another version of
// its file (is it pre-existing?): its ID, but for a secret the rule and the
// values, wherever they are in the file. A secret's ID stands for its
// place, so a new value in an old value's place would share it; and the
// same value moved, or on a line edited around it, is still the one the
// base version had. It holds raw values: compare it in memory, never print
// or store it.
func (f *Finding) PreexistingKey() string {
	if !f.IsSecret() {
		return f.ID
	}
	return "\x00secret\x00" + f.RuleID + "\x00" + strings.Join(f.Secrets, "\x00")
}

// Fingerprint computes the stable ID of a finding from its rule, path,
// enclosing symbol and match (see [Finding.Match]; a cited snippet is
// normalised with [MatchText]). It never depends on a line number, so an
// edit elsewhere in the file keeps it.
func Fingerprint(ruleID, path, symbol, match string) string {
	h := sha256.New()
	for _, s := range []string{ruleID, path, symbol, MatchText(match)} {
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
	// "config allow-secrets").
	By string
	// Held reports a secret silenced only by an inline directive: it is
	// hidden from the editor and listed as suppressed, but a gate
	// (--fail-on) still counts it until allow-secrets lists its
	// fingerprint.
	Held bool
}

// Sources of a pre-existing finding.
const (
	// SourceBase: the base version of the file has it.
	SourceBase = "base"
	// SourceBaseline: the baseline file records it.
	SourceBaseline = "baseline"
)

// PreExisting is a finding of the change's lines that was already there.
type PreExisting struct {
	Finding *Finding
	// Source is [SourceBase] or [SourceBaseline].
	Source string
}

// Observation is a pre-existing issue outside the diff; it never affects
// the verdict (hve-spec §2.5).
type Observation struct {
	File        string `json:"file"`
	Observation string `json:"observation"`
}

// Confidence is how sure a rule is that its finding is a defect.
type Confidence string

// The confidences of a finding.
const (
	ConfidenceHigh   Confidence = "high"
	ConfidenceMedium Confidence = "medium"
	ConfidenceLow    Confidence = "low"
)

// Valid reports whether c is one of the confidences.
func (c Confidence) Valid() bool {
	return c == ConfidenceHigh || c == ConfidenceMedium || c == ConfidenceLow
}

func (c Confidence) String() string { return string(c) }
