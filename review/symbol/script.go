package symbol

import (
	"strings"

	"github.com/reviewls/reviewls/review/syntax"
)

// jsParser reads the declarations of a JavaScript or TypeScript file
// (JSX and TSX included) from its tokens: statements at module or
// namespace level, and the members of classes, interfaces, object type
// aliases and enums. Function bodies are skipped by their braces.
type jsParser struct {
	*lexed
	out []Symbol
}

func extractJS(lx *lexed) []Symbol {
	p := &jsParser{lexed: lx}
	p.scope(0, len(lx.Toks), "")
	return p.out
}

// scope reads the statements of tokens [lo, hi).
func (p *jsParser) scope(lo, hi int, container string) {
	for i := lo; i < hi; {
		next := p.statement(i, hi, container)
		if next <= i {
			next = i + 1
		}
		i = next
	}
}

// jsContinues are keywords after which a line break does not end the
// statement being written.
var jsContinues = map[string]bool{
	"return": true, "await": true, "void": true, "yield": true, "typeof": true, "new": true,
	"throw": true, "case": true, "in": true, "of": true, "instanceof": true, "delete": true,
	"extends": true, "implements": true, "async": true, "export": true, "default": true,
	"const": true, "let": true, "var": true, "as": true, "satisfies": true, "keyof": true,
	"is": true, "readonly": true, "declare": true, "abstract": true,
}

// endsExpr reports whether token k can end an expression or a type, so
// that a line break after it may end the statement.
func (p *jsParser) endsExpr(k int) bool {
	switch p.Kind(k) {
	case syntax.TokIdent:
		return !jsContinues[p.Text(k)]
	case syntax.TokNumber, syntax.TokString, syntax.TokTemplate, syntax.TokRegexp:
		return true
	}
	switch p.Text(k) {
	case ")", "]", "}", ">":
		return true
	}
	return false
}

// startsStmt reports whether token k, first on its line, can begin a new
// statement or class member rather than continue the previous one.
func (p *jsParser) startsStmt(k int) bool {
	switch p.Kind(k) {
	case syntax.TokIdent:
		switch p.Text(k) {
		case "as", "in", "of", "instanceof", "extends", "implements", "satisfies", "is", "keyof":
			return false
		}
		return true
	}
	return p.Is(k, "@")
}

// stmtEnd returns the index of the first token after the statement that
// starts at i: after its ";", or at a line break that automatic semicolon
// insertion would take as its end, or hi.
func (p *jsParser) stmtEnd(i, hi int) int { return p.scanEnd(i, hi, false) }

// memberEnd is stmtEnd for the members of an object type, which a ","
// may also end.
func (p *jsParser) memberEnd(i, hi int) int { return p.scanEnd(i, hi, true) }

// scanEnd is stmtEnd, or memberEnd when member is set.
func (p *jsParser) scanEnd(i, hi int, member bool) int {
	start := i
	for i < hi {
		if i > start && p.Toks[i].NL && p.endsExpr(i-1) && (p.startsStmt(i) || member && (p.Kind(i).IsString() || p.Is(i, "["))) {
			return i
		}
		if p.Is(i, ";") || member && p.Is(i, ",") {
			return i + 1
		}
		if m := p.Match(i); m > i && syntax.IsOpener(p.Text(i)) {
			if m >= hi {
				return hi
			}
			i = m + 1
			continue
		}
		i++
	}
	return hi
}

// trimSemi drops a final ";" or "," from the token range ending before end.
func (p *jsParser) trimSemi(start, end int) int {
	if end > start && (p.Is(end-1, ";") || p.Is(end-1, ",")) {
		return end - 1
	}
	return end
}

// skipDecorators returns the index after the decorators (@name,
// @a.b(args)) that start at i.
func (p *lexed) skipDecorators(i, hi int) int {
	for i+1 < hi && p.Is(i, "@") && p.Ident(i+1) {
		if p.Is(i+1, "interface") { // Java's @interface declares a type
			return i
		}
		i += 2
		for p.Is(i, ".") && p.Ident(i+1) {
			i += 2
		}
		if p.Is(i, "(") {
			m := p.Match(i)
			if m < 0 {
				return i + 1
			}
			i = m + 1
		}
	}
	return i
}

