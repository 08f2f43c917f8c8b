package symbol

import (
	"strconv"
	"strings"

	"github.com/reviewls/reviewls/review/syntax"
)

// rustParser reads the items of a Rust file: functions, structs, enums,
// unions, traits, type aliases, consts, statics and modules, and the items
// of impl and trait blocks. Bodies are skipped by their braces.
type rustParser struct {
	*lexed
	out []Symbol
}

func extractRust(lx *lexed) []Symbol {
	p := &rustParser{lexed: lx}
	p.scope(0, len(lx.Toks), rustScope{})
	return p.out
}

// rustScope is where items are read: the top level, a module, an impl
// block of a type (container), or a trait (container, inTrait).
type rustScope struct {
	container string
	// impl is set inside an impl block; traitImpl when it implements a
	// trait, whose methods are as visible as the trait.
	impl, traitImpl bool
	inTrait         bool
	traitPub        bool
}

func (p *rustParser) scope(lo, hi int, sc rustScope) {
	for i := lo; i < hi; {
		next := p.item(i, hi, sc)
		if next <= i {
			next = i + 1
		}
		i = next
	}
}

// skipAttrs returns the index after the attributes (#[...], #![...]) at i.
func (p *rustParser) skipAttrs(i, hi int) int {
	for i < hi && p.Is(i, "#") {
		j := i + 1
		if p.Is(j, "!") {
			j++
		}
		m := p.Match(j)
		if !p.Is(j, "[") || m < j {
			return i
		}
		i = m + 1
	}
	return i
}

// visibility returns the index after the visibility at i (pub,
// pub(crate), ...) and whether it is plain pub: pub(crate) and friends are
// not public API.
func (p *rustParser) visibility(i int) (int, bool) {
	if !p.Is(i, "pub") {
		return i, false
	}
	i++
	if m := p.Match(i); p.Is(i, "(") && m > i {
		return m + 1, false
	}
	return i, true
}

// item reads the item at i and returns the index after it.
func (p *rustParser) item(i, hi int, sc rustScope) int {
	if p.Is(i, ";") {
		return i + 1
	}
	anchor := i
	i = p.skipAttrs(i, hi)
	start := i
	i, pub := p.visibility(i)
	// Qualifiers of functions (and of impl and trait blocks).
	for {
		switch {
		case p.Is(i, "default") && !p.Is(i+1, "(") && !p.Is(i+1, "!"),
			p.Is(i, "const") && (p.Is(i+1, "fn") || p.Is(i+1, "unsafe") || p.Is(i+1, "async") || p.Is(i+1, "extern")),
			p.Is(i, "async") && !p.Is(i+1, "{") && !p.Is(i+1, "move"),
			p.Is(i, "unsafe") && !p.Is(i+1, "{"):
			i++
			continue
		case p.Is(i, "extern") && p.Kind(i+1).IsString() && p.Is(i+2, "fn"):
			i += 2
			continue
		case p.Is(i, "extern") && p.Is(i+1, "fn"):
			i++
			continue
		}
		break
	}
	exported := pub || sc.traitImpl || sc.inTrait && sc.traitPub
	base := Symbol{
		Container: sc.container,
		Doc:       p.DocBefore(int(p.Toks[anchor].Off)),
		Line:      p.Line(start),
		Exported:  exported,
	}
	switch {
	case p.Is(i, "fn") && p.Ident(i+1):
		return p.fn(base, start, i, hi, sc)
	case (p.Is(i, "struct") || p.Is(i, "union")) && p.Ident(i+1):
		return p.structDecl(base, start, i, hi)
	case p.Is(i, "enum") && p.Ident(i+1):
		return p.enumDecl(base, start, i, hi)
	case p.Is(i, "trait") && p.Ident(i+1):
		return p.trait(base, start, i, hi, pub)
	case p.Is(i, "impl"):
		return p.impl(i, hi)
	case p.Is(i, "mod") && p.Ident(i+1):
		return p.mod(base, start, i, hi)
	case (p.Is(i, "const") || p.Is(i, "static")) && (p.Ident(i+1) || p.Is(i+1, "_")):
		return p.value(base, start, i, hi)
	case p.Is(i, "type") && p.Ident(i+1):
		end := p.semi(i, hi)
		s := base
		s.Name, s.NameCol, s.Kind = p.Text(i+1), p.Col(i+1), KindType
		s.Signature = p.Head(start, p.trimEnd(start, end))
		s.EndLine = p.Line(end - 1)
		p.out = append(p.out, s)
		return end
	case p.Is(i, "extern") && p.Is(i+1, "crate"), p.Is(i, "use"):
		return p.semi(i, hi)
	case p.Is(i, "extern") && (p.Is(i+1, "{") || p.Kind(i+1).IsString() && p.Is(i+2, "{")):
		open := i + 1
		if !p.Is(open, "{") {
			open++
		}
		if m := p.Match(open); m > open {
			p.scope(open+1, m, sc)
			return m + 1
		}
		return hi
	case p.Ident(i) && p.Is(i+1, "!"):
		// A macro invocation or macro_rules! definition at item level.
		j := i + 2
		if p.Ident(j) {
			j++
		}
		if m := p.Match(j); m > j && syntax.IsOpener(p.Text(j)) {
			j = m + 1
			if p.Is(j, ";") {
				j++
			}
			return j
		}
		return j
	}
	return p.skipItem(i, hi)
}

