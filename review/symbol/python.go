package symbol

import (
	"strings"

	"github.com/reviewls/reviewls/review/syntax"
)

// pyLine is one logical line of Python: the tokens [lo, hi) of a
// statement, which may span physical lines inside brackets or after a
// backslash.
type pyLine struct {
	lo, hi int
	indent int
}

// pyLogicalLines splits the tokens of a Python file into logical lines.
// Comments are not tokens, so a comment line never starts one.
func pyLogicalLines(lx *lexed) []pyLine {
	var out []pyLine
	depth := 0
	for i, t := range lx.Toks {
		if t.NL && depth == 0 && !lx.Is(i-1, "\\") {
			if n := len(out); n > 0 {
				out[n-1].hi = i
			}
			out = append(out, pyLine{lo: i, hi: len(lx.Toks), indent: lx.indent(i)})
		}
		if t.Kind == syntax.TokPunct && t.End-t.Off == 1 {
			switch lx.Src[t.Off] {
			case '(', '[', '{':
				if int(t.Match) > i {
					depth++
				}
			case ')', ']', '}':
				if t.Match >= 0 && depth > 0 {
					depth--
				}
			}
		}
	}
	return out
}

// indent returns the width of the white space before token i on its line,
// tabs advancing to the next multiple of eight.
func (lx *lexed) indent(i int) int {
	t := lx.Toks[i]
	w := 0
	for _, c := range lx.Src[lx.LineStart[t.Line-1]:t.Off] {
		if c == '\t' {
			w = w/8*8 + 8
		} else {
			w++
		}
	}
	return w
}

// pyBlock is an open def or class while walking a Python file.
type pyBlock struct {
	indent int
	class  bool
	// sym is the index of the block's symbol in the output, or -1 for a
	// local function, whose contents are not symbols.
	sym  int
	name string
	// self is the first parameter of an __init__ method, whose attribute
	// assignments are fields of the class symbol cls.
	self string
	cls  int
}

func extractPython(lx *lexed) []Symbol {
	lines := pyLogicalLines(lx)
	var out []Symbol
	var stack []pyBlock
	prevEnd := 0
	closeTo := func(indent int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			if b := stack[len(stack)-1]; b.sym >= 0 {
				out[b.sym].EndLine = max(prevEnd, out[b.sym].Line)
			}
			stack = stack[:len(stack)-1]
		}
	}
	for n, L := range lines {
		closeTo(L.indent)
		// container is the innermost class, unless a def is nearer: then
		// the line is inside a function body.
		container, cls, local := "", -1, false
		var top *pyBlock
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		for k := len(stack) - 1; k >= 0; k-- {
			if !stack[k].class {
				local = true
				break
			}
			container, cls = stack[k].name, stack[k].sym
			break
		}
		i := L.lo
		start := i
		if lx.Is(i, "async") && lx.Is(i+1, "def") {
			i++
		}
		switch {
		case lx.Is(i, "def") && lx.Ident(i+1), lx.Is(i, "class") && lx.Ident(i+1):
			isClass := lx.Is(i, "class")
			name := lx.Text(i + 1)
			colon := pyFind(lx, i+2, L.hi, ':')
			b := pyBlock{indent: L.indent, class: isClass, sym: -1, name: name, cls: cls}
			if !local && (top == nil || top.sym >= 0) {
				s := Symbol{
					Name:      name,
					Container: container,
					Kind:      KindFunction,
					Signature: lx.Join(start, colon),
					Doc:       pyDocstring(lx, lines, n, colon),
					Line:      lx.Line(start),
					EndLine:   lx.EndLine(L.hi - 1),
					NameCol:   lx.Col(i + 1),
					Exported:  pyExported(name),
				}
				switch {
				case isClass:
					s.Kind = KindClass
				case container != "":
					s.Kind = KindMethod
				}
				b.sym = len(out)
				out = append(out, s)
				if name == "__init__" && container != "" && lx.Is(i+2, "(") && lx.Ident(i+3) {
					b.self = lx.Text(i + 3)
				}
			}
			stack = append(stack, b)
		case top != nil && top.class && top.sym >= 0 && lx.Ident(i) && lx.Is(i+1, ":"):
			// An annotated class attribute: a dataclass or model field.
			end := pyFind(lx, i, L.hi, '=')
			field := lx.Join(i, end)
			out[top.sym].Fields = append(out[top.sym].Fields, field)
			out = append(out, Symbol{
				Name:      lx.Text(i),
				Container: top.name,
				Kind:      KindField,
				Signature: field,
				Line:      lx.Line(i),
				EndLine:   lx.EndLine(L.hi - 1),
				NameCol:   lx.Col(i),
				Exported:  pyExported(lx.Text(i)),
			})
		case top != nil && top.self != "" && top.cls >= 0:
			pyInitFields(lx, &out[top.cls], top.self, i, L.hi)
		case top == nil && lx.Ident(i) && pyConstName(lx.Text(i)) && (lx.Is(i+1, "=") || lx.Is(i+1, ":")):
			out = append(out, Symbol{
				Name:      lx.Text(i),
				Kind:      KindConst,
				Signature: lx.Head(i, L.hi),
				Line:      lx.Line(i),
				EndLine:   lx.EndLine(L.hi - 1),
				NameCol:   lx.Col(i),
				Exported:  pyExported(lx.Text(i)),
			})
		}
		prevEnd = lx.EndLine(L.hi - 1)
	}
	closeTo(-1)
	return out
}