// skipAngles returns the index after the ">" that closes the type
// parameter or argument list opened at i, or i when it does not close.
func (p *lexed) skipAngles(i, hi int) int {
	depth := 0
	for j := i; j < hi && j < i+256; j++ {
		switch p.Text(j) {
		case "<":
			depth++
		case ">":
			depth--
			if depth == 0 {
				return j + 1
			}
		case ";":
			return i
		case "(", "[", "{":
			if m := p.Match(j); m > j {
				j = m
			} else {
				return i
			}
		}
	}
	return i
}

// braceAfter returns the index of the "{" that opens the body of a class
// or interface whose header starts at i, skipping type arguments and
// brackets, or -1 when a ";" or the end of the scope comes first.
func (p *lexed) braceAfter(i, hi int) int {
	hi = min(hi, i+1024)
	j := p.scanHeader(i, hi, func(j, angle int) bool {
		t := p.Text(j)
		return t == ";" || t == "}" || angle == 0 && t == "{"
	})
	if j < hi && p.Is(j, "{") {
		return j
	}
	return -1
}

// typeEnd reports whether token i can end a TypeScript type, so that a "{"
// after it opens a body rather than an object type.
func (p *jsParser) typeEnd(i int) bool {
	switch p.Kind(i) {
	case syntax.TokIdent, syntax.TokString, syntax.TokTemplate, syntax.TokRegexp, syntax.TokNumber:
		return true
	}
	switch p.Text(i) {
	case ">", "]", ")", "}":
		return true
	}
	return false
}

// body finds the body of a function whose parameter list closes at token
// close, skipping a return type. It returns the index of the body's "{"
// (-1 for a declaration without body: an overload, an abstract or
// interface method) and the index of the first token after the
// declaration.
func (p *jsParser) body(close, hi int) (open, next int) {
	prev := close
	j := close + 1
	for j < hi && j < close+512 {
		switch {
		case p.Is(j, "{"):
			if j == close+1 || p.typeEnd(prev) {
				m := p.Match(j)
				if m < 0 || m >= hi {
					return j, hi
				}
				return j, m + 1
			}
			m := p.Match(j) // an object type in the return type
			if m < j {
				return -1, j + 1
			}
			prev, j = m, m+1
			continue
		case p.Is(j, ";"):
			return -1, j + 1
		case p.Is(j, "=>"), p.Is(j, "="), p.Is(j, "}"), p.Is(j, ")"), p.Is(j, ","):
			return -1, j
		case j > close+1 && p.Toks[j].NL && p.typeEnd(prev) && p.startsStmt(j):
			return -1, j
		}
		if m := p.Match(j); m > j && (p.Is(j, "(") || p.Is(j, "[")) {
			prev, j = m, m+1
			continue
		}
		prev = j
		j++
	}
	return -1, j
}

// funcValue reports whether the expression at v is a function: a function
// expression, an arrow function, or either one wrapped in a call such as
// memo(...) or forwardRef<T>(...). It returns the end of the function's
// signature: its "{" or the token after its "=>".
func (p *jsParser) funcValue(v, hi, depth int) (int, bool) {
	i := v
	if p.Is(i, "async") {
		i++
	}
	switch {
	case p.Is(i, "function"):
		j := i + 1
		if p.Is(j, "*") {
			j++
		}
		if p.Ident(j) {
			j++
		}
		if p.Is(j, "<") {
			j = p.skipAngles(j, hi)
		}
		if m := p.Match(j); p.Is(j, "(") && m > j {
			if open, _ := p.body(m, hi); open > 0 {
				return open, true
			}
		}
		return 0, false
	case p.Ident(i) && p.Is(i+1, "=>"):
		return i + 2, true
	}
	if p.Is(i, "<") {
		i = p.skipAngles(i, hi)
	}
	if m := p.Match(i); p.Is(i, "(") && m > i {
		j := m + 1
		if p.Is(j, "=>") {
			return j + 1, true
		}
		if p.Is(j, ":") { // a return type, then "=>"
			for k := j + 1; k < hi && k < j+256; k++ {
				switch {
				case p.Is(k, "=>"):
					return k + 1, true
				case p.Is(k, ";"), p.Is(k, "="), p.Is(k, ","), p.Is(k, ")"):
					return 0, false
				}
				if m := p.Match(k); m > k && syntax.IsOpener(p.Text(k)) {
					k = m
				}
			}
		}
	}
	if depth > 0 && p.Ident(v) {
		j := v
		for p.Is(j+1, ".") && p.Ident(j+2) {
			j += 2
		}
		j++
		if p.Is(j, "<") {
			j = p.skipAngles(j, hi)
		}
		if p.Is(j, "(") && p.Match(j) > j {
			return p.funcValue(j+1, hi, depth-1)
		}
	}
	return 0, false
}

