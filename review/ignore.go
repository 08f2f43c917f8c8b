package review

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// The syntax of inline ignore directives, "reviewls:ignore <rule-id>
// <reason>", which the editor writes, the rules check and the processor
// chain applies.

// IgnoreDirective is the marker of an inline suppression comment:
// "reviewls:ignore <rule-id> <reason>".
const IgnoreDirective = "reviewls:ignore"

// IgnorePlaceholder is the reason the editor's Ignore action inserts for
// the user to replace. It is not a reason: a directive that still carries
// it suppresses nothing.
const IgnorePlaceholder = "<why this finding does not apply>"

// MinReasonWords is the fewest words a reason needs. One or two words
// ("false positive", "ok", "test") say that the author disagreed, not why;
// three are the least that name a reason the next reader can check
// ("test fixture key", "tracked in #42").
const MinReasonWords = 3

// ruleRE is a rule id or a perspective wildcard, as a directive names it.
var ruleRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/(?:[A-Za-z0-9_.-]+|\*)$`)

// placeholderRE finds a fill-in-the-blank "<…>" group in a reason.
var placeholderRE = regexp.MustCompile(`<([^<>]*)>`)

// fillIns are single words that, in angle brackets, stand for a reason
// still to be written.
var fillIns = []string{"reason", "why", "justification", "explanation", "description", "todo", "text", "comment", "details", "rationale", "...", "…", ""}

// Directive is one parsed inline suppression.
type Directive struct {
	// Line is the 1-based line of the comment that holds the directive.
	Line int
	Rule string
	// Reason is the text after the rule id, trimmed.
	Reason string
	// OwnLine reports that the comment is alone on its line (nothing but
	// blanks, or JSX's braces, around it), so it also covers the next line.
	OwnLine bool
	// Problem says why the directive suppresses nothing; "" when it is
	// valid.
	Problem string
}

// Valid reports whether the directive suppresses the findings it names.
func (d Directive) Valid() bool { return d.Problem == "" }

// ParseDirective parses the directive in the text of one comment, if the
// text holds the marker. The directive's Problem is set when it names no
// rule or gives no acceptable reason. Line and OwnLine are left to the
// caller, which knows where the comment is.
func ParseDirective(comment string) (Directive, bool) {
	i := strings.Index(comment, IgnoreDirective)
	if i < 0 {
		return Directive{}, false
	}
	rest := comment[i+len(IgnoreDirective):]
	var d Directive
	if rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		fields := strings.Fields(rest)
		if len(fields) > 0 && ruleRE.MatchString(fields[0]) {
			d.Rule = fields[0]
			j := strings.Index(rest, fields[0]) + len(fields[0])
			d.Reason = strings.TrimSpace(rest[j:])
		}
	}
	d.Problem = reasonProblem(d)
	return d, true
}

// reasonProblem says why d suppresses nothing, or "".
func reasonProblem(d Directive) string {
	switch {
	case d.Rule == "":
		return "it names no rule (want reviewls:ignore <perspective>/<rule> <reason>)"
	case d.Reason == "":
		return "it gives no reason"
	case strings.Contains(d.Reason, IgnorePlaceholder):
		return "its reason is still the placeholder " + IgnorePlaceholder
	}
	for _, m := range placeholderRE.FindAllStringSubmatch(d.Reason, -1) {
		inner := strings.TrimSpace(m[1])
		if strings.ContainsAny(inner, " \t") || slices.Contains(fillIns, strings.ToLower(inner)) || strings.TrimSpace(d.Reason) == m[0] {
			return "its reason is a placeholder (" + m[0] + ") to fill in"
		}
	}
	if n := countWords(d.Reason); n < MinReasonWords {
		return fmt.Sprintf("its reason %q has %d word(s), fewer than %d: say why the finding does not apply", d.Reason, n, MinReasonWords)
	}
	return ""
}

// countWords counts the blank-separated fields that hold a letter or a
// digit, so punctuation alone ("- - -") is no word.
func countWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// Matches reports whether the directive silences rule: an exact id, or
// "<perspective>/*".
func (d Directive) Matches(rule string) bool {
	if d.Rule == rule {
		return true
	}
	if p, ok := strings.CutSuffix(d.Rule, "/*"); ok {
		return strings.HasPrefix(rule, p+"/")
	}
	return false
}