// pyFind returns the index of the first one-byte token c in [i, hi)
// outside brackets, or hi: the ":" that ends a def or class header, the
// "=" of an assignment.
func pyFind(lx *lexed, i, hi int, c byte) int {
	for ; i < hi; i++ {
		if m := lx.Match(i); m > i && syntax.IsOpener(lx.Text(i)) {
			i = min(m, hi)
			continue
		}
		if t := lx.Toks[i]; t.End-t.Off == 1 && lx.Src[t.Off] == c {
			return i
		}
	}
	return hi
}

// pyInitFields adds to cls.Fields the attributes an __init__ statement
// [i, hi) assigns to self: "x" for self.x = ..., "x: int" when annotated.
func pyInitFields(lx *lexed, cls *Symbol, self string, i, hi int) {
	eq := pyFind(lx, i, hi, '=')
	if eq == hi {
		return
	}
	for k := i; k < eq; k++ {
		if !lx.Is(k, self) || !lx.Is(k+1, ".") || !lx.Ident(k+2) || lx.Is(k-1, ".") {
			continue
		}
		field := lx.Text(k + 2)
		if lx.Is(k+3, ":") {
			field = lx.Join(k+2, eq)
		}
		dup := false
		for _, f := range cls.Fields {
			if f == field || strings.HasPrefix(f, lx.Text(k+2)+":") || f == lx.Text(k+2) {
				dup = true
			}
		}
		if !dup {
			cls.Fields = append(cls.Fields, field)
		}
		k += 2
	}
}

// pyDocstring returns the docstring of the def or class on logical line
// n, whose header ends at token colon: a statement made only of string
// literals, first in the body.
func pyDocstring(lx *lexed, lines []pyLine, n, colon int) string {
	lo, hi := colon+1, lines[n].hi
	if lo >= hi { // the body starts on the next line
		if n+1 >= len(lines) || lines[n+1].indent <= lines[n].indent {
			return ""
		}
		lo, hi = lines[n+1].lo, lines[n+1].hi
	}
	var parts []string
	for k := lo; k < hi; k++ {
		if !lx.Kind(k).IsString() {
			return ""
		}
		s := lx.Text(k)
		if prefix := s[:strings.IndexAny(s, `"'`)+1]; strings.ContainsAny(prefix, "fF") {
			return "" // an f-string is not a docstring
		}
		parts = append(parts, stripPyQuotes(s))
	}
	return cleanDoc(strings.Join(parts, ""))
}

// stripPyQuotes removes the prefix and quotes of a string literal.
func stripPyQuotes(s string) string {
	s = strings.TrimLeft(s, "rRbBuU")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) {
			s = strings.TrimPrefix(s, q)
			return strings.TrimSuffix(s, q)
		}
	}
	return s
}

// cleanDoc dedents a docstring the way inspect.cleandoc does: the first
// line is stripped, the others lose their common indentation, and leading
// and trailing blank lines go.
func cleanDoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\t", "        "), "\n")
	common := -1
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " "); t != "" {
			if ind := len(l) - len(t); common < 0 || ind < common {
				common = ind
			}
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \r")
		if common > 0 && len(l) >= common {
			l = l[common:]
		} else {
			l = strings.TrimLeft(l, " ")
		}
		lines[i] = l
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// pyExported reports whether a Python name is public: no leading
// underscore, or a dunder name such as __init__.
func pyExported(name string) bool {
	return !strings.HasPrefix(name, "_") || len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// pyConstName reports whether name is written like a module constant:
// UPPER_CASE, maybe with a leading underscore.
func pyConstName(name string) bool {
	name = strings.TrimPrefix(name, "_")
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
