package security

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// UnsafeHTML finds HTML sinks fed with non-literal, unsanitized strings.
var UnsafeHTML = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "security/unsafe-html",
		Perspective: review.Security,
		Category:    CatInjection,
		Severity:    review.SeverityHigh,
		Languages:   append([]review.Language{review.LangVue, review.LangSvelte}, lens.JSLangs...),
		Depth:       review.DepthBasic,
		Skill:       "CWE-79",
		Summary:     "Unsanitized HTML inserted into the page",
		Doc: "Assigning a string to innerHTML or outerHTML, passing it to insertAdjacentHTML or document.write, " +
			"React's `dangerouslySetInnerHTML={{ __html: x }}`, Vue's `v-html` and Svelte's `{@html x}` all parse the " +
			"string as HTML: if any part of it comes from a user (a comment, a profile field, a URL parameter, Markdown " +
			"rendered to HTML), a `<img src=x onerror=...>` in it runs script in the victim's session (stored or DOM " +
			"XSS). Set textContent, let the framework escape the value, or sanitize it with DOMPurify.sanitize. Literal " +
			"strings, clearing with `''`, and values wrapped in a call named sanitize, sanitizeHtml, purify, escapeHtml, " +
			"escape, filterXSS or xss, and test files, are not reported; a dangerouslySetInnerHTML object built elsewhere is not traced.",
		Bad:  "el.innerHTML = `<p>${comment.body}</p>`;",
		Good: "el.textContent = comment.body;",
	},
	Run: runUnsafeHTML,
}

// htmlSanitizers are the callee names that make a value safe to insert.
var htmlSanitizers = map[string]bool{
	"sanitize": true, "sanitizeHtml": true, "sanitizeHTML": true, "purify": true, "escapeHtml": true,
	"escapeHTML": true, "escape": true, "filterXSS": true, "xss": true,
}

const unsafeHTMLSuggestion = "Insert text with textContent (or let the framework escape it), or sanitize the HTML first: DOMPurify.sanitize(html)."

func runUnsafeHTML(p *lens.Pass) {
	if lens.UIFixture(p.File.Path) {
		return // tests and stories handle fixtures, not attacker input
	}
	switch lang := p.File.Language; {
	case lang == review.LangVue:
		templateUnsafeHTML(p, "v-html", vHTMLRE)
	case lang == review.LangSvelte:
		templateUnsafeHTML(p, "{@html", svelteHTMLRE)
	case lang.IsJS():
		jsUnsafeHTML(p)
	}
}

func jsUnsafeHTML(p *lens.Pass) {
	if !p.Contains("HTML") && !p.Contains("__html") && !p.Contains("document.write") {
		return
	}
	js := syntax.JS(p.File)
	p.EachChanged(func(n int, _ string) {
		lo, hi := js.LineToks(n)
		for i := lo; i < hi; i++ {
			var sink string
			var vlo, vhi int
			switch t := js.Text(i); {
			case (t == "innerHTML" || t == "outerHTML") && js.Is(i-1, ".") && (js.Is(i+1, "=") || js.Is(i+1, "+=")):
				sink = t + " " + js.Text(i+1)
				vlo, vhi = i+2, htmlExprEnd(js, i+2)
			case t == "insertAdjacentHTML" && js.Is(i-1, ".") && js.Is(i+1, "("):
				args := js.Args(i + 1)
				if len(args) < 2 {
					continue
				}
				sink = "insertAdjacentHTML()"
				vlo, vhi = args[1][0], args[1][1]
			case (t == "write" || t == "writeln") && js.Is(i-1, ".") && js.Is(i-2, "document") && js.Is(i+1, "("):
				args := js.Args(i + 1)
				if len(args) == 0 {
					continue
				}
				sink = "document." + t + "()"
				vlo, vhi = args[0][0], args[0][1]
			case t == "__html" && js.Is(i+1, ":"):
				sink = "dangerouslySetInnerHTML"
				vlo, vhi = i+2, js.ArgEnd(i+2)
			default:
				continue
			}
			if vhi <= vlo || js.ConstExpr(vlo, vhi) || htmlSanitized(js, vlo) {
				continue
			}
			value := lens.Snippet(js.Span(vlo, vhi))
			p.Report(lens.Report{
				Line: n, Col: js.Col(i),
				Message: fmt.Sprintf("%s parses `%s` as HTML: if any part of it comes from a user, markup such as "+
					"<img src=x onerror=...> in it runs script in the victim's session (XSS).", sink, value),
				Suggested: unsafeHTMLSuggestion,
			})
		}
	})
}

// htmlExprEnd returns the end of the expression assigned at token i: the
// next ";" or the end of the statement.
func htmlExprEnd(js *syntax.JSFile, i int) int {
	for j := i; j < len(js.Toks); {
		if js.Is(j, ";") || j > i && js.Toks[j].NL && js.EndsStatement(j) {
			return j
		}
		switch js.Text(j) {
		case "(", "[", "{":
			if m := js.Match(j); m > j {
				j = m + 1
				continue
			}
		case ")", "]", "}", ",":
			return j
		}
		j++
	}
	return len(js.Toks)
}

// htmlSanitized reports whether the value at token i is a call of a
// sanitizer: sanitize(x), DOMPurify.sanitize(x), ...
func htmlSanitized(js *syntax.JSFile, i int) bool {
	end := js.Chain(i)
	return end > i && js.Is(end, "(") && htmlSanitizers[js.Text(end-1)]
}

var (
	vHTMLRE      = regexp.MustCompile(`\bv-html\s*=\s*(?:"([^"]*)"|'([^']*)')`)
	svelteHTMLRE = regexp.MustCompile(`\{@html\s+([^}]*)\}`)
	jsLiteralRE  = regexp.MustCompile(`^\s*(?:'[^']*'|"[^"]*"|` + "`[^`$]*`" + `)\s*$`)
	sanitizeRE   = regexp.MustCompile(`\b(?:sanitize|sanitizeHtml|sanitizeHTML|purify|escapeHtml|escapeHTML|escape|filterXSS|xss)\s*\(`)
)

// templateUnsafeHTML reports v-html or {@html} with non-literal values.
func templateUnsafeHTML(p *lens.Pass, marker string, re *regexp.Regexp) {
	if !p.Contains(marker) {
		return
	}
	p.EachChanged(func(n int, line string) {
		if !strings.Contains(line, marker) {
			return
		}
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			lo, hi := m[2], m[3]
			if lo < 0 && len(m) > 4 {
				lo, hi = m[4], m[5]
			}
			expr := strings.TrimSpace(line[lo:hi])
			if expr == "" || jsLiteralRE.MatchString(expr) || sanitizeRE.MatchString(expr) {
				continue
			}
			p.Report(lens.Report{
				Line: n, Col: m[0] + 1, EndCol: m[1] + 1,
				Message: fmt.Sprintf("%s renders `%s` as raw HTML: if any part of it comes from a user, markup such as "+
					"<img src=x onerror=...> in it runs script in the victim's session (XSS).", strings.TrimPrefix(marker, "{"), lens.Snippet(expr)),
				Suggested: "Render the value as text ({{ value }} / {value}), or sanitize it first with DOMPurify.sanitize.",
			})
		}
	})
}