// sig renders the header [start, end) of an item; a where clause may end
// with a comma before the body, which is dropped.
func (p *rustParser) sig(start, end int) string {
	return strings.TrimSuffix(p.Join(start, end), ",")
}

// trimEnd drops a final ";" from the range [start, end).
func (p *rustParser) trimEnd(start, end int) int {
	if end > start && p.Is(end-1, ";") {
		return end - 1
	}
	return end
}

// blockOrSemi returns the index of the "{" that opens the body of an item
// whose header continues at i, or of the ";" that ends a bodiless one,
// skipping parentheses, brackets and type arguments.
func (p *rustParser) blockOrSemi(i, hi int) int {
	return p.scanHeader(i, hi, func(j, angle int) bool { return p.Is(j, ";") || angle == 0 && p.Is(j, "{") })
}

// block sets the signature and end line of s, an item whose header runs
// from start and whose body "{" follows from i. It returns the indices of
// the body's braces; close is -1 when the body is missing or left open.
func (p *rustParser) block(s *Symbol, start, i, hi int) (open, close int) {
	open = p.blockOrSemi(i, hi)
	s.Signature = p.sig(start, open)
	close = p.CloseOf(open, hi)
	if close < 0 {
		s.EndLine = p.Line(min(open, len(p.Toks)-1))
	} else {
		s.EndLine = p.Line(close)
	}
	return open, close
}

func (p *rustParser) fn(s Symbol, start, kw, hi int, sc rustScope) int {
	s.Name, s.NameCol = p.Text(kw+1), p.Col(kw+1)
	s.Kind = KindFunction
	if sc.impl || sc.inTrait {
		s.Kind = KindMethod
	}
	i := kw + 2
	if p.Is(i, "<") {
		i = p.skipAngles(i, hi)
	}
	if m := p.Match(i); p.Is(i, "(") && m > i {
		i = m + 1
	}
	end := p.blockOrSemi(i, hi)
	s.Signature = p.sig(start, end)
	next := end + 1
	if m := p.Match(end); p.Is(end, "{") && m > end {
		next = m + 1
	}
	s.EndLine = p.Line(min(next-1, len(p.Toks)-1))
	p.out = append(p.out, s)
	return next
}

func (p *rustParser) structDecl(s Symbol, start, kw, hi int) int {
	s.Name, s.NameCol, s.Kind = p.Text(kw+1), p.Col(kw+1), KindStruct
	i := kw + 2
	if p.Is(i, "<") {
		i = p.skipAngles(i, hi)
	}
	k := len(p.out)
	switch m := p.Match(i); {
	case p.Is(i, "(") && m > i: // a tuple struct
		end := p.semi(m, hi)
		s.Signature = p.Join(start, p.trimEnd(start, end))
		s.EndLine = p.Line(end - 1)
		p.out = append(p.out, s)
		n := 0
		for j := i + 1; j < m; {
			j, _ = p.visibility(p.skipAttrs(j, m))
			e := p.listItemEnd(j, m)
			if e > j {
				p.out[k].Fields = append(p.out[k].Fields, strconv.Itoa(n)+": "+p.Join(j, e))
				n++
			}
			j = e + 1
		}
		return end
	}
	open, close := p.block(&s, start, i, hi)
	p.out = append(p.out, s)
	if close < 0 {
		return open + 1
	}
	p.namedFields(k, open+1, close)
	return close + 1
}

// listItemEnd returns the index of the "," that ends the list item
// starting at i, or hi, skipping brackets and type arguments.
func (p *rustParser) listItemEnd(i, hi int) int {
	return p.scanHeader(i, hi, func(j, angle int) bool { return angle == 0 && p.Is(j, ",") })
}

