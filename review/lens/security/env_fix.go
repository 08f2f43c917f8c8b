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

// envFix returns the quick fix that replaces the string literal holding
// a secret — line n, bytes [from, to) of the line being exactly the
// literal's content — with a read of the secret from the environment in
// the language's idiom: os.Getenv("NAME") in Go (adding the import),
// os.environ["NAME"] in Python (adding the import), process.env.NAME in
// JavaScript and TypeScript, "${NAME}" in shell. NAME comes from the
// variable or key the literal is assigned to, else from kind (the
// detector, or the key a rule matched). It returns nil where there is no
// such fix: other languages (YAML, .env and JSON have no code to read the
// environment with), a secret that is only part of its string, a literal
// in a comment, an environment write, or a Go constant that a call cannot
// initialise.
func envFix(p *lens.Pass, n, from, to int, kind string) *review.Fix {
	line := p.Line(n)
	if from < 1 || to > len(line) || from >= to || inComment(p.File, n, from) {
		return nil
	}
	lang := p.File.Language
	start, end, ok := literalAround(lang, line, from, to)
	if !ok || envWriteRE.MatchString(line[:start]) {
		return nil
	}
	name := envName(line[:start], kind)
	if name == "" {
		return nil
	}
	edit := func(text string) review.TextEdit {
		return review.TextEdit{Span: review.Span{Path: p.File.Path, StartLine: n, StartCol: start + 1, EndLine: n, EndCol: end + 1}, NewText: text}
	}
	var edits []review.TextEdit
	switch {
	case lang == review.LangGo:
		extra, pkg, ok := goEnvEdits(p, n, start)
		if !ok {
			return nil
		}
		edits = append(extra, edit(pkg+`.Getenv("`+name+`")`))
	case lang == review.LangPython:
		edits = append(pyImportOS(p), edit(`os.environ["`+name+`"]`))
	case lang.IsJS():
		edits = []review.TextEdit{edit("process.env." + name)}
	case lang == review.LangShell:
		edits = []review.TextEdit{edit(`"${` + name + `}"`)}
	default:
		return nil
	}
	return &review.Fix{Title: fmt.Sprintf("Read the secret from the environment (%s)", name), Edits: edits}
}

// envWriteRE matches code that writes the environment just before a
// literal (os.Setenv("K", …), os.environ["K"] = …): reading the same
// variable there would be a no-op that fails when it is unset.
var envWriteRE = regexp.MustCompile(`(?i)(?:setenv|setdefault|putenv)\s*\(|environ\s*\[[^\]]*\]\s*=\s*$|process\.env\.\w+\s*=\s*$|process\.env\[[^\]]*\]\s*=\s*$`)

// inComment reports whether byte from of line n lies in a comment.
func inComment(f *review.File, n, from int) bool {
	parts := syntax.CommentParts(f)
	if n < 1 || n > len(parts) {
		return false
	}
	for _, c := range parts[n-1] {
		if from >= c.From && from < c.To {
			return true
		}
	}
	return false
}

