package security

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// GoTemplateUnescaped finds html/template's trusted-content types made
// from values that are neither constant nor escaped.
var GoTemplateUnescaped = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/go-template-unescaped",
		Perspective: review.Security,
		Category:    CatInjection,
		Severity:    review.SeverityHigh,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthStandard,
		Skill:       "CWE-79",
		Summary:     "Unescaped value marked safe for html/template",
		Doc: "html/template escapes every value it inserts, except values of its trusted types: converting a string " +
			"to template.HTML, JS, URL, HTMLAttr, CSS, JSStr or Srcset tells it the content is already safe, so it is " +
			"inserted as is. If any part of the string comes from a user (a form field, a query parameter, a stored " +
			"comment, Markdown rendered to HTML), markup such as `<img src=x onerror=...>` or a `javascript:` URL in " +
			"it runs script in the viewer's session (XSS); the finding says so more strongly when the value comes " +
			"from the request in the same function (r.FormValue, r.URL.Query(), r.Header, mux.Vars, c.Param, " +
			"c.Query). Pass the plain string and let the template escape it, or sanitize HTML first (bluemonday's " +
			"UGCPolicy().Sanitize). Not reported: constant strings and concatenations of constants, the output of an " +
			"escaper or sanitizer (html.EscapeString, template.HTMLEscapeString, url.QueryEscape, a function whose " +
			"name contains sanitize or escape), base64 and number formatting, fmt.Sprintf of such values (numbers " +
			"under %d, %x, %f are safe), variables assigned only such values, a buffer written only such values or " +
			"filled by a template's Execute (`template.HTML(buf.String())`), and test files. A helper that converts " +
			"its own parameter (a FuncMap's `\"safe\": func(s string) template.HTML`) is reported as Medium: the " +
			"risk is in what its callers pass.",
		Bad:  "data := Page{Bio: template.HTML(r.FormValue(\"bio\"))}",
		Good: "data := Page{Bio: r.FormValue(\"bio\")} // the template escapes it",
	},
	Run: runGoTemplateUnescaped,
}

// trustedTemplateTypes are html/template's types whose content is
// inserted without escaping.
var trustedTemplateTypes = []string{"HTML", "JS", "URL", "HTMLAttr", "CSS", "JSStr", "Srcset"}

// requestSourceRE matches expressions that read the HTTP request: net/http,
// gorilla/mux, chi, gin and echo.
var requestSourceRE = regexp.MustCompile(`\.(?:FormValue|PostFormValue|PathValue|QueryParam|QueryParams|DefaultQuery|GetQuery|Param|Params|Cookie|FormFile)\(|\.URL\.(?:Query\(\)|Path\b|RawQuery\b|RawPath\b)|\.Header\.Get\(|\.GetHeader\(|\b(?:r|req|request)\.(?:Form|PostForm|Body)\b|\bmux\.Vars\(|\bchi\.URLParam\(|\bc\.(?:Query|PostForm)\(`)

func runGoTemplateUnescaped(p *lens.Pass) {
	if !p.Contains("html/template") || review.IsTestPath(p.File.Path) {
		return
	}
	names, decls := lens.GoUses(p.File, []string{"html/template"})
	pkg := lens.NameOf(names, "html/template")
	if pkg == "" {
		return
	}
	g := syntax.Go(p.File)
	consts := shellGoConsts(g.File)
	for _, d := range decls {
		lens.GoInspectStack(d, func(n ast.Node, stack []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !lens.IsGoPkgCall(call, pkg, trustedTemplateTypes...) {
				return true
			}
			line := g.Line(call.Pos())
			if !p.Changed(line) {
				return true
			}
			var fn ast.Node
			var ft *ast.FuncType
			for i := len(stack) - 2; i >= 0 && fn == nil; i-- {
				if t, body := lens.GoFuncBody(stack[i]); body != nil {
					fn, ft = body, t
				}
			}
			x := call.Args[0]
			if fn == nil || templateSafeValue(p.File, x, fn, consts, 0) {
				return true
			}
			typ := pkg + "." + call.Fun.(*ast.SelectorExpr).Sel.Name
			val := lens.Snippet(lens.GoText(p.File, x))
			msg := fmt.Sprintf("%s(%s) marks the value as safe, so html/template inserts it without escaping: if any "+
				"part of it comes from a user, markup such as <img src=x onerror=...> or a javascript: URL in it runs "+
				"script in the viewer's session (XSS).", typ, val)
			var sev review.Severity
			if src := requestTainted(p.File, x, fn); src != "" {
				msg = fmt.Sprintf("%s(%s) inserts a value read from the request (%s) into the page without escaping: "+
					"anyone can send a victim a link whose parameters carry <script> or an onerror= handler, which then "+
					"runs in the victim's session (reflected XSS).", typ, val, lens.Snippet(src))
			} else if param := templateParam(x, ft); param != "" {
				sev = review.SeverityMedium
				msg = fmt.Sprintf("%s(%s) turns the %s parameter into trusted content: every caller's value (a template "+
					"pipeline such as {{.Bio | safe}} included) is inserted without escaping, so any user-supplied "+
					"part runs as markup or script in the viewer's session (XSS).", typ, val, param)
			}
			p.Report(lens.Report{
				Line: line, Col: g.Col(call.Pos()), Symbol: g.EnclosingFunc(line),
				Message: msg, Severity: sev,
				Suggested: "Pass the plain string and let html/template escape it; if the value must carry HTML, sanitize it " +
					"first (bluemonday.UGCPolicy().Sanitize(s)).",
			})
			return true
		})
	}
}

