package symbol

import "github.com/reviewls/reviewls/review/syntax"

// javaParser reads the declarations of a Java file: types (classes,
// interfaces, enums, records, annotation types, nested ones included) and
// their methods, constructors and fields. Method bodies are skipped by
// their braces.
type javaParser struct {
	*lexed
	out []Symbol
}

func extractJava(lx *lexed) []Symbol {
	p := &javaParser{lexed: lx}
	p.scope(0, len(lx.Toks), "", false)
	return p.out
}

// javaModifiers may precede a declaration.
var javaModifiers = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "final": true,
	"abstract": true, "sealed": true, "strictfp": true, "transient": true, "volatile": true,
	"synchronized": true, "native": true, "default": true,
}

// semi returns the index after the next ";" at bracket depth 0, or hi.
func (p *lexed) semi(i, hi int) int {
	for ; i < hi; i++ {
		if p.Is(i, ";") {
			return i + 1
		}
		if m := p.Match(i); m > i && syntax.IsOpener(p.Text(i)) {
			if m >= hi {
				return hi
			}
			i = m
		}
	}
	return hi
}

// skipItem skips what a parser cannot read: up to a ";" or past a block.
func (p *lexed) skipItem(i, hi int) int {
	for ; i < hi; i++ {
		if p.Is(i, ";") {
			return i + 1
		}
		if m := p.Match(i); m > i && syntax.IsOpener(p.Text(i)) {
			if p.Is(i, "{") {
				return m + 1
			}
			i = m
		}
	}
	return hi
}

// scope reads the declarations of tokens [lo, hi); container is the
// enclosing type, whose members are public by default when iface is set.
func (p *javaParser) scope(lo, hi int, container string, iface bool) {
	for i := lo; i < hi; {
		next := p.member(i, hi, container, iface)
		if next <= i {
			next = i + 1
		}
		i = next
	}
}

// member reads the declaration at i and returns the index after it.
func (p *javaParser) member(i, hi int, container string, iface bool) int {
	if p.Is(i, ";") {
		return i + 1
	}
	if p.Is(i, "package") || p.Is(i, "import") {
		return p.semi(i, hi)
	}
	anchor := i
	i = p.skipDecorators(i, hi)
	start := i
	public, private := false, false
	for {
		switch {
		case p.Ident(i) && javaModifiers[p.Text(i)] && !p.Is(i+1, "("):
			public = public || p.Is(i, "public")
			private = private || p.Is(i, "private")
			i++
			continue
		case p.Is(i, "non") && p.Is(i+1, "-") && p.Is(i+2, "sealed"):
			i += 3
			continue
		case p.Is(i, "@") && !p.Is(i+1, "interface"):
			if j := p.skipDecorators(i, hi); j > i {
				i = j
				continue
			}
		}
		break
	}
	base := Symbol{
		Container: container,
		Doc:       p.DocBefore(int(p.Toks[anchor].Off)),
		Line:      p.Line(start),
		Exported:  public || iface && !private,
	}
	switch {
	case p.Is(i, "class"), p.Is(i, "interface"), p.Is(i, "enum"), p.Is(i, "record") && p.Ident(i+1),
		p.Is(i, "@") && p.Is(i+1, "interface"):
		return p.typeDecl(base, start, i, hi)
	case p.Is(i, "{"): // an initializer block
		if m := p.Match(i); m > i {
			return m + 1
		}
		return hi
	}
	if p.Is(i, "<") { // a generic method's type parameters
		i = p.skipAngles(i, hi)
	}
	// A constructor: the type's name, then its parameters (or, in a
	// record, the compact form without them).
	if p.Ident(i) && p.Text(i) == container && (p.Is(i+1, "(") || p.Is(i+1, "{")) {
		return p.method(base, start, i, hi)
	}
	typeStart := i
	j := p.javaType(i, hi)
	if j == i || !p.Ident(j) {
		return p.skipItem(i, hi)
	}
	if p.Is(j+1, "(") {
		return p.method(base, start, j, hi)
	}
	return p.fields(base, start, typeStart, j, hi)
}

// javaType returns the index after the type that starts at i: a name,
// qualified or not, with type arguments and array brackets.
func (p *javaParser) javaType(i, hi int) int {
	if !p.Ident(i) {
		return i
	}
	j := i + 1
	for j < hi {
		switch {
		case p.Is(j, ".") && p.Ident(j+1):
			j += 2
		case p.Is(j, "<"):
			k := p.skipAngles(j, hi)
			if k == j {
				return j
			}
			j = k
		case p.Is(j, "[") && p.Is(j+1, "]"):
			j += 2
		case p.Is(j, "..."):
			j++
		case p.Is(j, "@"): // a type annotation: String @NonNull []
			k := p.skipDecorators(j, hi)
			if k == j {
				return j
			}
			j = k
		default:
			return j
		}
	}
	return j
}

