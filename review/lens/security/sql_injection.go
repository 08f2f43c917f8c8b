package security

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// SQLInjection finds SQL statements built from non-constant values and
// passed to a query API.
var SQLInjection = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/sql-injection",
		Perspective: review.Security,
		Category:    CatInjection,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangGo, review.LangPython}, lens.JSLangs...),
		Depth:       review.DepthStandard,
		Skill:       "CWE-89",
		Summary:     "SQL built from untrusted values",
		Doc: "A SQL statement assembled with string formatting or concatenation (fmt.Sprintf or + in Go; " +
			"f-strings, % or .format() in Python; template literals or + in JavaScript) and handed to a query " +
			"API lets a value containing a quote rewrite the statement: `' OR '1'='1` returns every row, and " +
			"`'; DROP TABLE users; --` destroys data. Keep the statement constant and pass values as parameters " +
			"($1, ?, %s with a parameter tuple); check identifiers such as table or column names against an " +
			"allowlist. Not reported: constant strings with placeholders, numbers formatted with %d or strconv, " +
			"placeholder lists built with strings.Join or strings.Repeat, fragments built only from constants, " +
			"tagged templates (sql`...`) and test files. Values reaching the query through other functions are " +
			"not followed.",
		Bad:  "rows, err := db.QueryContext(ctx, \"SELECT id FROM users WHERE name = '\"+name+\"'\")",
		Good: "rows, err := db.QueryContext(ctx, \"SELECT id FROM users WHERE name = $1\", name)",
	},
	Run: runSQLInjection,
}

const sqlSuggested = "Keep the statement constant and pass the values as query arguments (placeholders such as $1 or ?); " +
	"check dynamic identifiers such as table or column names against an allowlist."

func sqlMessage(api, how string) string {
	return fmt.Sprintf("The SQL passed to %s is built with %s: a value containing a quote (such as `' OR '1'='1`) "+
		"rewrites the statement, so whoever controls it can read or change other rows, or drop tables.", api, how)
}

// sqlKeywordRE finds SQL in a string literal.
var sqlKeywordRE = regexp.MustCompile(`(?i)\b(select\s.+\sfrom|insert\s+into|update\s+\S+\s+set|delete\s+from|where\s|order\s+by|group\s+by|values\s*\(|join\s)`)

func runSQLInjection(p *lens.Pass) {
	if review.IsTestPath(p.File.Path) {
		return
	}
	switch lang := p.File.Language; {
	case lang == review.LangGo:
		sqlGo(p)
	case lang == review.LangPython:
		if p.Contains("execute") {
			pySQL.run(p)
		}
	case lang.IsJS():
		if p.Contains("query") || p.Contains("execute") || p.Contains("raw") || p.Contains("Unsafe") {
			jsSQL.run(p)
		}
	}
}

// sqlMethods maps query methods (database/sql, sqlx, gorm) to the index
// of their query argument.
var sqlMethods = map[string]int{
	"Query": 0, "QueryRow": 0, "Exec": 0, "Prepare": 0,
	"QueryContext": 1, "QueryRowContext": 1, "ExecContext": 1, "PrepareContext": 1,
	"Queryx": 0, "QueryRowx": 0, "MustExec": 0, "QueryxContext": 1, "QueryRowxContext": 1, "MustExecContext": 1,
	"Select": 1, "Get": 1, "SelectContext": 2, "GetContext": 2, "Raw": 0,
}

// goSQLHint is the cheap pre-filter of a changed line: a call of a query
// method, or a string that starts with SQL.
func goSQLHint(line string) bool {
	for i := strings.IndexByte(line, '('); i >= 0; {
		j := i
		for j > 0 && lens.GoIdentByte(line[j-1]) {
			j--
		}
		// Query methods start with one of these capitals.
		if j > 0 && j < i && line[j-1] == '.' && strings.IndexByte("QEPSGRM", line[j]) >= 0 {
			if _, ok := sqlMethods[line[j:i]]; ok {
				return true
			}
		}
		k := strings.IndexByte(line[i+1:], '(')
		if k < 0 {
			break
		}
		i += k + 1
	}
	for _, q := range []byte{'"', '`'} {
		for i := strings.IndexByte(line, q); i >= 0; {
			rest := line[i+1:]
			for _, kw := range sqlStarts {
				if rest == "" || rest[0]|0x20 != kw[0] {
					continue
				}
				if len(rest) > len(kw) && strings.EqualFold(rest[:len(kw)], kw) {
					return true
				}
			}
			k := strings.IndexByte(rest, q)
			if k < 0 {
				break
			}
			i += k + 1
		}
	}
	return false
}

