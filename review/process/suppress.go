package process

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// Directive is one parsed inline suppression ([review.Directive]).
type Directive = review.Directive

var directivesOf review.Memo[[]Directive]

// Directives returns the directives of f, valid or not, in line order.
// Only comments count: the file is lexed in its language's comment syntax
// ([syntax.CommentSyntax]), so a marker inside a string literal, or anywhere
// that is not a comment of that language, is no directive. A file without
// comment syntax (JSON, plain text) has none.
func Directives(f *review.File) []Directive {
	return directivesOf.Of(f, func() []Directive { return scanDirectives(f) })
}

func scanDirectives(f *review.File) []Directive {
	if !bytes.Contains(f.Content, []byte(review.IgnoreDirective)) {
		return nil
	}
	lines := lens.Lines(f)
	var out []Directive
	for i, parts := range syntax.CommentParts(f) {
		for _, c := range parts {
			d, ok := review.ParseDirective(lines[i][c.TextFrom:c.TextTo])
			if !ok {
				continue
			}
			d.Line = i + 1
			d.OwnLine = ownLine(lines[i], parts)
			out = append(out, d)
		}
	}
	return out
}

// ownLine reports whether line holds nothing but its comments, blanks and
// the braces of a JSX comment ({/* … */}).
func ownLine(line string, parts []syntax.CommentPart) bool {
	var rest strings.Builder
	at := 0
	for _, c := range parts {
		rest.WriteString(line[at:c.From])
		at = c.To
	}
	rest.WriteString(line[at:])
	s := strings.Join(strings.Fields(rest.String()), "")
	return s == "" || s == "{}"
}

// Suppress silences findings with a valid inline directive on the
// finding's first line (a trailing comment) or in a comment alone on the
// line just above it. A directive that names no rule or gives no real
// reason (see [Directive.Problem]) suppresses nothing, so an unexplained
// silence never hides a defect; standards/ignore-without-reason reports
// it.
//
// A finding that cites a secret is different: an inline directive hides it
// from the editor and the report, but it stays held ([review.Suppressed]
// Held), and a gate still fails on it, unless the configuration's
// allow-secrets lists its [review.Finding.SecretFingerprint]. A listed
// secret is suppressed by the configuration, with or without a directive.
type Suppress struct {
	ChangeSet *review.ChangeSet
	// AllowSecrets lists the secret fingerprints the configuration allows.
	AllowSecrets []string
	Suppressed   []review.Suppressed
}

var _ review.Processor = (*Suppress)(nil)

// Name implements [review.Processor].
func (*Suppress) Name() string { return "suppress" }

// Process implements [review.Processor].
func (p *Suppress) Process(_ context.Context, findings []*review.Finding) ([]*review.Finding, error) {
	p.Suppressed = p.Suppressed[:0]
	out := findings[:0]
	for _, f := range findings {
		d, inline := p.directive(f)
		if f.IsSecret() {
			if fp := f.SecretFingerprint(); slices.Contains(p.AllowSecrets, fp) {
				reason := "allow-secrets lists " + fp
				if inline {
					reason = d.Reason
				}
				p.Suppressed = append(p.Suppressed, review.Suppressed{Finding: f, Reason: reason, By: "config allow-secrets"})
				continue
			}
		}
		if inline {
			s := review.Suppressed{Finding: f, Reason: d.Reason, By: fmt.Sprintf("inline at %s:%d", f.Span.Path, d.Line)}
			if f.IsSecret() {
				s.Held = true
				s.By += "; a secret: still blocks the gate unless allow-secrets lists " + f.SecretFingerprint()
			}
			p.Suppressed = append(p.Suppressed, s)
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// directive returns the valid directive that covers f, if any.
func (p *Suppress) directive(f *review.Finding) (Directive, bool) {
	file := p.ChangeSet.File(f.Span.Path)
	if file == nil {
		return Directive{}, false
	}
	ds := Directives(file)
	// A trailing comment on the finding's line first, then a comment of
	// its own on the line above.
	for _, above := range []bool{false, true} {
		for _, d := range ds {
			at := d.Line == f.Span.StartLine
			if above {
				at = d.OwnLine && d.Line == f.Span.StartLine-1
			}
			if at && d.Valid() && d.Matches(f.RuleID) {
				return d, true
			}
		}
	}
	return Directive{}, false
}
