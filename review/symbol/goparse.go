package symbol

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// extractGoParsed reads the symbols of f from its shared parse.
func extractGoParsed(f *review.File) ([]Symbol, []int32) {
	p := syntax.Go(f)
	if p.File == nil || p.Base() == 0 {
		return nil, nil
	}
	g := &goFile{src: f.Content, starts: syntax.LineStarts(f.Content), file: p.File, base: p.Base()}
	return g.symbols(), g.starts
}
