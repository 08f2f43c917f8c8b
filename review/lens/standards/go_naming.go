package standards

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// GoNaming finds Go identifiers that break the MixedCaps and initialism
// conventions.
var GoNaming = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "standards/go-naming",
		Perspective: review.Standards,
		Category:    goCatNaming,
		Severity:    review.SeverityLow,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthBasic,
		Skill:       goSkillReviewComments,
		Fixable:     true,
		Summary:     "Go name breaks MixedCaps or initialism conventions",
		Doc: "Go names use MixedCaps: no underscores (user_id), no ALL_CAPS constants (MAX_SIZE), and initialisms " +
			"keep one case (userID, ServeHTTP, not userId, ServeHttp), as Effective Go and Go Code Review " +
			"Comments (\"Mixed Caps\", \"Initialisms\") ask; golint and most linters enforce it, so such names " +
			"stand out in review and in the package's API. Rename to the MixedCaps form; for a local variable the " +
			"rule offers the rename of every use in the function. Only names declared on changed lines are " +
			"checked; initialisms are checked in exported names only. Not reported: the blank identifier, test, " +
			"benchmark, example and fuzz functions (Example names need underscores), cgo files, functions " +
			"exported to C with //export, and generated files.",
		Bad:  "const MAX_RETRY_COUNT = 3\n\nfunc GetUserId(user_name string) string",
		Good: "const MaxRetryCount = 3\n\nfunc GetUserID(userName string) string",
	},
	Run: runGoNaming,
}

// goInitialisms are the initialisms of golint's list.
var goInitialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "EOF": true, "GUID": true,
	"HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true, "LHS": true, "QPS": true,
	"RAM": true, "RHS": true, "RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true, "URI": true, "URL": true,
	"UTF8": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// mixedCaps splits an identifier into words: "getHTTPServer_id" gives
// "get", "HTTP", "Server", "id".
func mixedCaps(name string) []string {
	var words []string
	start := 0
	for i := 0; i <= len(name); i++ {
		if i == len(name) || name[i] == '_' {
			if i > start {
				words = append(words, name[start:i])
			}
			start = i + 1
			continue
		}
		if i == start {
			continue
		}
		c, prev := name[i], name[i-1]
		upper := c >= 'A' && c <= 'Z'
		lowerPrev := prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9'
		acronymEnd := prev >= 'A' && prev <= 'Z' && i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
		if upper && (lowerPrev || acronymEnd) {
			words = append(words, name[start:i])
			start = i
		}
	}
	return words
}

// goNameFix returns the conventional form of name, or "" when it is fine.
// exported reports that initialisms must be checked.
func goNameFix(name string) (fixed, why string) {
	if name == "_" || strings.Trim(name, "_") == "" {
		return "", ""
	}
	words := mixedCaps(name)
	allCaps := strings.Contains(name, "_") && strings.ToUpper(name) == name && strings.ToLower(name) != name
	var b strings.Builder
	for i, w := range words {
		upper := strings.ToUpper(w)
		switch {
		case goInitialisms[upper]:
			if i == 0 && !ast.IsExported(name) {
				w = strings.ToLower(w)
			} else {
				w = upper
			}
		case strings.HasSuffix(upper, "S") && goInitialisms[upper[:len(upper)-1]] && len(w) > 2 && (i > 0 || ast.IsExported(name)):
			w = upper[:len(upper)-1] + "s" // IDs, URLs
		case allCaps || strings.Contains(name, "_"):
			lower := strings.ToLower(w)
			if i == 0 && !ast.IsExported(name) {
				w = lower
			} else {
				w = strings.ToUpper(lower[:1]) + lower[1:]
			}
		}
		b.WriteString(w)
	}
	fixed = b.String()
	switch {
	case fixed == name:
		return "", ""
	case allCaps:
		why = "ALL_CAPS with underscores"
	case strings.Contains(name, "_"):
		why = "underscores"
	default:
		if !ast.IsExported(name) {
			return "", "" // initialisms are checked in exported names only
		}
		why = "a mixed-case initialism"
	}
	return fixed, why
}

// suspectLine is the pre-filter: a changed line may declare a bad name
// only if it holds an underscore between letters or a mixed-case
// initialism word.
func suspectLine(line string) bool {
	for i := 0; i+1 < len(line); i++ {
		c := line[i]
		switch {
		case c == '_':
			if i > 0 && isAlnum(line[i-1]) && isAlnum(line[i+1]) {
				return true
			}
		case c >= 'A' && c <= 'Z':
			if i > 0 && line[i-1] >= 'A' && line[i-1] <= 'Z' {
				continue
			}
			j := i + 1
			for j < len(line) && line[j] >= 'a' && line[j] <= 'z' {
				j++
			}
			if j > i+1 && j-i <= 6 && mixedInitialisms[line[i:j]] {
				return true
			}
			i = j - 1
		}
	}
	return false
}