// sqlStarts are the words SQL statements start with.
var sqlStarts = []string{"select ", "insert ", "update ", "delete ", "with ", "replace "}

func sqlGo(p *lens.Pass) {
	g := syntax.Go(p.File)
	if g.File == nil {
		return
	}
	decls := lens.GoDeclsWithChangedLine(p.File, goSQLHint)
	if len(decls) == 0 {
		return
	}
	s := &sqlScan{p: p, g: g, fmtPkg: lens.GoImportName(g.File, "fmt"), strconvPkg: lens.GoImportName(g.File, "strconv"),
		stringsPkg: lens.GoImportName(g.File, "strings"), consts: packageConsts(g.File)}
	for _, d := range decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			s.fn(fd)
		}
	}
}

// packageConsts returns the package-level constants of the file and its
// variables initialised with a string literal.
func packageConsts(file *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST && gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if gd.Tok == token.CONST {
					out[n.Name] = true
				} else if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

type sqlScan struct {
	p                              *lens.Pass
	g                              *syntax.GoFile
	fmtPkg, strconvPkg, stringsPkg string
	consts                         map[string]bool

	// assigns maps the local variables of the function to the
	// statements that give them a value.
	assigns map[string][]sqlAssign
}

type sqlAssign struct {
	stmt  ast.Node
	value ast.Expr
	// appends reports `q += value`.
	appends bool
}

func (s *sqlScan) fn(fd *ast.FuncDecl) {
	s.assigns = map[string][]sqlAssign{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					s.assigns[id.Name] = append(s.assigns[id.Name], sqlAssign{n, n.Rhs[i], n.Tok == token.ADD_ASSIGN})
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					s.assigns[id.Name] = append(s.assigns[id.Name], sqlAssign{n, n.Values[i], false})
				}
			}
		}
		return true
	})
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		i, ok := sqlMethods[sel.Sel.Name]
		if !ok || i >= len(call.Args) {
			return true
		}
		how, at := s.dynamic(call.Args[i], 0)
		if how == "" {
			return true
		}
		line := s.g.Line(call.Pos())
		if !s.p.Changed(line) {
			if at == nil || !s.p.Changed(s.g.Line(at.Pos())) {
				return true
			}
			line = s.g.Line(at.Pos())
		}
		api := sel.Sel.Name
		if q := syntax.GoChain(sel.X); q != "" && len(q) < 20 {
			api = q + "." + api
		}
		s.p.Report(lens.Report{
			Line:      line,
			Symbol:    syntax.GoFuncName(fd),
			Message:   sqlMessage(api, how),
			Suggested: sqlSuggested,
		})
		return true
	})
}

// sqlDepth bounds how far variables are followed back to their values.
const sqlDepth = 3

// dynamic explains how e builds SQL from a non-constant value ("fmt.Sprintf
// with %s of name"), or returns "" when e is constant, safe or unknown.
// at is the statement that builds it, when it is not e itself.
func (s *sqlScan) dynamic(e ast.Expr, depth int) (how string, at ast.Node) {
	if depth > sqlDepth {
		return "", nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		for _, a := range s.assigns[e.Name] {
			if how, _ := s.dynamic(a.value, depth+1); how != "" {
				return how, a.stmt
			}
			if a.appends && !s.safeOperand(a.value, depth+1) && hasSQL(s.literalText(s.assigns[e.Name])) {
				return fmt.Sprintf("`%s +=` of %s", e.Name, s.text(a.value)), a.stmt
			}
		}
	case *ast.CallExpr:
		if !lens.IsGoPkgCall(e, s.fmtPkg, "Sprintf") || len(e.Args) == 0 {
			return "", nil
		}
		format, ok := s.constString(e.Args[0])
		if !ok || !hasSQL(format) {
			return "", nil
		}
		for i, verb := range formatVerbs(format) {
			if i+1 >= len(e.Args) {
				break
			}
			if strings.ContainsRune("svqx", verb) && !s.safeOperand(e.Args[i+1], depth+1) {
				return fmt.Sprintf("fmt.Sprintf formatting %s with %%%c", s.text(e.Args[i+1]), verb), nil
			}
		}
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", nil
		}
		var parts []ast.Expr
		flattenAdd(e, &parts)
		var lits strings.Builder
		var bad ast.Expr
		for _, x := range parts {
			if str, ok := s.constString(x); ok {
				lits.WriteString(str)
			} else if bad == nil && !s.safeOperand(x, depth+1) {
				bad = x
			}
		}
		if bad != nil && hasSQL(lits.String()) {
			return "concatenation of " + s.text(bad), nil
		}
	}
	return "", nil
}

