package standards

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// CommentedOutCode finds blocks of code disabled by commenting them out.
var CommentedOutCode = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "standards/commented-out-code",
		Perspective: review.Standards,
		Category:    CatMaintainability,
		Severity:    review.SeverityLow,
		Languages: append([]review.Language{review.LangGo, review.LangPython, review.LangShell, review.LangJava, review.LangC,
			review.LangCPP, review.LangCSharp, review.LangRust}, lens.JSLangs...),
		Depth:   review.DepthBasic,
		Skill:   SkillCleanCode,
		Summary: "Commented-out code",
		Doc: "A block of three or more added comment lines that are all code (statements ending in `;`, `{` or `}`, " +
			"assignments, calls, keyword statements such as `if (...)`, `return x;` or Python `def f():`) is code " +
			"switched off rather than deleted: readers cannot tell whether it is meant to come back, it rots as the " +
			"code around it changes, and version control already keeps the old version. Delete it (the fix does), or " +
			"restore it. Not reported: prose comments, blocks with any prose line, license headers, tool directives " +
			"(//go:, # noqa, eslint-disable, ...), Go doc-comment code blocks (indented with a tab), block comments, and " +
			"examples introduced by a comment line mentioning \"Example\", \"e.g.\", \"for instance\" or \"Usage\", Go example Output: blocks, and vendored, " +
			"dist and minified files.",
		Bad:     "// const retries = cfg.retries;\n// if (retries > 3) {\n//   throw new Error('too many');\n// }",
		Good:    "// Retries are capped by the caller (see Client.retry).",
		Fixable: true,
	},
	Run: runCommentedOutCode,
}

// commentedCodeMin is the smallest block reported: one or two commented
// lines are too often a deliberate alternative or an example.
const commentedCodeMin = 3

var (
	// C-family statements: control heads with a parenthesis, declarations,
	// returns ending in ";", Go func and package clauses.
	cStmtRE   = regexp.MustCompile(`^(?:(?:if|for|while|switch|catch)\s*\(|(?:return|throw|break|continue)\b.*;$|(?:return|break|continue|fallthrough)(?:\s+[\w.&*()\[\], "]+)?$|(?:const|let|var)\s+[\w{}\[\], ]+\s*[:=]|func\s+(?:\(\w+ \*?\w+\)\s*)?\w*\s*\(|function\b.*\(|package\s+\w+$|import\s+["'(]|defer\s+\w|go\s+func|(?:else|try|finally|do)\s*\{)`)
	cAssignRE = regexp.MustCompile(`^[A-Za-z_$][\w$.\[\]'"]*\s*(?::=|[-+*/|&]?=)\s*[^=\s]`)
	cCallRE   = regexp.MustCompile(`^(?:await\s+)?[A-Za-z_$][\w$.]*\s*\(.*\)\s*;?$`)
	// Python statements whose shape prose rarely has.
	pyStmtRE   = regexp.MustCompile(`^(?:(?:async\s+)?def\s+\w+\s*\(.*\)\s*(?:->.*)?:$|class\s+\w+(?:\(.*\))?:$|(?:if|elif|while)\s+(?:\S+(?:\s+\S+){0,2}|.*[()=<>\[\].].*):$|for\s+[\w, ]+\s+in\s+\S+:$|with\s+.*\(.*\)(?:\s+as\s+\w+)?:$|(?:else|try|finally):$|except\b.*:$|(?:return|yield)(?:\s+\S+)?$|import\s+[\w.]+(?:\s+as\s+\w+)?$|from\s+[\w.]+\s+import\s+[\w, ()*]+$|raise\s+\w[\w.]*(?:\(.*\))?$|pass$|continue$|break$|assert\s+.*(?:==|!=|\(|\bis\b|\bin\b))`)
	pyAssignRE = regexp.MustCompile(`^[A-Za-z_][\w.\[\]'"]*\s*(?::\s*[\w\[\], .|]+)?\s*(?:[-+*/|&]?=)\s*[^=\s]`)
	pyCallRE   = regexp.MustCompile(`^[A-Za-z_][\w.]*\s*\(.*\)$`)
	// Shell commands; they also need a shell-looking character.
	shStmtRE   = regexp.MustCompile(`^(?:if\s.*;\s*then$|then$|fi$|else$|for\s.*;\s*do$|do$|done$|esac$|export\s+\w+=|echo\s|printf\s|cd\s|rm\s|mkdir\s|cp\s|mv\s|ln\s|source\s|set\s+[-+]|exit\b|local\s+\w+=|[\w./-]+\s+(?:-{1,2}\w|\$))`)
	shAssignRE = regexp.MustCompile(`^[A-Za-z_]\w*=\S`)

	directiveRE    = regexp.MustCompile(`^\s*(?:go:|\+build|nolint|noqa|type:|eslint|@ts-|prettier-|pylint:|fmt:|isort:|-\*-|istanbul|c8 |tslint:|NOSONAR|#?region\b|#?endregion\b|pragma|swiftlint|rubocop|reviewls:)`)
	exampleIntroRE = regexp.MustCompile(`(?i)\bexamples?\b|\be\.g\.|\bfor instance\b|\busage\b|^\s*(?:unordered )?output:`)
	licenseRE      = regexp.MustCompile(`(?i)copyright|licen[cs]e|spdx`)
)

