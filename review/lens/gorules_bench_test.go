package lens_test

import (
	"context"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
	"github.com/reviewls/reviewls/review/syntax"
)

// BenchmarkGoParse measures the shared parse of the 1,000-line Go file of
// BenchmarkCatalogGo, which every Go rule reuses.
func BenchmarkGoParse(b *testing.B) {
	content := largeGo(1000)
	b.ReportAllocs()
	for b.Loop() {
		syntax.Go(lenstest.NewFile("store/store.go", content))
	}
}

// BenchmarkGoRules measures the Go rules alone on the file of
// BenchmarkCatalogGo at depth standard. The file is parsed once: the parse
// (and the other memoised views of the file) is shared with the rest of
// the catalog, and none of the rules memoises its findings.
func BenchmarkGoRules(b *testing.B) {
	content := largeGo(1000)
	byPerspective := map[review.Perspective][]*lens.Rule{}
	for _, r := range goCorpusRules {
		byPerspective[r.Perspective] = append(byPerspective[r.Perspective], r)
	}
	var lenses []review.Lens
	for p, rules := range byPerspective {
		lenses = append(lenses, lens.New(p, rules...))
	}
	ctx := context.Background()
	f := lenstest.NewFile("store/store.go", content)
	cs := &review.ChangeSet{Files: []*review.File{f}}
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lenses {
			if _, err := l.Check(ctx, cs, nil, review.CheckOptions{Depth: review.DepthStandard}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkGoRule measures each Go rule alone, as BenchmarkGoRules does.
func BenchmarkGoRule(b *testing.B) {
	content := largeGo(1000)
	ctx := context.Background()
	for _, r := range goCorpusRules {
		b.Run(r.ID, func(b *testing.B) {
			l := lens.New(r.Perspective, r)
			f := lenstest.NewFile("store/store.go", content)
			cs := &review.ChangeSet{Files: []*review.File{f}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Check(ctx, cs, nil, review.CheckOptions{Depth: review.DepthStandard}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