func (p *jsParser) add(s Symbol) { p.out = append(p.out, s) }

// statement reads the statement that starts at i and returns the index of
// the first token after it.
func (p *jsParser) statement(i, hi int, container string) int {
	anchor := i
	i = p.skipDecorators(i, hi)
	start := i
	exported, isDefault := false, false
	if p.Is(i, "export") {
		exported = true
		i++
		if p.Is(i, "default") {
			isDefault = true
			i++
		}
	}
	if p.Is(i, "declare") && p.Ident(i+1) {
		i++
	}
	d := jsDecl{anchor: anchor, start: start, kw: i, hi: hi, container: container, exported: exported, isDefault: isDefault}
	switch {
	case p.Is(i, "function"), p.Is(i, "async") && p.Is(i+1, "function"):
		return p.function(d)
	case p.Is(i, "class"), p.Is(i, "abstract") && p.Is(i+1, "class"):
		return p.class(d)
	case p.Is(i, "interface") && p.Ident(i+1):
		return p.iface(d)
	case p.Is(i, "type") && p.Ident(i+1) && (p.Is(i+2, "=") || p.Is(i+2, "<")):
		return p.typeAlias(d)
	case p.Is(i, "enum") && p.Ident(i+1), p.Is(i, "const") && p.Is(i+1, "enum"):
		return p.enum(d)
	case p.Is(i, "const"), p.Is(i, "let"), p.Is(i, "var"):
		return p.vars(d)
	case (p.Is(i, "namespace") || p.Is(i, "module")) && (p.Ident(i+1) || p.Kind(i+1).IsString()):
		return p.namespace(d)
	case p.Is(i, "global") && p.Is(i+1, "{") && p.Match(i+1) > i+1:
		p.scope(i+2, p.Match(i+1), container)
		return p.Match(i+1) + 1
	case p.Is(i, "exports") && p.Is(i+1, ".") && p.Ident(i+2) && p.Is(i+3, "="):
		return p.commonJS(d, i+2)
	case p.Is(i, "module") && p.Is(i+1, ".") && p.Is(i+2, "exports") && p.Is(i+3, ".") && p.Ident(i+4) && p.Is(i+5, "="):
		return p.commonJS(d, i+4)
	}
	return p.stmtEnd(i, hi)
}

// jsDecl locates a declaration: anchor is its first token (decorators
// included), start the first token of its signature (export included), kw
// its keyword.
type jsDecl struct {
	anchor, start, kw, hi int
	container             string
	exported, isDefault   bool
}

func (p *jsParser) symbol(d jsDecl, name string, nameTok int, kind Kind) Symbol {
	col := 1
	if nameTok >= 0 {
		col = p.Col(nameTok)
	} else if d.start < len(p.Toks) {
		col = p.Col(d.start)
	}
	return Symbol{
		Name:      name,
		Container: d.container,
		Kind:      kind,
		Doc:       p.DocBefore(int(p.Toks[d.anchor].Off)),
		Line:      p.Line(d.start),
		NameCol:   col,
		Exported:  d.exported,
	}
}

