package symbol

import (
	"strconv"
	"strings"
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
	p.scope(0, len(lx.toks), rustScope{})
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
	for i < hi && p.is(i, "#") {
		j := i + 1
		if p.is(j, "!") {
			j++
		}
		m := p.match(j)
		if !p.is(j, "[") || m < j {
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
	if !p.is(i, "pub") {
		return i, false
	}
	i++
	if m := p.match(i); p.is(i, "(") && m > i {
		return m + 1, false
	}
	return i, true
}

// item reads the item at i and returns the index after it.
func (p *rustParser) item(i, hi int, sc rustScope) int {
	if p.is(i, ";") {
		return i + 1
	}
	anchor := i
	i = p.skipAttrs(i, hi)
	start := i
	i, pub := p.visibility(i)
	// Qualifiers of functions (and of impl and trait blocks).
	for {
		switch {
		case p.is(i, "default") && !p.is(i+1, "(") && !p.is(i+1, "!"),
			p.is(i, "const") && (p.is(i+1, "fn") || p.is(i+1, "unsafe") || p.is(i+1, "async") || p.is(i+1, "extern")),
			p.is(i, "async") && !p.is(i+1, "{") && !p.is(i+1, "move"),
			p.is(i, "unsafe") && !p.is(i+1, "{"):
			i++
			continue
		case p.is(i, "extern") && p.kind(i+1) == tString && p.is(i+2, "fn"):
			i += 2
			continue
		case p.is(i, "extern") && p.is(i+1, "fn"):
			i++
			continue
		}
		break
	}
	exported := pub || sc.traitImpl || sc.inTrait && sc.traitPub
	base := Symbol{
		Container: sc.container,
		Doc:       p.docBefore(int(p.toks[anchor].off)),
		Line:      p.line(start),
		Exported:  exported,
	}
	switch {
	case p.is(i, "fn") && p.ident(i+1):
		return p.fn(base, start, i, hi, sc)
	case (p.is(i, "struct") || p.is(i, "union")) && p.ident(i+1):
		return p.structDecl(base, start, i, hi)
	case p.is(i, "enum") && p.ident(i+1):
		return p.enumDecl(base, start, i, hi)
	case p.is(i, "trait") && p.ident(i+1):
		return p.trait(base, start, i, hi, pub)
	case p.is(i, "impl"):
		return p.impl(i, hi)
	case p.is(i, "mod") && p.ident(i+1):
		return p.mod(base, start, i, hi)
	case (p.is(i, "const") || p.is(i, "static")) && (p.ident(i+1) || p.is(i+1, "_")):
		return p.value(base, start, i, hi)
	case p.is(i, "type") && p.ident(i+1):
		end := p.semi(i, hi)
		s := base
		s.Name, s.NameCol, s.Kind = p.text(i+1), p.col(i+1), KindType
		s.Signature = p.head(start, p.trimEnd(start, end))
		s.EndLine = p.line(end - 1)
		p.out = append(p.out, s)
		return end
	case p.is(i, "extern") && p.is(i+1, "crate"), p.is(i, "use"):
		return p.semi(i, hi)
	case p.is(i, "extern") && (p.is(i+1, "{") || p.kind(i+1) == tString && p.is(i+2, "{")):
		open := i + 1
		if !p.is(open, "{") {
			open++
		}
		if m := p.match(open); m > open {
			p.scope(open+1, m, sc)
			return m + 1
		}
		return hi
	case p.ident(i) && p.is(i+1, "!"):
		// A macro invocation or macro_rules! definition at item level.
		j := i + 2
		if p.ident(j) {
			j++
		}
		if m := p.match(j); m > j && isOpener(p.text(j)) {
			j = m + 1
			if p.is(j, ";") {
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
	return strings.TrimSuffix(p.join(start, end), ",")
}

// trimEnd drops a final ";" from the range [start, end).
func (p *rustParser) trimEnd(start, end int) int {
	if end > start && p.is(end-1, ";") {
		return end - 1
	}
	return end
}

// blockOrSemi returns the index of the "{" that opens the body of an item
// whose header continues at i, or of the ";" that ends a bodiless one,
// skipping parentheses, brackets and type arguments.
func (p *rustParser) blockOrSemi(i, hi int) int {
	angle := 0
	for ; i < hi; i++ {
		switch p.text(i) {
		case "<":
			angle++
		case ">":
			angle = max(angle-1, 0)
		case ";":
			return i
		case "{":
			if angle == 0 {
				return i
			}
		}
		if m := p.match(i); m > i && isOpener(p.text(i)) && !(p.is(i, "{") && angle == 0) {
			i = m
		}
	}
	return hi
}

// block sets the signature and end line of s, an item whose header runs
// from start and whose body "{" follows from i. It returns the indices of
// the body's braces; close is -1 when the body is missing or left open.
func (p *rustParser) block(s *Symbol, start, i, hi int) (open, close int) {
	open = p.blockOrSemi(i, hi)
	s.Signature = p.sig(start, open)
	close = p.closeOf(open, hi)
	if close < 0 {
		s.EndLine = p.line(min(open, len(p.toks)-1))
	} else {
		s.EndLine = p.line(close)
	}
	return open, close
}

func (p *rustParser) fn(s Symbol, start, kw, hi int, sc rustScope) int {
	s.Name, s.NameCol = p.text(kw+1), p.col(kw+1)
	s.Kind = KindFunction
	if sc.impl || sc.inTrait {
		s.Kind = KindMethod
	}
	i := kw + 2
	if p.is(i, "<") {
		i = p.skipAngles(i, hi)
	}
	if m := p.match(i); p.is(i, "(") && m > i {
		i = m + 1
	}
	end := p.blockOrSemi(i, hi)
	s.Signature = p.sig(start, end)
	next := end + 1
	if m := p.match(end); p.is(end, "{") && m > end {
		next = m + 1
	}
	s.EndLine = p.line(min(next-1, len(p.toks)-1))
	p.out = append(p.out, s)
	return next
}

func (p *rustParser) structDecl(s Symbol, start, kw, hi int) int {
	s.Name, s.NameCol, s.Kind = p.text(kw+1), p.col(kw+1), KindStruct
	i := kw + 2
	if p.is(i, "<") {
		i = p.skipAngles(i, hi)
	}
	k := len(p.out)
	switch m := p.match(i); {
	case p.is(i, "(") && m > i: // a tuple struct
		end := p.semi(m, hi)
		s.Signature = p.join(start, p.trimEnd(start, end))
		s.EndLine = p.line(end - 1)
		p.out = append(p.out, s)
		n := 0
		for j := i + 1; j < m; {
			j, _ = p.visibility(p.skipAttrs(j, m))
			e := p.listItemEnd(j, m)
			if e > j {
				p.out[k].Fields = append(p.out[k].Fields, strconv.Itoa(n)+": "+p.join(j, e))
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
	angle := 0
	for ; i < hi; i++ {
		switch p.text(i) {
		case "<":
			angle++
		case ">":
			angle = max(angle-1, 0)
		case ",":
			if angle == 0 {
				return i
			}
		}
		if m := p.match(i); m > i && isOpener(p.text(i)) {
			i = m
		}
	}
	return hi
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
		if p.ident(i) && p.is(i+1, ":") {
			field := p.join(i, e)
			p.out[k].Fields = append(p.out[k].Fields, field)
			p.out = append(p.out, Symbol{
				Name:      p.text(i),
				Container: p.out[k].Name,
				Kind:      KindField,
				Signature: p.join(start, e),
				Doc:       p.docBefore(int(p.toks[anchor].off)),
				Line:      p.line(start),
				EndLine:   p.line(max(e-1, start)),
				NameCol:   p.col(i),
				Exported:  pub,
			})
		}
		i = max(e+1, i+1)
	}
}

func (p *rustParser) enumDecl(s Symbol, start, kw, hi int) int {
	s.Name, s.NameCol, s.Kind = p.text(kw+1), p.col(kw+1), KindEnum
	open, close := p.block(&s, start, kw+2, hi)
	if close < 0 {
		p.out = append(p.out, s)
		return open + 1
	}
	for i := open + 1; i < close; {
		i = p.skipAttrs(i, close)
		if p.ident(i) {
			s.Fields = append(s.Fields, p.text(i))
		}
		i = max(p.listItemEnd(i, close)+1, i+1)
	}
	p.out = append(p.out, s)
	return close + 1
}

func (p *rustParser) trait(s Symbol, start, kw, hi int, pub bool) int {
	s.Name, s.NameCol, s.Kind = p.text(kw+1), p.col(kw+1), KindTrait
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
	if p.is(i, "<") {
		i = p.skipAngles(i, hi)
	}
	open := p.blockOrSemi(i, hi)
	// The self type follows "for" when a trait is implemented.
	self, traitImpl := i, false
	for j := i; j < open; j++ {
		if p.is(j, "for") {
			self, traitImpl = j+1, true
			break
		}
		if p.is(j, "where") {
			break
		}
	}
	sc := rustScope{container: p.selfType(self, open), impl: true, traitImpl: traitImpl}
	close := p.closeOf(open, hi)
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
		case p.is(i, "<"), p.is(i, "where"), p.is(i, "{"):
			return name
		case p.ident(i) && !p.is(i, "mut") && !p.is(i, "dyn") && !p.is(i, "const"):
			name = p.text(i)
			if !p.is(i+1, "::") {
				return name
			}
		}
	}
	return name
}

func (p *rustParser) mod(s Symbol, start, kw, hi int) int {
	s.Name, s.NameCol, s.Kind = p.text(kw+1), p.col(kw+1), KindModule
	open := kw + 2
	close := p.closeOf(open, hi)
	if close < 0 {
		end := p.semi(kw, hi)
		s.Signature = p.join(start, p.trimEnd(start, end))
		s.EndLine = p.line(end - 1)
		p.out = append(p.out, s)
		return end
	}
	s.Signature = p.join(start, open)
	s.EndLine = p.line(close)
	p.out = append(p.out, s)
	p.scope(open+1, close, rustScope{container: s.Name})
	return close + 1
}

// value reads a const or static item; an underscore const is not a
// symbol.
func (p *rustParser) value(s Symbol, start, kw, hi int) int {
	end := p.semi(kw, hi)
	name := kw + 1
	if p.is(name, "mut") {
		name++
	}
	if !p.ident(name) || p.is(name, "_") {
		return end
	}
	s.Name, s.NameCol = p.text(name), p.col(name)
	s.Kind = KindConst
	if p.is(kw, "static") {
		s.Kind = KindVar
	}
	s.Signature = p.head(start, p.trimEnd(start, end))
	s.EndLine = p.line(end - 1)
	p.out = append(p.out, s)
	return end
}