// literalAround returns the byte range of the whole string literal whose
// content is line[from:to], quotes (and a Python r/u prefix) included, or
// false when line[from:to] is not a whole literal of lang. In shell an
// unquoted word counts too.
func literalAround(lang review.Language, line string, from, to int) (start, end int, ok bool) {
	quotes := "\"'"
	switch {
	case lang == review.LangGo || lang.IsJS():
		quotes = "\"'`"
	case lang == review.LangPython, lang == review.LangShell:
	default:
		return 0, 0, false
	}
	if lang == review.LangGo && line[from-1] == '\'' {
		return 0, 0, false // a rune literal
	}
	q := line[from-1]
	if strings.IndexByte(quotes, q) >= 0 && to < len(line) && line[to] == q {
		start, end = from-1, to+1
		// An escaped quote, or a quote doubled into a triple-quoted string,
		// is inside a longer string.
		if start > 0 && (line[start-1] == '\\' || line[start-1] == q) || end < len(line) && line[end] == q {
			return 0, 0, false
		}
		if lang == review.LangPython && start > 0 && isWordByte(line[start-1]) {
			switch line[start-1] {
			case 'r', 'R', 'u', 'U': // same value
				start--
				if start > 0 && isWordByte(line[start-1]) {
					return 0, 0, false
				}
			default: // f-, b- and rb-strings differ in kind
				return 0, 0, false
			}
		}
		if q == '`' && lang != review.LangGo && strings.Contains(line[from:to], "${") {
			return 0, 0, false
		}
		return start, end, true
	}
	if lang == review.LangShell && strings.IndexByte(`"'`, q) < 0 && strings.IndexByte(" \t=", q) >= 0 &&
		(to == len(line) || strings.IndexByte(" \t;|&)", line[to]) >= 0) {
		return from, to, true
	}
	return 0, 0, false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

var (
	// assignedREs find the name a literal is assigned to, as the code
	// before it ends, most specific first: var x T = (Go), x := / x = /
	// x: / "x": / x => / X= / x == (a comparison names it too), d["x"] =.
	assignedREs = []*regexp.Regexp{
		regexp.MustCompile(`\b(?:var|const)\s+([A-Za-z_][A-Za-z0-9_]*)\s+[A-Za-z_][A-Za-z0-9_.\[\]*]*\s*=\s*$`),
		regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)["']?\s*(?::=|=|:|=>|==|===|!=|!==)\s*$`),
		regexp.MustCompile(`\[\s*["']([A-Za-z_][A-Za-z0-9_-]*)["']\s*\]\s*=\s*$`),
	}
	// kindNames are the environment variables the providers document for
	// their credentials.
	kindNames = map[string]string{
		"AWS access key ID":            "AWS_ACCESS_KEY_ID",
		"GitHub token":                 "GITHUB_TOKEN",
		"GitHub fine-grained token":    "GITHUB_TOKEN",
		"Slack token":                  "SLACK_TOKEN",
		"Slack webhook URL":            "SLACK_WEBHOOK_URL",
		"Stripe live secret key":       "STRIPE_SECRET_KEY",
		"GitLab personal access token": "GITLAB_TOKEN",
		"npm access token":             "NPM_TOKEN",
		"OpenAI API key":               "OPENAI_API_KEY",
		"OpenAI project key":           "OPENAI_API_KEY",
		"Anthropic API key":            "ANTHROPIC_API_KEY",
		"SendGrid API key":             "SENDGRID_API_KEY",
		"Twilio API key":               "TWILIO_API_KEY",
		"Google API key":               "GOOGLE_API_KEY",
		"JSON web token":               "JWT",
	}
)

// envName returns the environment variable to read a secret from: the
// name the literal is assigned to when it names a credential (apiKey →
// API_KEY), else the kind's (GitHub token → GITHUB_TOKEN), else the
// assigned name whatever it is (a variable named after its provider,
// "slack", reads better as the provider's own variable).
func envName(before, kind string) string {
	assigned := ""
	for _, re := range assignedREs {
		if m := re.FindStringSubmatch(before); m != nil && len(m[1]) > 1 {
			assigned = upperSnake(m[1])
			break
		}
	}
	if assigned != "" && credentialWordRE.MatchString(assigned) {
		return assigned
	}
	if name, ok := kindNames[kind]; ok {
		return name
	}
	if assigned != "" {
		return assigned
	}
	return upperSnake(kind)
}

// credentialWordRE matches an UPPER_SNAKE name that says it holds a
// credential.
var credentialWordRE = regexp.MustCompile(`(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIAL|AUTH|AUTHORIZATION|WEBHOOK|DSN|JWT)S?(?:_|$)`)

// upperSnake converts an identifier or a phrase to UPPER_SNAKE_CASE:
// apiKey → API_KEY, APIKey → API_KEY, db-password → DB_PASSWORD.
func upperSnake(s string) string {
	var b strings.Builder
	sep := false // a word break is pending
	for i := 0; i < len(s); i++ {
		c := s[i]
		lower, upper, digit := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9'
		if !lower && !upper && !digit {
			sep = true
			continue
		}
		// A capital starts a word after a lower-case letter or a digit
		// (apiKey), or ends an acronym before a lower-case letter (APIKey).
		if upper && i > 0 {
			prev := s[i-1]
			nextLower := i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z'
			if prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' || prev >= 'A' && prev <= 'Z' && nextLower {
				sep = true
			}
		}
		if sep && b.Len() > 0 {
			b.WriteByte('_')
		}
		sep = false
		if lower {
			c -= 'a' - 'A'
		}
		b.WriteByte(c)
	}
	out := b.String()
	if out != "" && out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// goEnvEdits returns the edits a Go os.Getenv call at line n, byte start
// needs besides replacing the literal: the "os" import when the file lacks
// it, and const → var for a lone constant. os is the name the os package
// goes by in the file. It reports false where a call cannot replace the
// literal: a constant in a group, an import path or a struct tag, or a
// file that does not parse.
func goEnvEdits(p *lens.Pass, n, start int) (edits []review.TextEdit, pkg string, ok bool) {
	g := syntax.Go(p.File)
	if g.File == nil || g.Err != nil {
		return nil, "", false
	}
	var lit *ast.BasicLit
	var stack, path []ast.Node
	ast.Inspect(g.File, func(node ast.Node) bool {
		if node == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if lit != nil {
			return false
		}
		stack = append(stack, node)
		if b, isLit := node.(*ast.BasicLit); isLit && b.Kind == token.STRING && g.Line(b.Pos()) == n && g.Col(b.Pos()) == start+1 {
			lit, path = b, append([]ast.Node(nil), stack...)
		}
		return true
	})
	if lit == nil {
		return nil, "", false
	}
	for i := len(path) - 2; i >= 0; i-- {
		switch node := path[i].(type) {
		case *ast.ImportSpec:
			return nil, "", false
		case *ast.Field:
			if node.Tag == lit {
				return nil, "", false
			}
		case *ast.GenDecl:
			if node.Tok != token.CONST {
				continue
			}
			vs, _ := path[i+1].(*ast.ValueSpec)
			if node.Lparen.IsValid() || len(node.Specs) != 1 || vs == nil || len(vs.Names) != 1 {
				return nil, "", false
			}
			at := node.TokPos
			edits = append(edits, review.TextEdit{
				Span:    review.Span{Path: p.File.Path, StartLine: g.Line(at), StartCol: g.Col(at), EndLine: g.Line(at), EndCol: g.Col(at) + len("const")},
				NewText: "var",
			})
		}
	}
	pkg, imp := goImportOS(p, g)
	if imp != nil {
		edits = append(edits, *imp)
	}
	return edits, pkg, true
}

// goImportOS returns the name the file imports "os" under, and the edit
// that adds the import when it is missing, as goimports adds it: into the
// first import declaration, in gofmt's order within its first run of
// imports (a lone import, or a group on one line, becomes a group of one
// import a line); after cgo's lone import "C"; else in a new declaration
// after the package clause.
func goImportOS(p *lens.Pass, g *syntax.GoFile) (string, *review.TextEdit) {
	for _, imp := range g.File.Imports {
		if importPath(imp) == "os" {
			switch {
			case imp.Name == nil:
				return "os", nil
			case imp.Name.Name != "_" && imp.Name.Name != ".":
				return imp.Name.Name, nil
			}
		}
	}
	insert := func(line int, text string) *review.TextEdit {
		return &review.TextEdit{Span: review.Span{Path: p.File.Path, StartLine: line, StartCol: 1, EndLine: line, EndCol: 1}, NewText: text}
	}
	after := g.Line(g.File.Name.End()) + 1 // where a new declaration goes
	prefix := "\n"                         // a blank line after the package clause
	for _, d := range g.File.Decls {
		gd, isGen := d.(*ast.GenDecl)
		if !isGen || gd.Tok != token.IMPORT {
			continue
		}
		if !gd.Lparen.IsValid() && importPath(gd.Specs[0].(*ast.ImportSpec)) == "C" {
			// cgo's import carries the C preamble: it stays alone.
			after, prefix = g.Line(gd.End())+1, ""
			continue
		}
		// Keep gofmt's order within the first run of imports.
		at := 0 // the index of the spec "os" goes before
		for i, s := range gd.Specs {
			if i > 0 && g.Line(s.Pos()) > g.Line(gd.Specs[i-1].End())+1 {
				break // a blank line ends the run
			}
			if importPath(s.(*ast.ImportSpec)) > "os" {
				break
			}
			at = i + 1
		}
		if gd.Lparen.IsValid() && g.Line(gd.Lparen) != g.Line(gd.Rparen) {
			line := g.Line(gd.Lparen) + 1
			if at > 0 {
				line = g.Line(gd.Specs[at-1].End()) + 1
			}
			return "os", insert(line, "\t\"os\"\n")
		}
		return "os", groupImports(p, g, gd, at)
	}
	return "os", insert(after, prefix+"import \"os\"\n")
}

// groupImports returns the edit that rewrites gd, a lone import or a group
// on one line, as a group of one import a line with "os" before spec at.
func groupImports(p *lens.Pass, g *syntax.GoFile, gd *ast.GenDecl, at int) *review.TextEdit {
	src := p.File.Content
	var b strings.Builder
	b.WriteString("import (\n")
	for i := 0; i <= len(gd.Specs); i++ {
		if i == at {
			b.WriteString("\t\"os\"\n")
		}
		if i == len(gd.Specs) {
			break
		}
		is := gd.Specs[i].(*ast.ImportSpec)
		end := is.End()
		if is.Comment != nil && g.Line(is.Comment.End()) == g.Line(end) {
			end = is.Comment.End() // a comment after the import stays with it
		}
		b.WriteString("\t")
		b.Write(src[int(is.Pos())-g.Base() : int(end)-g.Base()])
		b.WriteString("\n")
	}
	b.WriteString(")")
	last := gd.End()
	if !gd.Lparen.IsValid() {
		if c := gd.Specs[0].(*ast.ImportSpec).Comment; c != nil && g.Line(c.End()) == g.Line(last) {
			last = c.End() // a lone import's comment moved into the group
		}
	}
	return &review.TextEdit{
		Span:    review.Span{Path: p.File.Path, StartLine: g.Line(gd.TokPos), StartCol: g.Col(gd.TokPos), EndLine: g.Line(last), EndCol: g.Col(last)},
		NewText: b.String(),
	}
}

// importPath returns the path an import spec imports.
func importPath(is *ast.ImportSpec) string {
	path, _ := strconv.Unquote(is.Path.Value)
	return path
}

// pyImportOS returns the edit that adds "import os" to a Python file
// that lacks it: after the module's opening comments and docstring, and
// after any from __future__ imports (which must come first).
func pyImportOS(p *lens.Pass) []review.TextEdit {
	lines := p.Lines()
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "import "); ok {
			for _, m := range strings.Split(rest, ",") {
				if f := strings.Fields(m); len(f) == 1 && (f[0] == "os" || strings.HasPrefix(f[0], "os.")) {
					return nil
				}
			}
		}
	}
	i := 0
	for i < len(lines) && (strings.TrimSpace(lines[i]) == "" || strings.HasPrefix(strings.TrimSpace(lines[i]), "#")) {
		i++
	}
	if i < len(lines) {
		t := strings.TrimLeft(strings.TrimSpace(lines[i]), "rRuU")
		if q := t[:min(3, len(t))]; q == `"""` || q == `'''` {
			end := i
			if !strings.Contains(t[3:], q) {
				for end = i + 1; end < len(lines) && !strings.Contains(lines[end], q); end++ {
				}
			}
			i = end + 1
		}
	}
	at := min(i, len(lines)) // insert before line at+1
	for j := at; j < len(lines); j++ {
		if strings.HasPrefix(lines[j], "from __future__ ") {
			at = j + 1
		}
	}
	return []review.TextEdit{{Span: review.Span{Path: p.File.Path, StartLine: at + 1, StartCol: 1, EndLine: at + 1, EndCol: 1}, NewText: "import os\n"}}
}