// name reads the declared name at token i; an anonymous default export is
// named "default".
func (p *jsParser) name(d jsDecl, i int) (string, int, bool) {
	if p.Ident(i) && !p.Is(i, "extends") && !p.Is(i, "implements") {
		return p.Text(i), i, true
	}
	if d.isDefault {
		return "default", -1, true
	}
	return "", -1, false
}

func (p *jsParser) function(d jsDecl) int {
	i := d.kw
	if p.Is(i, "async") {
		i++
	}
	i++ // function
	if p.Is(i, "*") {
		i++
	}
	name, nameTok, ok := p.name(d, i)
	if !ok {
		return p.stmtEnd(d.kw, d.hi)
	}
	if nameTok >= 0 {
		i++
	}
	if p.Is(i, "<") {
		i = p.skipAngles(i, d.hi)
	}
	s := p.symbol(d, name, nameTok, KindFunction)
	close := p.Match(i)
	if !p.Is(i, "(") || close < i {
		return p.partial(s, d.start, p.stmtEnd(i, d.hi))
	}
	_, next := p.addFunc(s, d.start, close, d.hi)
	return next
}

// partial adds s, whose declaration is left open (half-typed code), with
// what there is of its signature: tokens [start, end), end being the end
// of the statement, which it returns.
func (p *jsParser) partial(s Symbol, start, end int) int {
	s.Signature = p.Join(start, p.trimSemi(start, end))
	s.EndLine = p.Line(end - 1)
	p.add(s)
	return end
}

// addFunc adds s, a function or method whose signature starts at token
// start and whose parameter list closes at token close, with its
// signature up to its body. It returns the body's "{" (-1 for none) and the index of the
// first token after the declaration.
func (p *jsParser) addFunc(s Symbol, start, close, hi int) (open, next int) {
	open, next = p.body(close, hi)
	sigEnd := open
	if open < 0 {
		sigEnd = p.trimSemi(start, next)
	}
	s.Signature = p.Join(start, sigEnd)
	s.EndLine = p.EndLine(next - 1)
	p.add(s)
	return open, next
}

func (p *jsParser) class(d jsDecl) int {
	i := d.kw
	if p.Is(i, "abstract") {
		i++
	}
	i++ // class
	name, nameTok, ok := p.name(d, i)
	if !ok {
		return p.stmtEnd(d.kw, d.hi)
	}
	return p.typeBody(d, p.symbol(d, name, nameTok, KindClass), i, p.classBody)
}

// typeBody records s, the class or interface declared by d, whose body's
// "{" follows from i, and reads the body's members with members.
func (p *jsParser) typeBody(d jsDecl, s Symbol, i int, members func(lo, hi, k int, name string, exported bool)) int {
	open := p.braceAfter(i, d.hi)
	close := p.CloseOf(open, d.hi)
	if close < 0 {
		return p.partial(s, d.start, p.stmtEnd(d.kw, d.hi))
	}
	s.Signature = p.Join(d.start, open)
	s.EndLine = p.Line(close)
	k := len(p.out)
	p.add(s)
	members(open+1, close, k, s.Name, d.exported)
	return close + 1
}

// jsMemberModifiers may precede the name of a class member.
var jsMemberModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "readonly": true,
	"abstract": true, "override": true, "declare": true, "accessor": true, "async": true,
	"get": true, "set": true,
}