func (p *javaParser) typeDecl(s Symbol, start, kw, hi int) int {
	i := kw
	s.Kind = KindClass
	switch p.Text(i) {
	case "interface":
		s.Kind = KindInterface
	case "@":
		s.Kind = KindInterface
		i++
	case "enum":
		s.Kind = KindEnum
	}
	isRecord, isEnum := p.Is(i, "record"), p.Is(i, "enum")
	if !p.Ident(i + 1) {
		return p.skipItem(i, hi)
	}
	nameTok := i + 1
	s.Name, s.NameCol = p.Text(nameTok), p.Col(nameTok)
	open := p.braceAfter(nameTok+1, hi)
	close := p.CloseOf(open, hi)
	if close < 0 {
		end := p.semi(i, hi)
		s.Signature = p.Join(start, end)
		s.EndLine = p.Line(end - 1)
		p.out = append(p.out, s)
		return end
	}
	s.Signature = p.Join(start, open)
	s.EndLine = p.Line(close)
	k := len(p.out)
	p.out = append(p.out, s)
	if isRecord {
		j := nameTok + 1
		if p.Is(j, "<") {
			j = p.skipAngles(j, hi)
		}
		if m := p.Match(j); p.Is(j, "(") && m > j {
			p.components(k, j, m)
		}
	}
	body := open + 1
	if isEnum {
		body = p.enumConstants(k, open+1, close)
	}
	p.scope(body, close, s.Name, s.Kind == KindInterface)
	return close + 1
}

// components adds the components of a record, the parameters between
// tokens open and close, as fields of out[k].
func (p *javaParser) components(k, open, close int) {
	for i := open + 1; i < close; {
		i = p.skipDecorators(i, close)
		j := p.javaType(i, close)
		if j == i || !p.Ident(j) {
			break
		}
		p.out[k].Fields = append(p.out[k].Fields, p.Join(i, j+1))
		p.out = append(p.out, Symbol{
			Name:      p.Text(j),
			Container: p.out[k].Name,
			Kind:      KindField,
			Signature: p.Join(i, j+1),
			Line:      p.Line(i),
			EndLine:   p.Line(j),
			NameCol:   p.Col(j),
			Exported:  p.out[k].Exported,
		})
		i = j + 1
		if p.Is(i, ",") {
			i++
		}
	}
}

// enumConstants adds the constants that open an enum body to the Fields
// of out[k] and returns the index where the other members start.
func (p *javaParser) enumConstants(k, lo, hi int) int {
	for i := lo; i < hi; i++ {
		i = p.skipDecorators(i, hi)
		switch {
		case p.Is(i, ";"):
			return i + 1
		case p.Ident(i):
			p.out[k].Fields = append(p.out[k].Fields, p.Text(i))
		default:
			return i
		}
		if m := p.Match(i + 1); p.Is(i+1, "(") && m > i {
			i = m
		}
		if m := p.Match(i + 1); p.Is(i+1, "{") && m > i {
			i = m
		}
		if !p.Is(i+1, ",") {
			if p.Is(i+1, ";") {
				return i + 2
			}
			return i + 1
		}
		i++
	}
	return hi
}

func (p *javaParser) method(s Symbol, start, nameTok, hi int) int {
	s.Kind = KindMethod
	s.Name, s.NameCol = p.Text(nameTok), p.Col(nameTok)
	if s.Container == "" {
		s.Kind = KindFunction // not valid Java, but a snippet may hold one
	}
	i := nameTok + 1
	if m := p.Match(i); p.Is(i, "(") && m > i {
		i = m + 1
	}
	for ; i < hi; i++ {
		if p.Is(i, "{") || p.Is(i, ";") {
			break
		}
		if m := p.Match(i); m > i && (p.Is(i, "(") || p.Is(i, "[")) {
			i = m
		}
	}
	s.Signature = p.Join(start, i)
	switch m := p.Match(i); {
	case p.Is(i, "{") && m > i:
		s.EndLine = p.Line(m)
		i = m + 1
	case p.Is(i, ";"):
		s.EndLine = p.Line(i)
		i++
	default:
		s.EndLine = p.Line(i - 1)
	}
	p.out = append(p.out, s)
	return i
}

// fields reads a field declaration whose type spans [typeStart, nameTok)
// and whose first name is nameTok; each declarator becomes a field.
func (p *javaParser) fields(s Symbol, start, typeStart, nameTok, hi int) int {
	end := hi
	var names []int
	angle := 0
	expectName := true
	for i := nameTok; i < hi; i++ {
		if expectName && p.Ident(i) {
			names = append(names, i)
			expectName = false
		}
		switch {
		case p.Is(i, ";"):
			end = i + 1
		case p.Is(i, ","):
			if angle == 0 {
				expectName = true
			}
		case p.Is(i, "<") && p.Ident(i-1):
			angle++
		case p.Is(i, ">") && angle > 0:
			angle--
		}
		if end < hi {
			break
		}
		if m := p.Match(i); m > i && syntax.IsOpener(p.Text(i)) {
			i = m
		}
	}
	prefix := p.Join(start, nameTok)
	typ := p.Join(typeStart, nameTok)
	s.Kind = KindField
	if s.Container == "" {
		s.Kind = KindVar
	}
	for _, n := range names {
		f := s
		f.Name, f.NameCol, f.Line = p.Text(n), p.Col(n), p.Line(n)
		if n == nameTok {
			f.Line = s.Line
		}
		f.Signature = prefix + " " + f.Name
		f.EndLine = p.Line(end - 1)
		p.out = append(p.out, f)
		if k := p.ownerIndex(s.Container); k >= 0 {
			p.out[k].Fields = append(p.out[k].Fields, typ+" "+f.Name)
		}
	}
	return end
}

// ownerIndex returns the index of the last type named name in the output,
// or -1.
func (p *javaParser) ownerIndex(name string) int {
	for k := len(p.out) - 1; k >= 0; k-- {
		if p.out[k].Name == name && p.out[k].Kind.typeLike() {
			return k
		}
	}
	return -1
}