// mixedInitialisms are the initialisms in title case, singular and
// plural ("Id", "Ids", "Http"): the spellings the pre-filter looks for.
var mixedInitialisms = func() map[string]bool {
	m := map[string]bool{}
	for w := range goInitialisms {
		t := w[:1] + strings.ToLower(w[1:])
		m[t], m[t+"s"] = true, true
	}
	return m
}()

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func runGoNaming(p *lens.Pass) {
	suspect := false
	lens.EachChangedLine(p.File, func(n int, line string) { suspect = suspect || suspectLine(line) })
	if !suspect {
		return
	}
	g := syntax.Go(p.File)
	if g.File == nil || ast.IsGenerated(g.File) || lens.GoImportName(g.File, "C") != "" {
		return
	}
	// Code next to the operating system mirrors its C names (O_RDONLY,
	// s_IFMT): only initialisms are checked there.
	lowLevel := systemFile(g.File)
	test := strings.HasSuffix(p.File.Path, "_test.go")
	pkgNames := map[string]bool{}
	for _, d := range lens.GoDecls(p.File) {
		declNames(d.Decl, func(id *ast.Ident) { pkgNames[id.Name] = true })
	}
	for _, d := range lens.GoChangedDecls(p.File) {
		fd, _ := d.Decl.(*ast.FuncDecl)
		check := func(id *ast.Ident, kind string, local bool) {
			line := g.Line(id.Pos())
			if !p.Changed(line) {
				return
			}
			fixed, why := goNameFix(id.Name)
			if fixed == "" || lowLevel && why != "a mixed-case initialism" || mirrorsC(id.Name) || keywordEscape(id.Name) {
				return
			}
			r := lens.Report{
				Line: line, Col: g.Col(id.Pos()), EndCol: g.Col(id.End()),
				Title: fmt.Sprintf("%s %s uses %s", kind, id.Name, why),
				Message: fmt.Sprintf("The %s %s uses %s; Go names use MixedCaps with initialisms in one case, so "+
					"linters flag it and it reads as foreign in the package's API.", kind, id.Name, why),
				Suggested: fmt.Sprintf("Rename it to %s.", fixed),
			}
			if fd != nil {
				r.Symbol = syntax.GoFuncName(fd)
				if local {
					r.Fix = renameLocalFix(p, g, fd, id.Name, fixed, pkgNames)
				}
			}
			p.Report(r)
		}
		if fd == nil {
			if gd, ok := d.Decl.(*ast.GenDecl); ok {
				genDeclNames(gd, check)
			}
			continue
		}
		if !(test && isTestFunc(fd.Name.Name)) && !exportedToC(fd) && fd.Body != nil {
			kind := "function"
			if fd.Recv != nil {
				kind = "method"
			}
			check(fd.Name, kind, false)
		}
		fields(fd.Recv, "receiver", true, check)
		fields(fd.Type.TypeParams, "type parameter", false, check)
		fields(fd.Type.Params, "parameter", true, check)
		fields(fd.Type.Results, "result", true, check)
		if fd.Body != nil {
			localNames(fd.Body, check)
		}
	}
}

// systemFile reports a file that works next to the operating system or
// the runtime: it imports unsafe, syscall or golang.org/x/sys.
func systemFile(f *ast.File) bool {
	for _, imp := range f.Imports {
		p := strings.Trim(imp.Path.Value, `"`)
		if p == "unsafe" || p == "syscall" || strings.HasPrefix(p, "golang.org/x/sys/") {
			return true
		}
	}
	return false
}

// mirrorsC reports a name that copies a C constant behind a short
// lower-case prefix, such as s_IFMT or c_ISUID.
func mirrorsC(name string) bool {
	prefix, rest, ok := strings.Cut(name, "_")
	return ok && len(prefix) <= 2 && strings.ToLower(prefix) == prefix && rest != "" &&
		strings.ToUpper(rest) == rest && strings.ToLower(rest) != rest
}

// keywordEscape reports a name with one trailing underscore that avoids a
// keyword or a predeclared name (type_, import_, len_).
func keywordEscape(name string) bool {
	stem, ok := strings.CutSuffix(name, "_")
	return ok && stem != "" && !strings.Contains(stem, "_")
}

