package functional

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// OffByOneIndex finds bound checks against len() that let the index
// len(x) through to x[i].
var OffByOneIndex = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/off-by-one-index",
		Perspective: review.Functional,
		Category:    CatEdgeCases,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangPython},
		Depth:       review.DepthBasic,
		Summary:     "Bound check lets the index len(x) through",
		Doc: "The last valid index of x is len(x) - 1, so a guard `if i > len(x): raise ...`, `if len(x) < i: " +
			"return` or `if i <= len(x):` followed by `x[i]` lets i == len(x) reach the index, which raises " +
			"IndexError on exactly the boundary input (an empty list, the last argument, a short packet). Compare " +
			"with `>=` / `<`. Reported only when the same index and sequence appear in the check and, within the " +
			"next lines of the function, in a subscript; slices (x[:i], x[i:]) and insert/append are left alone.",
		Bad:  "if count > len(params):\n    raise ValueError(\"too few\")\nvalue = params[count]",
		Good: "if count >= len(params):\n    raise ValueError(\"too few\")\nvalue = params[count]",
	},
	Run: runOffByOneIndex,
}

var (
	// offByOneGuards match checks that reject the wrong side of the bound:
	// i > len(x), len(x) < i (the index then reaches x[len(x)]) and
	// i <= len(x), len(x) >= i (the body indexes x[len(x)]).
	offByOneGuards = []*regexp.Regexp{
		regexp.MustCompile(`\b(?:if|while|elif)\s+(?:not\s+)?([\w.]+)\s*(>|<=)\s*len\(\s*([\w.]+)\s*\)\s*:`),
		regexp.MustCompile(`\b(?:if|while|elif)\s+(?:not\s+)?len\(\s*([\w.]+)\s*\)\s*(<|>=)\s*([\w.]+)\s*:`),
	}
	offByOneLook = 12 // lines after the check searched for the subscript
)

func runOffByOneIndex(p *lens.Pass) {
	if !p.Contains("len(") {
		return
	}
	py := syntax.Python(p.File)
	p.EachChanged(func(n int, _ string) {
		code := py.CodeLine(n)
		if !strings.Contains(code, "len(") {
			return // the guards' literal, before their backtracking
		}
		for k, re := range offByOneGuards {
			m := re.FindStringSubmatch(code)
			if m == nil {
				continue
			}
			idx, op, seq := m[1], m[2], m[3]
			if k == 1 {
				seq, idx = m[1], m[3]
			}
			block := py.BlockEnd(n)
			from, to := n+1, block // i <= len(x): the body indexes
			if op == ">" || op == "<" {
				// A rejection: it must leave, and the index comes after.
				if !pyLeaves(py, n+1, block) {
					continue
				}
				from, to = block+1, min(block+offByOneLook, len(py.Lines))
				if fn := py.FuncAt(n); fn != nil {
					to = min(to, fn.End)
				}
			}
			for j := from; j <= to; j++ {
				line := py.CodeLine(j)
				if j > n+1 && strings.Contains(line, "len("+seq+")") {
					break // checked again before the index
				}
				if subscripts(line, seq, idx) {
					p.Report(lens.Report{
						Line: n, Symbol: lens.PyFuncName(py, n),
						Message: fmt.Sprintf("`%s` lets %s == len(%s) through, and line %d reads %s[%s]: IndexError on the "+
							"boundary input.", strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(code), ":")), idx, seq, j, seq, idx),
						Suggested: "Compare so that the last index accepted is len(" + seq + ") - 1 (`>=` instead of `>`, `<` instead of `<=`).",
					})
					return
				}
			}
		}
	})
}

// subscripts reports whether line reads seq[idx] (blanks allowed inside
// the brackets), seq standing alone: not the tail of another name or
// attribute (other_items[i], self.items[i] for items).
func subscripts(line, seq, idx string) bool {
	for i := 0; ; {
		k := strings.Index(line[i:], seq)
		if k < 0 {
			return false
		}
		k += i
		i = k + 1
		if k > 0 && (syntax.PyIdentByte(line[k-1]) || line[k-1] == '.') {
			continue
		}
		rest, ok := strings.CutPrefix(line[k+len(seq):], "[")
		if !ok {
			continue
		}
		rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t"), idx)
		if ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), "]") {
			return true
		}
	}
}

// pyLeaves reports whether lines [from, to] hold a statement that leaves
// the block: return, raise, continue, break or an exit.
func pyLeaves(py *syntax.PyFile, from, to int) bool {
	for j := from; j <= to; j++ {
		t := strings.TrimSpace(py.CodeLine(j))
		for _, w := range []string{"return", "raise", "continue", "break", "sys.exit", "exit(", "abort("} {
			if strings.HasPrefix(t, w) {
				return true
			}
		}
	}
	return false
}
