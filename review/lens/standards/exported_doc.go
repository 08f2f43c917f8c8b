package standards

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// Categories and skills of the standards rules for Go. The skills are the
// Go project's own standards: gofmt, Effective Go and the Go Code Review
// Comments wiki page.
const (
	goCatFormatting    = "Formatting"
	goCatDocumentation = "Documentation"
	goCatNaming        = "Naming"

	goSkillGofmt          = "gofmt"
	goSkillReviewComments = "Go Code Review Comments"
)

// ExportedUndocumented finds exported Go declarations without a doc
// comment.
var ExportedUndocumented = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "standards/exported-undocumented",
		Perspective: review.Standards,
		Category:    goCatDocumentation,
		Severity:    review.SeverityLow,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthBasic,
		Skill:       goSkillReviewComments,
		Summary:     "Exported declaration without a doc comment",
		Doc: "Every exported name is part of the package's API, and its doc comment is what go doc, pkg.go.dev " +
			"and editors show to its users (Go Code Review Comments, \"Doc Comments\"). An exported function, " +
			"type, method of an exported type, constant or variable added without one leaves users " +
			"to read the code. Write a full sentence that starts with the name. Only names the change adds are " +
			"reported: one that already existed and only got a new signature or body is not (the symbol diff " +
			"against the base version decides), and only in library code (not cmd/, internal/, examples/, testdata/ " +
			"and the like, whose names have no users outside the module) of a file whose base version documents at " +
			"least half of its exported functions, methods and types (a file that does not follows a project " +
			"convention the finding would only fight). A comment on a const, var or type " +
			"group documents its members, and so does the type of a typed or iota constant group. Not reported: " +
			"test files, package main, generated and cgo files, the methods that implement well-known interfaces " +
			"(String, Error, ServeHTTP, MarshalJSON, Len, ...), whose contract is documented by the interface, and " +
			"one-line methods, which are almost always such accessors.",
		Bad:  "func ParseConfig(b []byte) (*Config, error) {",
		Good: "// ParseConfig parses a YAML configuration file.\nfunc ParseConfig(b []byte) (*Config, error) {",
	},
	Run: runExportedUndocumented,
}

// interfaceMethods implement well-known interfaces whose documentation
// covers them.
var interfaceMethods = map[string]bool{
	"String": true, "GoString": true, "Error": true, "Unwrap": true, "Is": true, "As": true, "Format": true,
	"ServeHTTP": true, "Len": true, "Less": true, "Swap": true, "Read": true, "Write": true, "Close": true,
	"ReadFrom": true, "WriteTo": true, "Seek": true, "MarshalJSON": true, "UnmarshalJSON": true,
	"MarshalText": true, "UnmarshalText": true, "MarshalBinary": true, "UnmarshalBinary": true,
	"MarshalYAML": true, "UnmarshalYAML": true, "Scan": true, "Value": true, "Set": true, "Get": true,
	"Reset": true, "ProtoMessage": true, "Push": true, "Pop": true, "Deadline": true, "Done": true, "Err": true,
}

func runExportedUndocumented(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil || g.File.Name == nil || g.File.Name.Name == "main" || ast.IsGenerated(g.File) ||
		lens.GoImportName(g.File, "C") != "" || !lens.LibraryPath(p.File.Path) {
		return
	}
	// The candidates first: the checks against the base version (a parse
	// and a symbol diff) are only for the files that have one.
	type candidate struct {
		line       int
		kind, what string
		name       string
	}
	var cands []candidate
	report := func(name *ast.Ident, kind, what string) {
		if line := g.Line(name.Pos()); p.Changed(line) {
			cands = append(cands, candidate{line, kind, what, name.Name})
		}
	}
	for _, d := range lens.GoChangedDecls(p.File) {
		switch d := d.Decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Doc != nil {
				continue
			}
			if d.Recv == nil {
				report(d.Name, "function", d.Name.Name)
				continue
			}
			name := syntax.GoFuncName(d)
			if recv := syntax.GoRecvType(d); recv == "" || !ast.IsExported(recv) || interfaceMethods[d.Name.Name] {
				continue
			}
			if g.Line(d.Pos()) == g.Line(d.End()) {
				continue // a one-line accessor, usually implementing an interface
			}
			report(d.Name, "method", name)
		case *ast.GenDecl:
			if d.Doc != nil && d.Lparen.IsValid() {
				continue // the group's comment documents its members
			}
			kind := map[token.Token]string{token.CONST: "constant", token.VAR: "variable", token.TYPE: "type"}[d.Tok]
			if kind == "" {
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
						report(s.Name, kind, s.Name.Name)
					}
				case *ast.ValueSpec:
					if s.Doc != nil || d.Doc != nil || s.Comment != nil && d.Lparen.IsValid() || enumGroup(d) {
						continue
					}
					for _, n := range s.Names {
						if n.IsExported() {
							report(n, kind, n.Name)
							break
						}
					}
				}
			}
		}
	}
	if len(cands) == 0 || undocumentedByConvention(p.File) {
		return
	}
	// Only names the change adds: a declaration that only got a new
	// signature or body was undocumented before, and is the baseline's
	// business, not this change's.
	added, known := lens.AddedSymbols(p.File)
	for _, c := range cands {
		if known && !added[c.what] {
			continue
		}
		p.Report(lens.Report{
			Line:   c.line,
			Symbol: c.what,
			// The identifier, not its declaration: a new signature of a
			// name that was already undocumented is the same finding.
			Match: c.what,
			Title: fmt.Sprintf("Exported %s %s has no doc comment", c.kind, c.what),
			Message: fmt.Sprintf("The exported %s %s has no doc comment, so go doc, pkg.go.dev and editors show its "+
				"users nothing about what it does or how to use it.", c.kind, c.what),
			Suggested: fmt.Sprintf("Add a comment directly above it: a full sentence that starts with %q.", c.name),
		})
	}
}

// undocumentedByConvention reports a file whose base version leaves most
// of its API undocumented (at least three exported functions, methods and
// types, fewer than half with a doc comment): the project does not
// document this code, and one more undocumented name follows its
// convention.
func undocumentedByConvention(f *review.File) bool {
	old, ok := lens.OldContent(f)
	if !ok || len(old) == 0 {
		return false
	}
	base, _ := parser.ParseFile(token.NewFileSet(), "", old, parser.ParseComments|parser.SkipObjectResolution)
	if base == nil {
		return false
	}
	total, documented := 0, 0
	count := func(doc ...*ast.CommentGroup) {
		total++
		for _, d := range doc {
			if d != nil {
				documented++
				return
			}
		}
	}
	for _, d := range base.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || ast.IsExported(syntax.GoRecvType(d))) && !interfaceMethods[d.Name.Name] {
				count(d.Doc)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok && ts.Name.IsExported() {
					count(ts.Doc, d.Doc)
				}
			}
		}
	}
	return total >= 3 && 2*documented < total
}

// enumGroup reports a parenthesised group of typed constants, or of
// constants counted with iota: the documentation of their type, or of the
// group's first member, covers them, as go doc shows them together.
func enumGroup(d *ast.GenDecl) bool {
	if d.Tok != token.CONST || !d.Lparen.IsValid() || len(d.Specs) < 2 {
		return false
	}
	first := d.Specs[0].(*ast.ValueSpec)
	if first.Type != nil {
		return true
	}
	for _, v := range first.Values {
		found := false
		ast.Inspect(v, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
