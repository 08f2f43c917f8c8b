package functional

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// BareExcept finds Python handlers that catch everything, and broad
// handlers that discard the error.
var BareExcept = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/bare-except",
		Perspective: review.Functional,
		Category:    CatErrors,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangPython},
		Depth:       review.DepthBasic,
		Summary:     "Exception handler swallows errors",
		Doc: "A bare `except:` catches every exception, including KeyboardInterrupt and SystemExit, so Ctrl-C and " +
			"sys.exit() stop working inside the try block and real bugs are hidden; a broad `except Exception:` or " +
			"`except BaseException:` whose body is only `pass` or `...` throws the error away, so a failure looks " +
			"like success and its cause is lost. Catch the specific exceptions the block can raise, or log the error " +
			"and re-raise it; the fix for a bare handler is `except Exception:`. A bare handler that ends with `raise` " +
			"(cleanup, then re-raise) is not reported, nor is a narrow handler with `pass` (`except KeyError: pass` " +
			"is a deliberate idiom), nor is a broad handler that logs, returns or re-raises.",
		Bad:     "try:\n    save(record)\nexcept:\n    pass",
		Good:    "try:\n    save(record)\nexcept OSError as err:\n    log.warning(\"save %s: %s\", record.id, err)",
		Fixable: true,
	},
	Run: runBareExcept,
}

// exceptRE matches an except clause in masked code: group 1 is the caught
// expression and "as" name, up to the colon.
var exceptRE = regexp.MustCompile(`^except\b\*?([^:]*):`)

var broadExceptRE = regexp.MustCompile(`^\(?\s*(?:builtins\.)?(?:Base)?Exception\b`)

func runBareExcept(p *lens.Pass) {
	if !p.Contains("except") {
		return
	}
	py := syntax.Python(p.File)
	for n, l := range py.Lines {
		line := n + 1
		if !l.Logical {
			continue
		}
		code := py.CodeLine(line)
		trimmed := strings.TrimLeft(code, " \t")
		m := exceptRE.FindStringSubmatchIndex(trimmed)
		if m == nil {
			continue
		}
		lead := len(code) - len(trimmed)
		caught := strings.TrimSpace(trimmed[m[2]:m[3]])
		bare := caught == ""
		if !bare && !broadExcept(caught) {
			continue
		}
		inline := strings.TrimSpace(trimmed[m[1]:])
		swallowed, reraises := exceptBody(py, line, inline)
		if bare && reraises || !bare && !swallowed {
			continue
		}
		anchor := 0
		for k := line; k <= py.BlockEnd(line); k++ {
			if p.Changed(k) {
				anchor = k
				break
			}
		}
		if anchor == 0 {
			continue
		}
		symbol := lens.PyFuncName(py, line)
		if bare {
			what := "catches every exception, KeyboardInterrupt and SystemExit included: Ctrl-C and sys.exit() " +
				"stop working inside the try block and unexpected bugs are hidden"
			if swallowed {
				what += ", and the body discards the error without a trace"
			}
			col := lead + len("except") + 1
			p.Report(lens.Report{
				Line: anchor, Title: "Bare except", Symbol: symbol, Code: p.Line(line),
				Message:   fmt.Sprintf("The bare `except:` on line %d %s.", line, what),
				Suggested: "Catch the specific exceptions the block raises, or at least `except Exception:`, and log or re-raise the error.",
				Fix: &review.Fix{
					Title: "Catch Exception instead of everything",
					Edits: []review.TextEdit{{
						Span:    review.Span{Path: p.File.Path, StartLine: line, StartCol: col, EndLine: line, EndCol: col},
						NewText: " Exception",
					}},
				},
			})
			continue
		}
		p.Report(lens.Report{
			Line: anchor, Title: "Broad exception silently swallowed", Symbol: symbol, Code: p.Line(line),
			Message: fmt.Sprintf("`except %s:` on line %d discards every error with `pass`: a failure in the try block "+
				"looks like success to the caller and its cause is lost.", caught, line),
			Suggested: "Catch only the exceptions you expect, and log the error (log.exception(...)) or re-raise it.",
		})
	}
}

// broadExcept reports whether the caught expression of an except clause
// includes Exception or BaseException.
func broadExcept(caught string) bool {
	caught, _, _ = strings.Cut(caught, " as ")
	if broadExceptRE.MatchString(caught) {
		return true
	}
	if !strings.HasPrefix(caught, "(") {
		return false
	}
	for _, name := range strings.Split(strings.Trim(caught, "() "), ",") {
		name = strings.TrimSpace(name)
		if name == "Exception" || name == "BaseException" || name == "builtins.Exception" {
			return true
		}
	}
	return false
}

// exceptBody reports whether the handler opened on line n does nothing
// (its statements are all pass or ...), and whether its last statement is
// a bare raise.
func exceptBody(py *syntax.PyFile, n int, inline string) (swallowed, reraises bool) {
	var stmts []string
	if inline != "" {
		for _, s := range strings.Split(inline, ";") {
			stmts = append(stmts, strings.TrimSpace(s))
		}
	} else {
		for _, k := range py.Statements(n) {
			stmts = append(stmts, strings.TrimSpace(py.CodeLine(k)))
		}
	}
	if len(stmts) == 0 {
		return false, false
	}
	swallowed = true
	for _, s := range stmts {
		if s != "pass" && s != "..." {
			swallowed = false
		}
	}
	last := stmts[len(stmts)-1]
	reraises = last == "raise" || strings.HasPrefix(last, "raise ")
	return swallowed, reraises
}