// classBody reads the members of the class whose symbol is out[cls],
// named name, from tokens [lo, hi).
func (p *jsParser) classBody(lo, hi, cls int, name string, exported bool) {
	for i := lo; i < hi; {
		if p.Is(i, ";") || p.Is(i, ",") {
			i++
			continue
		}
		d := jsDecl{anchor: i, hi: hi, container: name}
		i = p.skipDecorators(i, hi)
		d.start = i
		private := false
		for p.Ident(i) && jsMemberModifiers[p.Text(i)] &&
			(p.Ident(i+1) || p.Kind(i+1).IsString() || p.Is(i+1, "[") || p.Is(i+1, "*")) {
			if p.Is(i, "private") || p.Is(i, "protected") {
				private = true
			}
			i++
		}
		if p.Is(i, "*") {
			i++
		}
		nameTok := i
		var member string
		switch {
		case p.Ident(i):
			member = p.Text(i)
			private = private || strings.HasPrefix(member, "#")
			i++
		case p.Kind(i).IsString() || p.Kind(i) == syntax.TokNumber:
			member = strings.Trim(p.Text(i), "\"'`")
			i++
		case p.Is(i, "[") && p.Match(i) > i:
			member = p.Join(i, p.Match(i)+1)
			i = p.Match(i) + 1
		default:
			i = max(p.stmtEnd(i, hi), i+1)
			continue
		}
		d.exported = exported && !private
		if p.Is(i, "?") || p.Is(i, "!") {
			i++
		}
		if p.Is(i, "<") {
			i = p.skipAngles(i, hi)
		}
		if close := p.Match(i); p.Is(i, "(") && close > i {
			open, next := p.addFunc(p.symbol(d, member, nameTok, KindMethod), d.start, close, hi)
			if member == "constructor" {
				p.paramProperties(i, close, cls, name, exported)
				p.thisFields(open, cls)
			}
			i = max(next, i+1)
			continue
		}
		// A property, or a method written as an arrow function.
		end := p.stmtEnd(i, hi)
		eq := -1
		for k := i; k < end; k++ {
			if p.Is(k, "=") {
				eq = k
				break
			}
			if m := p.Match(k); m > k && syntax.IsOpener(p.Text(k)) {
				k = m
			}
		}
		sigEnd := p.trimSemi(d.start, end)
		if eq >= 0 {
			if fe, ok := p.funcValue(eq+1, end, 1); ok {
				s := p.symbol(d, member, nameTok, KindMethod)
				s.Signature = p.Join(d.start, fe)
				s.EndLine = p.EndLine(end - 1)
				p.add(s)
				i = end
				continue
			}
			sigEnd = eq
		}
		p.field(d, cls, member, nameTok, sigEnd, end-1)
		i = max(end, i+1)
	}
}

// field adds the field member, named at token nameTok and declared by
// tokens [d.start, sigEnd) up to token last, and lists it in the Fields of
// out[cls].
func (p *jsParser) field(d jsDecl, cls int, member string, nameTok, sigEnd, last int) {
	p.out[cls].Fields = append(p.out[cls].Fields, p.Join(nameTok, sigEnd))
	s := p.symbol(d, member, nameTok, KindField)
	s.Signature = p.Join(d.start, sigEnd)
	s.EndLine = p.EndLine(last)
	p.add(s)
}

// paramProperties adds the TypeScript parameter properties of a
// constructor (constructor(private readonly store: Store)) to the class
// out[cls].
func (p *jsParser) paramProperties(open, close, cls int, name string, exported bool) {
	for k := open + 1; k < close; k++ {
		if m := p.Match(k); m > k && syntax.IsOpener(p.Text(k)) {
			k = m
			continue
		}
		if !p.Is(k-1, "(") && !p.Is(k-1, ",") {
			continue
		}
		j, private, mod := k, false, false
		for p.Ident(j) && (p.Is(j, "public") || p.Is(j, "private") || p.Is(j, "protected") || p.Is(j, "readonly") || p.Is(j, "override")) && p.Ident(j+1) {
			private = private || p.Is(j, "private") || p.Is(j, "protected")
			mod = true
			j++
		}
		if !mod {
			continue
		}
		end := j
		for end < close && !p.Is(end, ",") && !p.Is(end, "=") {
			if m := p.Match(end); m > end && syntax.IsOpener(p.Text(end)) {
				end = m
			}
			if p.Is(end, "<") {
				end = max(p.skipAngles(end, close)-1, end)
			}
			end++
		}
		field := p.Join(j, end)
		p.out[cls].Fields = append(p.out[cls].Fields, field)
		p.add(Symbol{
			Name:      p.Text(j),
			Container: name,
			Kind:      KindField,
			Signature: p.Join(k, end),
			Line:      p.Line(j),
			EndLine:   p.Line(end - 1),
			NameCol:   p.Col(j),
			Exported:  exported && !private,
		})
		k = end
	}
}

