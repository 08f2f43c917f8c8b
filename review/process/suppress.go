package process

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// IgnoreDirective is the marker of an inline suppression comment:
// "reviewls:ignore <rule-id> <reason>".
const IgnoreDirective = "reviewls:ignore"

// ignoreRE captures the rule id and the rest of the line after it.
var ignoreRE = regexp.MustCompile(`^reviewls:ignore[ \t]+([A-Za-z0-9_./*-]+)(.*)$`)

// Directive is one parsed inline suppression.
type Directive struct {
	Line   int
	Rule   string
	Reason string
}

// ParseDirective parses the ignore directive on a line, if any.
func ParseDirective(line string) (Directive, bool) {
	i := strings.Index(line, IgnoreDirective)
	if i < 0 {
		return Directive{}, false
	}
	m := ignoreRE.FindStringSubmatch(line[i:])
	if m == nil {
		return Directive{}, false
	}
	reason := m[2]
	// A block comment's closer ends the reason.
	for _, closer := range []string{"*/", "-->"} {
		if j := strings.Index(reason, closer); j >= 0 {
			reason = reason[:j]
		}
	}
	return Directive{Rule: m[1], Reason: strings.TrimSpace(reason)}, true
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

// Suppress silences findings with an inline directive on the finding's
// first line (a trailing comment) or on the line just above it (a comment
// line of its own). A directive needs a reason: one without a reason does
// not suppress, so an unexplained silence never hides a defect.
type Suppress struct {
	ChangeSet  *review.ChangeSet
	Suppressed []review.Suppressed
}

var _ review.Processor = (*Suppress)(nil)

// Name implements [review.Processor].
func (*Suppress) Name() string { return "suppress" }

// Process implements [review.Processor].
func (p *Suppress) Process(_ context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	p.Suppressed = p.Suppressed[:0]
	out := findings[:0]
	for _, f := range findings {
		if d, ok := p.directive(f); ok {
			p.Suppressed = append(p.Suppressed, review.Suppressed{
				Finding: f,
				Reason:  d.Reason,
				By:      fmt.Sprintf("inline at %s:%d", f.Span.Path, d.Line),
			})
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

func (p *Suppress) directive(f *review.Finding) (Directive, bool) {
	file := p.ChangeSet.File(f.Span.Path)
	if file == nil || !bytes.Contains(file.Content, []byte(IgnoreDirective)) {
		return Directive{}, false
	}
	for _, n := range []int{f.Span.StartLine, f.Span.StartLine - 1} {
		line := lineAt(file.Content, n)
		if d, ok := ParseDirective(line); ok && d.Reason != "" && d.Matches(f.RuleID) {
			// The line above only counts when it is a comment of its own.
			if n != f.Span.StartLine && !commentOnly(line) {
				continue
			}
			d.Line = n
			return d, true
		}
	}
	return Directive{}, false
}

// commentOnly reports whether the directive is the first thing on its line.
func commentOnly(line string) bool {
	t := strings.TrimSpace(line)
	for _, prefix := range []string{"//", "#", "--", "/*", "<!--", "{/*", ";"} {
		if strings.HasPrefix(t, prefix) {
			return true
		}
	}
	return false
}

// lineAt returns line n (1-based) of content without its terminator.
func lineAt(content []byte, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(content, '\n')
		if j < 0 {
			return ""
		}
		content = content[j+1:]
	}
	if j := bytes.IndexByte(content, '\n'); j >= 0 {
		content = content[:j]
	}
	return strings.TrimSuffix(string(content), "\r")
}