// templateSafeValue reports whether e is a constant, an escaper's or
// sanitizer's output, a rendered template's buffer, or a local assigned
// only such values.
func templateSafeValue(f *review.File, e ast.Expr, fn ast.Node, consts map[string]bool, depth int) bool {
	e = ast.Unparen(e)
	if shellGoConstant(e, consts) {
		return true
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return x.Op == token.ADD && templateSafeValue(f, x.X, fn, consts, depth) && templateSafeValue(f, x.Y, fn, consts, depth)
	case *ast.CallExpr:
		_, name, _ := lens.GoCallee(x)
		lower := strings.ToLower(name)
		switch {
		case strings.Contains(lower, "sanitiz") || strings.Contains(lower, "escape") || templateSafeFuncs[name]:
			return true
		case name == "Sprintf" && depth < 3:
			return len(x.Args) > 0 && formatSafe(f, x.Args[0], x.Args[1:], fn, consts, depth+1)
		case name == "string" && len(x.Args) == 1 && depth < 3:
			return templateSafeValue(f, x.Args[0], fn, consts, depth+1) // string(p.SanitizeBytes(b))
		case (name == "String" || name == "Bytes") && len(x.Args) == 0 && depth < 3:
			// buf.String() after t.Execute(&buf, v) or safe writes only.
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				return executedInto(fn, sel.X) || bufferSafe(f, sel.X, fn, consts, depth+1)
			}
		}
	case *ast.Ident:
		if depth >= 3 {
			return false
		}
		vals, ok := assignedValues(fn, x.Name)
		if !ok || len(vals) == 0 {
			return false
		}
		for _, v := range vals {
			if !templateSafeValue(f, v, fn, consts, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// templateSafeFuncs return text that holds no markup: encodings and
// number formatting.
var templateSafeFuncs = map[string]bool{
	"EncodeToString": true, "Itoa": true, "FormatInt": true, "FormatUint": true, "FormatFloat": true,
	"FormatBool": true, "len": true,
}

// formatVerbRE matches a fmt verb with its flags, width and precision.
var formatVerbRE = regexp.MustCompile(`%[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?([a-zA-Z%])`)

// formatSafe reports a constant format whose %s, %v and %q arguments are
// safe values; numbers (%d, %x, %f, ...) cannot carry markup.
func formatSafe(f *review.File, format ast.Expr, args []ast.Expr, fn ast.Node, consts map[string]bool, depth int) bool {
	lit, ok := ast.Unparen(format).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	i := 0
	for _, m := range formatVerbRE.FindAllStringSubmatch(lit.Value, -1) {
		verb := m[1]
		if verb == "%" {
			continue
		}
		if strings.Contains(m[0], "*") || i >= len(args) {
			return false
		}
		switch verb {
		case "d", "b", "o", "O", "x", "X", "e", "E", "f", "F", "g", "G", "t", "U":
		default:
			if !templateSafeValue(f, args[i], fn, consts, depth) {
				return false
			}
		}
		i++
	}
	return i == len(args)
}

// bufferSafe reports a local bytes.Buffer or strings.Builder that fn
// writes only safe values to (WriteString, Write, WriteByte, WriteRune,
// fmt.Fprintf and fmt.Fprint into it), and passes nowhere else.
func bufferSafe(f *review.File, buf ast.Expr, fn ast.Node, consts map[string]bool, depth int) bool {
	id, ok := ast.Unparen(buf).(*ast.Ident)
	if !ok {
		return false
	}
	isBuf := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		x, ok := e.(*ast.Ident)
		return ok && x.Name == id.Name
	}
	safe, writes := true, 0
	ast.Inspect(fn, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !safe {
			return safe
		}
		_, name, _ := lens.GoCallee(call)
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && isBuf(sel.X) {
			switch name {
			case "WriteString", "Write", "WriteByte", "WriteRune":
				writes++
				safe = len(call.Args) == 1 && templateSafeValue(f, call.Args[0], fn, consts, depth)
				return false
			}
			return true // Reset, Len, String, Bytes
		}
		for i, a := range call.Args {
			if !isBuf(a) {
				continue
			}
			switch {
			case i == 0 && name == "Fprintf" && len(call.Args) > 1:
				writes++
				safe = formatSafe(f, call.Args[1], call.Args[2:], fn, consts, depth)
			case i == 0 && (name == "Fprint" || name == "Fprintln" || name == "WriteString"):
				writes++
				for _, v := range call.Args[1:] {
					safe = safe && templateSafeValue(f, v, fn, consts, depth)
				}
			default:
				safe = false // written by code the rule does not see
			}
			return false
		}
		return true
	})
	return safe && writes > 0
}

// executedInto reports whether buf (or &buf) is the writer of a template
// Execute or ExecuteTemplate call in fn.
func executedInto(fn ast.Node, buf ast.Expr) bool {
	name := syntax.GoChain(buf)
	if name == "" {
		return false
	}
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found || len(call.Args) == 0 {
			return !found
		}
		if _, callee, _ := lens.GoCallee(call); callee == "Execute" || callee == "ExecuteTemplate" {
			w := ast.Unparen(call.Args[0])
			if u, ok := w.(*ast.UnaryExpr); ok && u.Op == token.AND {
				w = u.X
			}
			found = syntax.GoChain(w) == name
		}
		return !found
	})
	return found
}