func runCommentedOutCode(p *lens.Pass) {
	if lens.Vendored(p.File.Path) {
		return
	}
	syn := syntax.CommentSyntax(p.File.Language)
	if syn.Line == "" || !p.Contains(syn.Line) {
		return
	}
	lines := p.Lines()
	// Cheap pass: runs of at least commentedCodeMin changed lines that
	// start with the line-comment marker; only those are lexed.
	var comments []syntax.Comment
	for n := 1; n <= len(lines); {
		start := n
		for n <= len(lines) && p.Changed(n) && strings.HasPrefix(strings.TrimLeft(lines[n-1], " \t"), syn.Line) {
			n++
		}
		if n-start < commentedCodeMin {
			if n == start {
				n++
			}
			continue
		}
		if comments == nil {
			comments = syntax.Comments(p.File)
		}
		commentedBlocks(p, lines, comments, syn, start, n-1)
	}
}

// commentedBlocks reports the code blocks among lines [from, to], all of
// them changed and starting with the line-comment marker.
func commentedBlocks(p *lens.Pass, lines []string, comments []syntax.Comment, syn review.CommentSyntax, from, to int) {
	if from > 1 {
		if c := comments[from-2]; c.Col > 0 && exampleIntroRE.MatchString(c.Text) {
			return
		}
	}
	run, code := 0, 0 // start of the current code run, and its code lines
	flush := func(end int) {
		if run > 0 && code >= commentedCodeMin {
			p.Report(lens.Report{
				Line: run, EndLine: end,
				Message: fmt.Sprintf("Lines %d-%d are code switched off by commenting it out: readers cannot tell whether it "+
					"is meant to come back, and it goes stale as the code around it changes.", run, end),
				Suggested: "Delete the commented-out code (version control keeps it), or restore it if it is still needed.",
				Fix: &review.Fix{Title: "Delete the commented-out code", Edits: []review.TextEdit{{
					Span: review.Span{Path: p.File.Path, StartLine: run, EndLine: end},
				}}},
			})
		}
		run, code = 0, 0
	}
	for n := from; n <= to; n++ {
		if licenseRE.MatchString(comments[n-1].Text) {
			return // a license header
		}
	}
	last := 0
	for n := from; n <= to; n++ {
		c := comments[n-1]
		indent := len(lines[n-1]) - len(strings.TrimLeft(lines[n-1], " \t"))
		if c.Col != indent+1 {
			flush(last) // the marker sits inside a string, not at the start of a comment
			continue
		}
		if exampleIntroRE.MatchString(c.Text) {
			flush(last) // an example follows
			return
		}
		text := c.Text
		if i := strings.Index(text, syn.Line); i > 0 {
			text = text[:i] // a trailing comment on the commented-out line
		}
		switch codeLike(p.File.Language, text) {
		case lineCode:
			if run == 0 {
				run = n
			}
			code++
			last = n
		case lineNeutral:
			if run > 0 {
				last = n
			}
		case lineProse:
			flush(last)
		}
	}
	flush(last)
}

type lineKind int

const (
	lineProse lineKind = iota
	lineNeutral
	lineCode
)

// codeLike classifies the text of a comment line.
func codeLike(lang review.Language, text string) lineKind {
	if strings.HasPrefix(text, "\t") && lang == review.LangGo {
		return lineProse // a Go doc-comment code block
	}
	if directiveRE.MatchString(text) || strings.HasPrefix(text, "/") || strings.HasPrefix(text, "!") {
		return lineProse
	}
	t := strings.TrimSpace(text)
	switch t {
	case "":
		return lineNeutral
	case "}", "};", "});", "})", "},", ")", ");", "]", "];", "end", "fi", "done", "esac":
		return lineCode
	}
	switch lang {
	case review.LangPython:
		if pyStmtRE.MatchString(t) || pyAssignRE.MatchString(t) && !proseLike(t) || pyCallRE.MatchString(t) {
			return lineCode
		}
	case review.LangShell:
		if shStmtRE.MatchString(t) && (!strings.Contains(t, " ") || strings.ContainsAny(t, "-$\"'/=|;>")) || shAssignRE.MatchString(t) {
			return lineCode
		}
	default:
		if proseLike(t) && !strings.HasSuffix(t, ";") {
			return lineProse
		}
		switch last := t[len(t)-1]; {
		case last == ';' || last == '{':
			return lineCode
		case last == '}' && strings.ContainsAny(t, "({="):
			return lineCode
		}
		if cStmtRE.MatchString(t) || cAssignRE.MatchString(t) || cCallRE.MatchString(t) {
			return lineCode
		}
	}
	return lineProse
}

// proseLike reports text that reads as a sentence: four or more words of
// letters, or a capitalised phrase ending in a full stop.
func proseLike(t string) bool {
	words := strings.Fields(t)
	plain := 0
	for _, w := range words {
		w = strings.TrimRight(w, ".,:;!?")
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'-") == "" {
			plain++
		}
	}
	if plain >= 4 && plain*4 >= len(words)*3 {
		return true
	}
	return len(words) >= 2 && t[0] >= 'A' && t[0] <= 'Z' && strings.HasSuffix(t, ".") && !strings.ContainsAny(t, "(=;{")
}