// literalText joins the constant parts assigned to a variable.
func (s *sqlScan) literalText(as []sqlAssign) string {
	var b strings.Builder
	for _, a := range as {
		if str, ok := s.constString(a.value); ok {
			b.WriteString(str)
		}
		if be, ok := a.value.(*ast.BinaryExpr); ok {
			var parts []ast.Expr
			flattenAdd(be, &parts)
			for _, x := range parts {
				if str, ok := s.constString(x); ok {
					b.WriteString(str)
				}
			}
		}
	}
	return b.String()
}

func flattenAdd(e ast.Expr, out *[]ast.Expr) {
	if be, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && be.Op == token.ADD {
		flattenAdd(be.X, out)
		flattenAdd(be.Y, out)
		return
	}
	*out = append(*out, e)
}

// constString returns the value of a string literal.
func (s *sqlScan) constString(e ast.Expr) (string, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// safeOperand reports whether a value spliced into SQL cannot change the
// statement's structure: constants, numbers, placeholder lists, and local
// variables built only from those.
func (s *sqlScan) safeOperand(e ast.Expr, depth int) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		if s.consts[e.Name] || e.Name == "true" || e.Name == "false" {
			return true
		}
		as := s.assigns[e.Name]
		if len(as) == 0 || depth > sqlDepth {
			return false // a parameter or package variable: unknown origin
		}
		for _, a := range as {
			if !s.safeOperand(a.value, depth+1) {
				return false
			}
		}
		return true
	case *ast.SliceExpr:
		return s.safeOperand(e.X, depth)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return true // arithmetic yields a number
		}
		return s.safeOperand(e.X, depth) && s.safeOperand(e.Y, depth)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
			return true
		}
		return lens.IsGoPkgCall(e, s.strconvPkg) || lens.IsGoPkgCall(e, s.stringsPkg, "Join", "Repeat") ||
			lens.IsGoPkgCall(e, s.fmtPkg, "Sprint") && len(e.Args) == 1 && s.safeOperand(e.Args[0], depth)
	}
	return false
}

func (s *sqlScan) text(e ast.Expr) string {
	t := lens.GoText(s.p.File, e)
	if len(t) > 40 || strings.Contains(t, "\n") {
		return "a computed value"
	}
	return "`" + t + "`"
}

func hasSQL(s string) bool { return sqlKeywordRE.MatchString(s) }

// formatVerbs returns the verbs of a printf format in argument order.
func formatVerbs(format string) []rune {
	var verbs []rune
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] != '%' {
			verbs = append(verbs, rune(format[i]))
		}
	}
	return verbs
}

var (
	pyExecuteRE = regexp.MustCompile(`\.(?:execute|executemany|executescript)\(\s*(.*)$`)
	pyAssignRE  = regexp.MustCompile(`^\s*(\w+)\s*=\s*(.*)$`)
)

// leadingString splits a string literal that starts s (after at most two
// prefix letters from prefixes) into its prefix, body and the trimmed text
// after it. Triple quotes count only when they close on the same line.
func leadingString(s, quotes, prefixes string) (prefix, body, rest string, ok bool) {
	i := 0
	for i < len(s) && i < 2 && strings.IndexByte(prefixes, s[i]) >= 0 {
		i++
	}
	if i >= len(s) || strings.IndexByte(quotes, s[i]) < 0 {
		return "", "", "", false
	}
	q := s[i : i+1]
	if strings.HasPrefix(s[i:], q+q+q) {
		q += q + q
	}
	start := i + len(q)
	for j := start; j+len(q) <= len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(s[j:], q) {
			return s[:i], s[start:j], strings.TrimSpace(s[j+len(q):]), true
		}
	}
	return "", "", "", false
}

