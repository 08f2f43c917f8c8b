package functional

import (
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// MutableDefault finds Python parameters whose default is a mutable object
// shared by every call.
var MutableDefault = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/mutable-default",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangPython},
		Depth:       review.DepthBasic,
		Summary:     "Mutable default argument",
		Doc: "Python evaluates a default value once, when the def runs, so a `[]`, `{}`, `set()`, `dict()` or `list()` " +
			"default is one object shared by every call: whatever one call appends is still there in the next, and " +
			"state leaks between callers. Default to None and create the object in the body " +
			"(`if items is None: items = []`); the fix does exactly that, after any docstring, and widens an annotation " +
			"to `T | None`. Non-empty literals (`choices=[\"a\", \"b\"]`), usually read-only tables, and immutable " +
			"defaults (tuples, frozenset()) are not reported.",
		Bad:     "def add(item, items=[]):\n    items.append(item)\n    return items",
		Good:    "def add(item, items=None):\n    if items is None:\n        items = []\n    items.append(item)\n    return items",
		Fixable: true,
	},
	Run: runMutableDefault,
}

var mutableDefaults = map[string]bool{"[]": true, "{}": true, "set()": true, "dict()": true, "list()": true}

func runMutableDefault(p *lens.Pass) {
	if !p.Contains("def ") {
		return
	}
	py := syntax.Python(p.File)
	for i := range py.Funcs {
		fn := &py.Funcs[i]
		for _, a := range py.Args(fn.Open) {
			eq := topLevelEquals(py.Code[a.Off:a.End])
			if eq < 0 {
				continue
			}
			defOff := a.Off + eq + 1
			for defOff < a.End && (py.Code[defOff] == ' ' || py.Code[defOff] == '\t') {
				defOff++
			}
			def := py.Src[defOff:a.End]
			if !mutableDefaults[strings.Join(strings.Fields(def), "")] {
				continue
			}
			line := py.LineOf(defOff)
			if !p.Changed(line) {
				continue
			}
			head := py.Src[a.Off : a.Off+eq]
			name, ann, annotated := strings.Cut(head, ":")
			name = strings.TrimSpace(strings.TrimLeft(name, "*"))
			endLine := py.LineOf(a.End - 1)
			p.Report(lens.Report{
				Line:    line,
				Col:     defOff - py.Offset(line) + 1,
				EndLine: endLine,
				EndCol:  a.End - py.Offset(endLine) + 1,
				Symbol:  fn.Name,
				Title:   fmt.Sprintf("Mutable default argument %s", name),
				Message: fmt.Sprintf("The default `%s=%s` of %s() is created once and shared by every call: what one call "+
					"adds to it is still there in the next.", name, def, fn.Name),
				Suggested: fmt.Sprintf("Default to None and create the object in the body: `if %[1]s is None: %[1]s = %[2]s`.", name, def),
				Fix:       mutableDefaultFix(p, py, fn, a, eq, defOff, name, def, ann, annotated),
			})
		}
	}
}

// topLevelEquals returns the index of the "=" of a parameter's default,
// outside brackets, or -1.
func topLevelEquals(param string) int {
	depth := 0
	for i := 0; i < len(param); i++ {
		switch param[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '=':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// mutableDefaultFix replaces the default with None (widening an annotation
// to "T | None") and inserts the None guard as the first statement after
// the docstring. It returns nil for one-line defs and annotations that
// span lines.
func mutableDefaultFix(p *lens.Pass, py *syntax.PyFile, fn *syntax.PyFunc, a syntax.PyArg, eq, defOff int, name, def, ann string, annotated bool) *review.Fix {
	colonLine := py.LineOf(fn.Colon)
	if fn.Body <= colonLine {
		return nil
	}
	line := py.LineOf(defOff)
	span := func(from, to int) review.Span {
		return review.Span{Path: p.File.Path, StartLine: line, StartCol: from - py.Offset(line) + 1, EndLine: line, EndCol: to - py.Offset(line) + 1}
	}
	edits := []review.TextEdit{{Span: span(defOff, a.End), NewText: "None"}}
	if annotated {
		annOff := a.Off + strings.Index(py.Src[a.Off:a.End], ":") + 1
		annEnd := a.Off + eq
		for annEnd > annOff && py.Src[annEnd-1] == ' ' {
			annEnd--
		}
		ann = strings.TrimSpace(ann)
		if py.LineOf(annOff) != line {
			return nil
		}
		if !strings.Contains(ann, "None") && !strings.HasPrefix(ann, "Optional[") {
			edits = append(edits, review.TextEdit{Span: span(annEnd, annEnd), NewText: " | None"})
		}
	}
	// Skip a docstring: a first statement made only of string literals.
	at, last := fn.Body, fn.Body
	for k := fn.Body + 1; k <= len(py.Lines) && !py.Lines[k-1].Logical && !py.Lines[k-1].Blank; k++ {
		last = k
	}
	body := p.Line(fn.Body)
	indent := pyLeadingSpace(body)
	if py.Literal(py.Offset(fn.Body)+len(indent), py.Offset(last)+len(p.Line(last))) {
		at = last + 1
	}
	unit := "    "
	if outer := pyLeadingSpace(p.Line(fn.Line)); strings.HasPrefix(indent, outer) && len(indent) > len(outer) {
		unit = indent[len(outer):]
	}
	guard := fmt.Sprintf("%[1]sif %[2]s is None:\n%[1]s%[3]s%[2]s = %[4]s\n", indent, name, unit, def)
	edits = append(edits, review.TextEdit{
		Span:    review.Span{Path: p.File.Path, StartLine: at, StartCol: 1, EndLine: at, EndCol: 1},
		NewText: guard,
	})
	return &review.Fix{Title: fmt.Sprintf("Default %s to None and create it in the body", name), Edits: edits}
}

// pyLeadingSpace returns the indentation of a line.
func pyLeadingSpace(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }
