package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review"
)

// Hover shows, over a finding's range, what its diagnostic does not say:
// the rationale, the fix and a link to the rule's documentation. The
// headline and the rule id are the diagnostic's (VS Code shows them in the
// same box, above this; other editors beside it), so they are not
// repeated, and the rule's whole documentation stays behind the link: the
// hover fits the editor's box without scrolling.
func (s *server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	ss, rel := s.sessionForURI(params.TextDocument.URI)
	if ss == nil {
		return nil, nil
	}
	res, _, file := ss.reviewedFile(rel)
	if file == nil {
		return nil, nil
	}
	m := newMapper(file.Content)
	at := protocol.Range{Start: params.Position, End: params.Position}
	var b strings.Builder
	var hit *protocol.Range
	for _, f := range res.Findings {
		if f.Span.Path != rel {
			continue
		}
		r := findingRange(file, m, f)
		if !overlaps(r, at) {
			continue
		}
		if hit == nil {
			hit = &r
		} else {
			b.WriteString("\n---\n\n")
		}
		b.WriteString(hoverMarkdown(f))
	}
	if hit == nil {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: res.Redactor.String(b.String())}, Range: hit}, nil
}

// hoverMarkdown is one finding's part of the hover: the rationale, the
// suggested fix and the quick fix that applies it, then "More", the
// rule's documentation.
func hoverMarkdown(f *review.Finding) string {
	var b strings.Builder
	b.WriteString(f.Message + "\n")
	if f.SuggestedFix != "" {
		fmt.Fprintf(&b, "\n**Fix:** %s\n", f.SuggestedFix)
	}
	if f.Fix != nil && f.Fix.Title != "" {
		fmt.Fprintf(&b, "\n**Quick fix:** %s\n", f.Fix.Title)
	}
	fmt.Fprintf(&b, "\n[More](%s)\n", artifacts.RuleHelpURI(f.RuleID))
	return b.String()
}