// pyDynamicSQL explains how a Python expression builds SQL, or returns "".
func pyDynamicSQL(expr string) string {
	prefix, body, rest, ok := leadingString(expr, `"'`, "rRbBuUfF")
	if !ok || !hasSQL(body) {
		return ""
	}
	switch {
	case strings.ContainsAny(prefix, "fF") && strings.Contains(body, "{"):
		return "an f-string"
	case strings.HasPrefix(rest, "%"):
		return "% formatting"
	case strings.HasPrefix(rest, "+"):
		return "concatenation"
	case strings.HasPrefix(rest, ".format("):
		return "str.format"
	}
	return ""
}

func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !lens.GoIdentByte(s[i]) {
			return false
		}
	}
	return true
}

var (
	jsQueryRE  = regexp.MustCompile(`\.(?:query|execute|raw|\$queryRawUnsafe|\$executeRawUnsafe)\(\s*(.*)$`)
	jsAssignRE = regexp.MustCompile(`^\s*(?:const|let|var)?\s*(\w+)\s*=\s*(.*)$`)
)

// jsDynamicSQL explains how a JavaScript expression builds SQL, or "".
func jsDynamicSQL(expr string) string {
	prefix, body, rest, ok := leadingString(expr, "`\"'", "")
	if !ok || prefix != "" || !hasSQL(body) {
		return ""
	}
	switch {
	case strings.HasPrefix(expr, "`") && strings.Contains(body, "${"):
		return "a template literal"
	case strings.HasPrefix(rest, "+"):
		if next := strings.TrimSpace(rest[1:]); next != "" && !strings.ContainsRune("'\"`", rune(next[0])) {
			return "concatenation"
		}
	}
	return ""
}

// sqlScript is a scripting language's side of the rule.
type sqlScript struct {
	query   *regexp.Regexp // a query call; group 1 holds its arguments
	assign  *regexp.Regexp // an assignment; groups 1 and 2 hold the name and value
	stop    *regexp.Regexp // a line the search for an assignment stops at, or nil
	dynamic func(expr string) string
	api     string // the API named in the message
	suggest string
}

var (
	pySQL = &sqlScript{query: pyExecuteRE, assign: pyAssignRE, stop: pyDefRE, dynamic: pyDynamicSQL, api: "execute",
		suggest: "Pass the values as parameters: cursor.execute(\"SELECT ... WHERE name = %s\", (name,)); check dynamic " +
			"identifiers against an allowlist."}
	jsSQL = &sqlScript{query: jsQueryRE, assign: jsAssignRE, dynamic: jsDynamicSQL, api: "the query",
		suggest: "Pass the values as parameters: db.query('SELECT ... WHERE name = $1', [name]), or use a tagged " +
			"template (sql`...`) that parameterises them."}
)

func (sc *sqlScript) run(p *lens.Pass) {
	lines := p.Lines()
	lens.EachChangedLine(p.File, func(n int, line string) {
		code := codeOf(p.File, n, line)
		m := sc.query.FindStringSubmatch(code)
		if m == nil {
			return
		}
		arg := strings.TrimSpace(m[1])
		if arg == "" && n < len(lines) {
			arg = strings.TrimSpace(lines[n])
		}
		how := sc.dynamic(arg)
		if how == "" {
			// A variable: look for its last assignment in the function.
			name := arg
			if i := strings.IndexAny(name, ",)"); i >= 0 {
				name = strings.TrimSpace(name[:i])
			}
			if name != "" && isWord(name) {
				how = sc.assigned(lines, n, name)
			}
		}
		if how == "" {
			return
		}
		p.Report(lens.Report{Line: n, Message: sqlMessage(sc.api, how), Suggested: sc.suggest})
	})
}

// assigned looks back from line n (at most 40 lines, not past a line
// matching sc.stop) for the assignment of name, and explains how it builds
// SQL.
func (sc *sqlScript) assigned(lines []string, n int, name string) string {
	for i := n - 2; i >= 0 && i >= n-41; i-- {
		if sc.stop != nil && sc.stop.MatchString(lines[i]) {
			return ""
		}
		if m := sc.assign.FindStringSubmatch(lines[i]); m != nil && m[1] == name {
			if how := sc.dynamic(strings.TrimSpace(m[2])); how != "" {
				return how + " (line " + strconv.Itoa(i+1) + ")"
			}
			return ""
		}
	}
	return ""
}
