package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/review/engine"
)

// Hover shows, over a finding's range, the finding and its rule's
// documentation and fix.
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
		fmt.Fprintf(&b, "**%s** · `%s` · %s\n\n%s\n", f.Title, f.RuleID, f.Severity, res.Redactor.String(f.Message))
		if f.SuggestedFix != "" {
			fmt.Fprintf(&b, "\n**Suggested fix:** %s\n", res.Redactor.String(f.SuggestedFix))
		}
		if f.Fix != nil {
			fmt.Fprintf(&b, "\nQuick fix available: %s\n", f.Fix.Title)
		}
		if ri, ok := engine.Rule(f.RuleID); ok {
			fmt.Fprintf(&b, "\n%s\n\nBad:\n```\n%s\n```\nGood:\n```\n%s\n```\n", ri.Doc, ri.Bad, ri.Good)
		}
	}
	if hit == nil {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: res.Redactor.String(b.String())}, Range: hit}, nil
}