// namedFields reads the fields "name: Type" of a struct body [lo, hi),
// whose symbol is out[k].
func (p *rustParser) namedFields(k, lo, hi int) {
	for i := lo; i < hi; {
		anchor := i
		i = p.skipAttrs(i, hi)
		start := i
		var pub bool
		i, pub = p.visibility(i)
		e := p.listItemEnd(i, hi)
		if p.Ident(i) && p.Is(i+1, ":") {
			field := p.Join(i, e)
			p.out[k].Fields = append(p.out[k].Fields, field)
			p.out = append(p.out, Symbol{
				Name:      p.Text(i),
				Container: p.out[k].Name,
				Kind:      KindField,
				Signature: p.Join(start, e),
				Doc:       p.DocBefore(int(p.Toks[anchor].Off)),
				Line:      p.Line(start),
				EndLine:   p.Line(max(e-1, start)),
				NameCol:   p.Col(i),
				Exported:  pub,
			})
		}
		i = max(e+1, i+1)
	}
}

func (p *rustParser) enumDecl(s Symbol, start, kw, hi int) int {
	s.Name, s.NameCol, s.Kind = p.Text(kw+1), p.Col(kw+1), KindEnum
	open, close := p.block(&s, start, kw+2, hi)
	if close < 0 {
		p.out = append(p.out, s)
		return open + 1
	}
	for i := open + 1; i < close; {
		i = p.skipAttrs(i, close)
		if p.Ident(i) {
			s.Fields = append(s.Fields, p.Text(i))
		}
		i = max(p.listItemEnd(i, close)+1, i+1)
	}
	p.out = append(p.out, s)
	return close + 1
}

func (p *rustParser) trait(s Symbol, start, kw, hi int, pub bool) int {
	s.Name, s.NameCol, s.Kind = p.Text(kw+1), p.Col(kw+1), KindTrait
	open, close := p.block(&s, start, kw+2, hi)
	p.out = append(p.out, s)
	if close < 0 {
		return open + 1
	}
	p.scope(open+1, close, rustScope{container: s.Name, inTrait: true, traitPub: pub})
	return close + 1
}

// impl reads an impl block: it is not a symbol itself, but its items are
// members of the implementing type.
func (p *rustParser) impl(kw, hi int) int {
	i := kw + 1
	if p.Is(i, "<") {
		i = p.skipAngles(i, hi)
	}
	open := p.blockOrSemi(i, hi)
	// The self type follows "for" when a trait is implemented.
	self, traitImpl := i, false
	for j := i; j < open; j++ {
		if p.Is(j, "for") {
			self, traitImpl = j+1, true
			break
		}
		if p.Is(j, "where") {
			break
		}
	}
	sc := rustScope{container: p.selfType(self, open), impl: true, traitImpl: traitImpl}
	close := p.CloseOf(open, hi)
	if close < 0 {
		return open + 1
	}
	p.scope(open+1, close, sc)
	return close + 1
}

// selfType returns the base name of the type at i: Foo for &'a mut
// crate::x::Foo<T>, dyn Foo or [Foo].
func (p *rustParser) selfType(i, hi int) string {
	name := ""
	for ; i < hi; i++ {
		switch {
		case p.Is(i, "<"), p.Is(i, "where"), p.Is(i, "{"):
			return name
		case p.Ident(i) && !p.Is(i, "mut") && !p.Is(i, "dyn") && !p.Is(i, "const"):
			name = p.Text(i)
			if !p.Is(i+1, "::") {
				return name
			}
		}
	}
	return name
}

func (p *rustParser) mod(s Symbol, start, kw, hi int) int {
	s.Name, s.NameCol, s.Kind = p.Text(kw+1), p.Col(kw+1), KindModule
	open := kw + 2
	close := p.CloseOf(open, hi)
	if close < 0 {
		end := p.semi(kw, hi)
		s.Signature = p.Join(start, p.trimEnd(start, end))
		s.EndLine = p.Line(end - 1)
		p.out = append(p.out, s)
		return end
	}
	s.Signature = p.Join(start, open)
	s.EndLine = p.Line(close)
	p.out = append(p.out, s)
	p.scope(open+1, close, rustScope{container: s.Name})
	return close + 1
}

// value reads a const or static item; an underscore const is not a
// symbol.
func (p *rustParser) value(s Symbol, start, kw, hi int) int {
	end := p.semi(kw, hi)
	name := kw + 1
	if p.Is(name, "mut") {
		name++
	}
	if !p.Ident(name) || p.Is(name, "_") {
		return end
	}
	s.Name, s.NameCol = p.Text(name), p.Col(name)
	s.Kind = KindConst
	if p.Is(kw, "static") {
		s.Kind = KindVar
	}
	s.Signature = p.Head(start, p.trimEnd(start, end))
	s.EndLine = p.Line(end - 1)
	p.out = append(p.out, s)
	return end
}