// isTestFunc reports the names of test, benchmark, example and fuzz
// functions, whose underscores carry meaning.
func isTestFunc(name string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

func exportedToC(fd *ast.FuncDecl) bool {
	if fd.Doc == nil {
		return false
	}
	for _, c := range fd.Doc.List {
		if strings.HasPrefix(c.Text, "//export ") {
			return true
		}
	}
	return false
}

type nameCheck func(id *ast.Ident, kind string, local bool)

func fields(fl *ast.FieldList, kind string, local bool, check nameCheck) {
	if fl == nil {
		return
	}
	for _, f := range fl.List {
		for _, n := range f.Names {
			check(n, kind, local)
		}
	}
}

// structFields checks the fields of struct types and the methods of
// interface types declared in a type expression.
func structFields(e ast.Expr, check nameCheck) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch t := n.(type) {
		case *ast.StructType:
			fields(t.Fields, "field", false, check)
		case *ast.InterfaceType:
			fields(t.Methods, "method", false, check)
		case *ast.FuncLit:
			return false
		}
		return true
	})
}

func genDeclNames(gd *ast.GenDecl, check nameCheck) {
	kind := map[token.Token]string{token.CONST: "constant", token.VAR: "variable", token.TYPE: "type"}[gd.Tok]
	for _, s := range gd.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			check(s.Name, kind, false)
			fields(s.TypeParams, "type parameter", false, check)
			structFields(s.Type, check)
		case *ast.ValueSpec:
			for _, n := range s.Names {
				check(n, kind, false)
			}
			if s.Type != nil {
				structFields(s.Type, check)
			}
		}
	}
}

// localNames checks the names declared inside a function body.
func localNames(body *ast.BlockStmt, check nameCheck) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						check(id, "variable", true)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						check(id, "variable", true)
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := n.Decl.(*ast.GenDecl); ok {
				for _, s := range gd.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						kind := "variable"
						if gd.Tok == token.CONST {
							kind = "constant"
						}
						for _, id := range s.Names {
							check(id, kind, true)
						}
					case *ast.TypeSpec:
						check(s.Name, "type", true)
					}
				}
			}
		case *ast.FuncLit:
			fields(n.Type.Params, "parameter", true, check)
			fields(n.Type.Results, "result", true, check)
		}
		return true
	})
}

// declNames calls fn for each name a top-level declaration introduces.
func declNames(d ast.Decl, fn func(*ast.Ident)) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			fn(d.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				fn(s.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					fn(n)
				}
			case *ast.ImportSpec:
				if s.Name != nil {
					fn(s.Name)
				}
			}
		}
	}
}

// renameLocalFix renames a function-local name at every use in the
// function. Without type information it refuses whenever a use could be
// something else: a package-level name, a struct-literal key, an existing
// name equal to the new one, or more than one declaration.
func renameLocalFix(p *lens.Pass, g *syntax.GoFile, fd *ast.FuncDecl, old, fixed string, pkgNames map[string]bool) *review.Fix {
	if pkgNames[old] || pkgNames[fixed] {
		return nil
	}
	var uses []*ast.Ident
	decls := 0
	ok := true
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(x ast.Node) bool {
				if id, isID := x.(*ast.Ident); isID && id.Name == old {
					uses = append(uses, id)
				}
				return true
			})
			return false
		case *ast.KeyValueExpr:
			if id, isID := n.Key.(*ast.Ident); isID && id.Name == old {
				ok = false
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, isID := e.(*ast.Ident); isID && id.Name == old {
						decls++
					}
				}
			}
		case *ast.Field:
			for _, id := range n.Names {
				if id.Name == old {
					decls++
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if id.Name == old {
					decls++
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, isID := e.(*ast.Ident); isID && id.Name == old && n.Tok == token.DEFINE {
					decls++
				}
			}
		case *ast.Ident:
			switch n.Name {
			case fixed:
				ok = false
			case old:
				uses = append(uses, n)
			}
		}
		return ok
	})
	if !ok || decls != 1 || len(uses) == 0 {
		return nil
	}
	sort.Slice(uses, func(i, j int) bool { return uses[i].Pos() < uses[j].Pos() })
	edits := make([]review.TextEdit, len(uses))
	for i, id := range uses {
		line := g.Line(id.Pos())
		edits[i] = review.TextEdit{
			Span:    review.Span{Path: p.File.Path, StartLine: line, StartCol: g.Col(id.Pos()), EndLine: line, EndCol: g.Col(id.End())},
			NewText: fixed,
		}
	}
	return &review.Fix{Title: fmt.Sprintf("Rename %s to %s", old, fixed), Edits: edits}
}