// thisFields adds to the Fields of the class out[cls] the properties its
// constructor, whose body opens at token open, assigns: this.x = ...
func (p *jsParser) thisFields(open, cls int) {
	close := p.CloseOf(open, len(p.Toks))
	if close < 0 {
		return
	}
	for k := open + 1; k+3 < close; k++ {
		if p.Is(k, "this") && p.Is(k+1, ".") && p.Ident(k+2) && p.Is(k+3, "=") && !contains(p.out[cls].Fields, p.Text(k+2)) {
			p.out[cls].Fields = append(p.out[cls].Fields, p.Text(k+2))
		}
	}
}

func (p *jsParser) iface(d jsDecl) int {
	name, nameTok := p.Text(d.kw+1), d.kw+1
	return p.typeBody(d, p.symbol(d, name, nameTok, KindInterface), d.kw+2, p.typeMembers)
}

// typeMembers reads the members of an interface or object type alias,
// whose symbol is out[k], from tokens [lo, hi): properties become fields,
// method signatures methods; call, construct and index signatures are
// skipped.
func (p *jsParser) typeMembers(lo, hi, k int, name string, exported bool) {
	for i := lo; i < hi; {
		if p.Is(i, ";") || p.Is(i, ",") {
			i++
			continue
		}
		d := jsDecl{anchor: i, start: i, hi: hi, container: name, exported: exported}
		end := max(p.memberEnd(i, hi), i+1)
		for p.Is(i, "readonly") && (p.Ident(i+1) || p.Kind(i+1).IsString()) {
			i++
		}
		nameTok := i
		var member string
		switch p.Kind(i) {
		case syntax.TokIdent:
			member = p.Text(i)
		case syntax.TokString, syntax.TokTemplate, syntax.TokRegexp:
			member = strings.Trim(p.Text(i), "\"'")
		}
		j := i + 1
		if p.Is(j, "?") {
			j++
		}
		if p.Is(j, "<") {
			j = p.skipAngles(j, hi)
		}
		sigEnd := p.trimSemi(i, end)
		switch {
		case member == "":
		case p.Is(j, "("):
			s := p.symbol(d, member, nameTok, KindMethod)
			s.Signature = p.Join(d.start, sigEnd)
			s.EndLine = p.EndLine(sigEnd - 1)
			p.add(s)
		case p.Is(j, ":"):
			p.field(d, k, member, nameTok, sigEnd, sigEnd-1)
		}
		i = end
	}
}

func (p *jsParser) typeAlias(d jsDecl) int {
	name, nameTok := p.Text(d.kw+1), d.kw+1
	s := p.symbol(d, name, nameTok, KindType)
	end := p.stmtEnd(d.kw, d.hi)
	sigEnd := p.trimSemi(d.start, end)
	s.Signature = p.Head(d.start, sigEnd)
	s.EndLine = p.EndLine(sigEnd - 1)
	k := len(p.out)
	p.add(s)
	for j := d.kw + 2; j < sigEnd; j++ {
		if p.Is(j, "=") {
			if m := p.Match(j + 1); p.Is(j+1, "{") && m > j+1 && m < end {
				p.typeMembers(j+2, m, k, name, d.exported)
			}
			break
		}
	}
	return end
}

func (p *jsParser) enum(d jsDecl) int {
	i := d.kw
	if p.Is(i, "const") {
		i++
	}
	name, nameTok := p.Text(i+1), i+1
	s := p.symbol(d, name, nameTok, KindEnum)
	open := i + 2
	close := p.CloseOf(open, d.hi)
	if close < 0 {
		return p.partial(s, d.start, p.stmtEnd(d.kw, d.hi))
	}
	s.Signature = p.Join(d.start, open)
	s.EndLine = p.Line(close)
	for k := open + 1; k < close; k++ {
		if (p.Is(k-1, "{") || p.Is(k-1, ",")) && (p.Ident(k) || p.Kind(k).IsString()) {
			s.Fields = append(s.Fields, strings.Trim(p.Text(k), "\"'"))
		}
		if m := p.Match(k); m > k && syntax.IsOpener(p.Text(k)) {
			k = m
		}
	}
	p.add(s)
	return close + 1
}

