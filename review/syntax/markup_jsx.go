package syntax

// scanJSX reads the JSX elements of JSX or TSX content from its tokens
// (s.toks, the rules' reading, where the lexer marked the tags, the text
// and the child expressions; a template literal is one token there, so
// an element inside a ${} substitution is not seen): each start tag's attributes are read from
// the source within the bounds its tokens give, and the expressions in
// attribute values are walked for the elements they hold, which are
// descendants of the tag.
func (s *mkScanner) scanJSX() {
	toks := s.toks
	// reading holds the start tags whose tokens are being walked: the
	// index of the ">" that ends each and the tag's index.
	type reading struct{ end, idx int }
	var open []reading
	for k := 0; k < len(toks); k++ {
		if n := len(open); n > 0 && k == open[n-1].end {
			r := open[n-1]
			open = open[:n-1]
			s.stack = s.stack[:len(s.stack)-1]
			t := &s.m.Tags[r.idx]
			t.Last = len(s.m.Tags) - 1
			if !t.SelfClosing {
				s.stack = append(s.stack, r.idx) // its children follow
			}
			continue
		}
		t := toks[k]
		switch {
		case t.Flags&TokJSXOpen != 0:
			e := jsxTagEnd(toks, k)
			end := len(s.src)
			if e < len(toks) {
				end = int(toks[e].End)
			}
			idx, _ := s.tagIn(int(t.Off), end)
			if k >= 2 && s.tokIs(k-1, "{") && toks[k-1].Flags&TokJSXChild == 0 && s.tokIs(k-2, "=") {
				// An element passed as a prop (render={<a href="#" />}) is
				// cloned by the component, which gives it children and
				// attributes.
				s.m.Tags[idx].Spread = true
				s.m.Tags[idx].Expr = true
			}
			s.stack = append(s.stack, idx) // elements in its attribute values
			open = append(open, reading{end: e, idx: idx})
		case t.Flags&TokJSXClose != 0: // the end tag: JSX nests strictly
			if top := s.top(); top >= 0 {
				s.close(top)
			}
			k = jsxTagEnd(toks, k)
		case t.Kind == TokJSXText:
			s.text(s.src[t.Off:t.End])
		case t.Flags&TokJSXChild != 0:
			if m := int(t.Match); m > k+1 || m < 0 && k+1 < len(toks) {
				s.expr()
			}
		}
	}
}

// jsxTagEnd returns the index of the ">" that ends the tag whose "<" is
// toks[k], or len(toks) when it is left open.
func jsxTagEnd(toks []Token, k int) int {
	depth := 0
	for j := k; j < len(toks); j++ {
		switch f := toks[j].Flags; {
		case f&(TokJSXOpen|TokJSXClose) != 0:
			depth++
		case f&TokJSXEnd != 0:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return len(toks)
}

// tagIn records the start tag src[from:to], whose bounds the tokenizer
// or the lexer found: its attributes are read within them. It returns the
// tag's index and whether it closed itself with "/>".
func (s *mkScanner) tagIn(from, to int) (idx int, self bool) {
	full := s.src
	s.src, s.i = full[:to], from
	idx, self = s.openTag()
	s.src, s.i = full, to
	s.m.Tags[idx].End = to
	return idx, self
}

// tokIs reports whether token k exists and its text is text.
func (s *mkScanner) tokIs(k int, text string) bool {
	if k < 0 || k >= len(s.toks) {
		return false
	}
	t := s.toks[k]
	return s.src[t.Off:min(int(t.End), len(s.src))] == text
}

// brace moves past the expression whose "{" is just before s.i, and
// reports whether it holds code (not only comments) and whether it starts
// with a spread ("..."). In JSX the file's tokens know where it ends;
// elsewhere the expression is lexed alone.
func (s *mkScanner) brace() (sig, spread bool) {
	if !s.jsx {
		s.i, sig, spread = ExprEnd(s.src, s.i)
		return sig, spread
	}
	off := int32(s.i - 1)
	lo, hi := 0, len(s.toks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.toks[m].Off < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo >= len(s.toks) || s.toks[lo].Off != off {
		s.i, sig, spread = ExprEnd(s.src, s.i) // not a token: lex the expression alone
		return sig, spread
	}
	m := int(s.toks[lo].Match)
	if m < 0 {
		s.i = len(s.src)
		return lo+1 < len(s.toks), s.tokIs(lo+1, "...")
	}
	s.i = min(int(s.toks[m].End), len(s.src))
	return m > lo+1, s.tokIs(lo+1, "...")
}