// assignedValues returns every value assigned to the local name in fn;
// ok is false when one assignment cannot be followed (a compound `+=`
// with a non-literal, a multi-value call, a range).
func assignedValues(fn ast.Node, name string) (vals []ast.Expr, ok bool) {
	ok = true
	ast.Inspect(fn, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				id, isID := l.(*ast.Ident)
				if !isID || id.Name != name {
					continue
				}
				if len(s.Rhs) != len(s.Lhs) {
					ok = false
					continue
				}
				vals = append(vals, s.Rhs[i])
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if id.Name == name && i < len(s.Values) && len(s.Values) == len(s.Names) {
					vals = append(vals, s.Values[i])
				} else if id.Name == name && len(s.Values) > 0 {
					ok = false
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if id, isID := e.(*ast.Ident); isID && id.Name == name {
					ok = false
				}
			}
		}
		return true
	})
	return vals, ok
}

// requestTainted returns the request read that e derives from in fn, or
// "": e itself reads the request, or mentions a local assigned (directly
// or through other locals) from an expression that does.
func requestTainted(f *review.File, e ast.Expr, fn ast.Node) string {
	if m := requestSourceRE.FindString(lens.GoText(f, e)); m != "" {
		return lens.GoText(f, e)
	}
	tainted := map[string]string{}
	for changed := true; changed; {
		changed = false
		ast.Inspect(fn, func(n ast.Node) bool {
			var lhs, rhs []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = s.Lhs, s.Rhs
			case *ast.RangeStmt:
				lhs, rhs = []ast.Expr{s.Key, s.Value}, []ast.Expr{s.X}
			case *ast.ValueSpec:
				for _, id := range s.Names {
					lhs = append(lhs, id)
				}
				rhs = s.Values
			default:
				return true
			}
			src := ""
			for _, r := range rhs {
				if text := lens.GoText(f, r); requestSourceRE.MatchString(text) {
					src = text
				} else if s := mentionsTainted(r, tainted); s != "" {
					src = s
				}
			}
			if src == "" {
				return true
			}
			for _, l := range lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" && tainted[id.Name] == "" {
					tainted[id.Name] = src
					changed = true
				}
			}
			return true
		})
	}
	return mentionsTainted(e, tainted)
}

// mentionsTainted returns the source of the first tainted identifier in e.
func mentionsTainted(e ast.Node, tainted map[string]string) string {
	src := ""
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && src == "" {
			src = tainted[id.Name]
		}
		return src == ""
	})
	return src
}

// templateParam returns the name of the parameter of ft that e is, or "".
func templateParam(e ast.Expr, ft *ast.FuncType) string {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || ft == nil {
		return ""
	}
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			if n.Name == id.Name {
				return id.Name
			}
		}
	}
	return ""
}
