package symbol

import (
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// GoParse is the one parse of a Go file's content (with comments, without
// object resolution) that the rules and the symbol extraction share.
type GoParse struct {
	Fset *token.FileSet
	// File is the partial tree of content with syntax errors; nil when not
	// even the package clause parses.
	File *ast.File
	Err  error
}

var goParse review.Memo[*GoParse]

// ParseGo returns the parse of f's content, memoised on f.
func ParseGo(f *review.File) *GoParse {
	return goParse.Of(f, func() *GoParse {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Path, f.Content, parser.ParseComments|parser.SkipObjectResolution)
		return &GoParse{Fset: fset, File: file, Err: err}
	})
}

// extractGoParsed reads the symbols of f from its shared parse.
func extractGoParsed(f *review.File) ([]Symbol, []int32) {
	p := ParseGo(f)
	if p.File == nil {
		return nil, nil
	}
	tf := p.Fset.File(p.File.Package)
	if tf == nil {
		return nil, nil
	}
	g := &goFile{src: f.Content, starts: syntax.LineStarts(f.Content), file: p.File, base: tf.Base()}
	return g.symbols(), g.starts
}