// vars reads a const, let or var declaration: each declarator is a
// function when its value is one, else a const or var. Destructuring
// patterns and require() imports are left out.
func (p *jsParser) vars(d jsDecl) int {
	kind := KindVar
	if p.Is(d.kw, "const") {
		kind = KindConst
	}
	end := p.stmtEnd(d.kw, d.hi)
	stop := p.trimSemi(d.kw, end)
	for i, first := d.kw+1, true; i < stop && p.Ident(i); first = false {
		nameTok := i
		j := i + 1
		if p.Is(j, "!") {
			j++
		}
		// The declarator ends at a "," outside brackets and type arguments.
		dEnd, eq := stop, -1
	scan:
		for k := j; k < stop; k++ {
			switch p.Text(k) {
			case "=":
				if eq < 0 {
					eq = k
				}
			case "<":
				// Type arguments: in the annotation, of a generic arrow
				// function, or of a call (f<A, B>(x)).
				if a := p.skipAngles(k, stop); a > k && (eq < 0 || k == eq+1 || p.Is(k-1, "async") || p.Ident(k-1) && p.Is(a, "(")) {
					k = a - 1
					continue
				}
			case ",":
				dEnd = k
				break scan
			}
			if m := p.Match(k); m > k && syntax.IsOpener(p.Text(k)) {
				k = m
			}
		}
		sd := d
		if !first {
			sd.start, sd.anchor = nameTok, nameTok
		}
		s := p.symbol(sd, p.Text(nameTok), nameTok, kind)
		if !first {
			s.Doc = ""
		}
		s.EndLine = p.EndLine(dEnd - 1)
		skip := false
		if eq >= 0 {
			v := eq + 1
			if p.Is(v, "await") {
				v++
			}
			skip = p.Is(v, "require") && p.Is(v+1, "(") || p.Is(v, "import") && p.Is(v+1, "(")
			if fe, ok := p.funcValue(eq+1, dEnd, 2); ok {
				s.Kind = KindFunction
				s.Signature = p.Join(sd.start, fe)
			}
		}
		if s.Signature == "" {
			s.Signature = p.Head(sd.start, dEnd)
		}
		if !first {
			s.Signature = p.Text(d.kw) + " " + s.Signature
		}
		if !skip {
			p.add(s)
		}
		i = dEnd + 1
	}
	return end
}

func (p *jsParser) namespace(d jsDecl) int {
	i := d.kw + 1
	name, nameTok := strings.Trim(p.Text(i), "\"'"), i
	for p.Is(i+1, ".") && p.Ident(i+2) {
		i += 2
		name += "." + p.Text(i)
	}
	s := p.symbol(d, name, nameTok, KindModule)
	open := i + 1
	close := p.CloseOf(open, d.hi)
	if close < 0 {
		return p.stmtEnd(d.kw, d.hi)
	}
	s.Signature = p.Join(d.start, open)
	s.EndLine = p.Line(close)
	p.add(s)
	p.scope(open+1, close, name)
	return close + 1
}

// commonJS reads exports.name = function ... and module.exports.name =
// (...) => ...; other CommonJS exports are not declarations.
func (p *jsParser) commonJS(d jsDecl, nameTok int) int {
	end := p.stmtEnd(d.kw, d.hi)
	fe, ok := p.funcValue(nameTok+2, end, 1)
	if !ok {
		return end
	}
	d.exported = true
	s := p.symbol(d, p.Text(nameTok), nameTok, KindFunction)
	s.Signature = p.Join(d.start, fe)
	s.EndLine = p.EndLine(p.trimSemi(d.kw, end) - 1)
	p.add(s)
	return end
}
