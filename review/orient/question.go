package orient

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// A question's topic picks the checklist and the evidence an
// investigation leads with.
type topic int

const (
	topicGeneral  topic = iota
	topicSecurity       // safe, secure, trust, inject, secret
	topicErrors         // handled, error, fail
	topicTests          // tested, test, coverage
	topicAPI            // breaking, compatible, API, caller
)

// topicWords are matched as word prefixes of the lower-cased question,
// the first topic matching wins.
var topicWords = []struct {
	t     topic
	words []string
}{
	{topicSecurity, []string{"safe", "unsafe", "secur", "trust", "untrusted", "inject", "secret", "credential", "token", "password", "auth", "sanitiz", "escap", "permission", "crypt", "xss", "csrf"}},
	{topicErrors, []string{"handl", "error", "err", "fail", "panic", "exception", "raise", "throw"}},
	{topicTests, []string{"test", "coverage", "covered", "cover"}},
	{topicAPI, []string{"break", "compatib", "api", "caller", "callers", "signature", "public", "contract"}},
}

// topicOf returns the topic of a question.
func topicOf(question string) topic {
	words := strings.FieldsFunc(strings.ToLower(question), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	for _, c := range topicWords {
		for _, w := range words {
			for _, p := range c.words {
				if strings.HasPrefix(w, p) && (len(p) > 3 || w == p || p == "err" && w == "errors") {
					return c.t
				}
			}
		}
	}
	return topicGeneral
}

// questionName is a name of code a question asks about: an identifier,
// dotted (os.Chmod, Store.Get) or not.
var (
	backquoted = regexp.MustCompile("`([^`]+)`")
	codeWord   = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*(\(\))?`)
)

// questionNames returns the names of code in a question: backquoted
// text, dotted names (os.Chmod, pkg.Func), names written like code
// (camelCase, PascalCase past the first word, snake_case, a trailing
// "()"), and any word that is a changed symbol's name.
func questionNames(question string, known map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		n = strings.TrimSuffix(strings.Trim(n, ".'\""), "()")
		n = strings.TrimSuffix(n, "'s")
		if n != "" && !seen[n] && !keywords[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, m := range backquoted.FindAllStringSubmatch(question, -1) {
		for _, w := range codeWord.FindAllString(m[1], -1) {
			add(w)
		}
	}
	rest := backquoted.ReplaceAllString(question, " ")
	for i, loc := range codeWord.FindAllStringIndex(rest, -1) {
		w := rest[loc[0]:loc[1]]
		bare := strings.TrimSuffix(w, "()")
		switch {
		case strings.HasSuffix(w, "()"), strings.Contains(bare, "."), strings.Contains(bare, "_"),
			known[bare], known[strings.TrimSuffix(bare, "s")] && len(bare) > 4:
			add(w)
		case hasInnerUpper(bare):
			add(w)
		case i > 0 && unicode.IsUpper(rune(bare[0])) && len(bare) > 1 && !englishCapital[bare]:
			add(w)
		}
	}
	return out
}

// hasInnerUpper reports an upper-case letter past the first: ErrMissing,
// readFile, YAML is not (all capitals are an acronym).
func hasInnerUpper(w string) bool {
	lower := false
	for i, r := range w {
		if unicode.IsLower(r) {
			lower = true
		}
		if i > 0 && unicode.IsUpper(r) && lower {
			return true
		}
	}
	return false
}

// englishCapital are capitalised words of questions that are not code.
var englishCapital = map[string]bool{"I": true, "API": true, "APIs": true, "YAML": true, "JSON": true, "HTTP": true, "URL": true, "SQL": true, "Go": true, "Python": true}

// lookup is the evidence for one name a question asks about that is not
// one of the item's changed symbols.
type lookup struct {
	name string
	def  *resolved // nil: no definition in the repository
	// uses are its uses in the changed files, tests the test files that
	// mention it.
	uses  []symbol.Ref
	tests []symbol.Ref
}

// lookupName gathers the definition, uses in the change and test mentions
// of a name of the question.
func lookupName(ctx context.Context, ws Workspace, res *review.Result, item *review.BoardItem, name string) *lookup {
	cs := res.ChangeSet
	lk := &lookup{name: name}
	qual, base := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		qual, base = name[:i], name[i+1:]
	}
	lang := review.LangUnknown
	for _, p := range item.Files {
		if f := cs.File(p); f != nil && f.Reviewed() {
			lang = f.Language
			break
		}
	}
	// The definition: a symbol named so (Store.Get by its container), or a
	// declaration of base in a package or module named qual.
	accept := func(r *resolved) bool { return r != nil && (qual == "" || namesSymbol(name, r.sym)) }
	for _, f := range cs.Reviewed() {
		if f.Language.Family() != lang.Family() {
			continue
		}
		for _, s := range symbol.Find(symbol.Extract(f.Path, f.Content, f.Language), base) {
			if r := (&resolved{sym: s, file: f.Path, content: f.Content, lang: f.Language, item: itemOfFile(res.Board, f.Path)}); accept(r) {
				lk.def = r
				break
			}
		}
		if lk.def != nil {
			break
		}
	}
	if lk.def == nil {
		if r := findInRepo(ctx, ws, cs, lang, base); accept(r) {
			lk.def = r
		}
	}
	var def *symbol.Symbol
	if lk.def != nil {
		def = &lk.def.sym
	}
	refs, _ := symbol.References(ws.Root(), searchFiles(ws, cs, lang), overlayOf(cs), base, def, 200)
	for _, r := range refs {
		if qual != "" && !strings.Contains(r.Text, name) && (def == nil || r.Path != def.Path) {
			continue
		}
		switch {
		case r.InTest:
			lk.tests = append(lk.tests, r)
		case cs.File(r.Path) != nil:
			lk.uses = append(lk.uses, r)
		}
	}
	return lk
}

// errorHandling classifies how a Go line treats the results of the call
// of name on it; "" when it cannot tell (another language, not a call).
func errorHandling(lang review.Language, text, name string) string {
	if lang.Family() != review.LangGo {
		return ""
	}
	t := strings.TrimSpace(text)
	i := strings.Index(t, name+"(")
	if i < 0 {
		return ""
	}
	before := strings.TrimSpace(t[:i])
	switch {
	case before == "", before == "defer", before == "go":
		return "result discarded"
	case strings.HasPrefix(before, "_ =") || strings.HasPrefix(before, "_ :=") || strings.HasSuffix(before, ", _ =") || strings.HasSuffix(before, ", _ :="):
		return "error explicitly discarded"
	case strings.HasPrefix(before, "return"):
		return "returned to the caller"
	case strings.Contains(before, "err") && (strings.Contains(before, "=") || strings.HasPrefix(before, "if")):
		return "error assigned and checked"
	case strings.HasPrefix(before, "if") || strings.HasSuffix(before, "!=") || strings.HasSuffix(before, "=="):
		return "result checked"
	case strings.HasSuffix(before, "=") || strings.HasSuffix(before, ":="):
		return "result assigned"
	}
	return ""
}

// discarded reports a classification that drops an error.
func discarded(how string) bool {
	return how == "result discarded" || how == "error explicitly discarded"
}

// refList renders refs as "path:line" joined, at most n.
func refList(refs []symbol.Ref, n int) string {
	var parts []string
	for _, r := range limitRefs(refs, n) {
		parts = append(parts, fmt.Sprintf("%s:%d", r.Path, r.Line))
	}
	if len(refs) > n {
		parts = append(parts, fmt.Sprintf("%d more", len(refs)-n))
	}
	return strings.Join(parts, ", ")
}

// asked is what an investigation makes of its question.
type asked struct {
	topic   topic
	names   []string
	lookups []*lookup
}

// coveredBy reports a name that one of the focuses is.
func coveredBy(focuses []*focus, name string) bool {
	for _, fo := range focuses {
		if namesSymbol(name, fo.sym) {
			return true
		}
	}
	return false
}

// namesSymbol reports whether a name of a question is s: its name, its
// qualified name, or its name qualified by its module or package
// (_telemetry.report, clean.Path).
func namesSymbol(name string, s symbol.Symbol) bool {
	if name == s.Name || name == s.QualifiedName() {
		return true
	}
	i := strings.LastIndexByte(name, '.')
	if i < 0 || name[i+1:] != s.Name {
		return false
	}
	qual := name[:i]
	return qual == s.Container || qual == path.Base(path.Dir(s.Path)) || qual == strings.TrimSuffix(path.Base(s.Path), path.Ext(s.Path))
}

// changedTests returns the changed test files of the change, those of
// the item first.
func changedTests(cs *review.ChangeSet, item *review.BoardItem) (inItem, other []string) {
	for _, f := range cs.Files {
		if !review.IsTestPath(f.Path) || f.Status == review.StatusDeleted {
			continue
		}
		if contains(item.Files, f.Path) {
			inItem = append(inItem, f.Path)
		} else {
			other = append(other, f.Path)
		}
	}
	return inItem, other
}

// named reports whether the question names the focus's symbol.
func (q *asked) named(fo *focus) bool {
	for _, n := range q.names {
		if namesSymbol(n, fo.sym) {
			return true
		}
	}
	return false
}

// returnsNoError reports a Go function or method whose signature has no
// error result.
func returnsNoError(s symbol.Symbol) bool {
	res, ok := s.GoResults()
	return ok && (len(res) == 0 || res[len(res)-1] != "error")
}

// answer states what the evidence says about the question's names and
// topic, and what it cannot say. A name the change defines comes first,
// from its signature: whether it returns an error at all decides what an
// error question can ask of its callers.
func answer(q *asked, res *review.Result, item *review.BoardItem, focuses []*focus, findings []*review.Finding) (ans, unanswered []string) {
	cs := res.ChangeSet
	for _, fo := range focuses {
		if !q.named(fo) {
			continue
		}
		s := fo.sym
		ans = append(ans, fmt.Sprintf("%s (%s) is declared at %s:%d as `%s`.", s.QualifiedName(), changeLabel(fo.change), fo.file.Path, s.Line, s.Signature))
		if q.topic == topicErrors {
			if returnsNoError(s) {
				ans = append(ans, "It returns no error, so its callers cannot tell whether it failed: a failure inside it is handled there or lost.")
			}
			for _, f := range findings {
				if f.Category == "Error Handling" && f.Span.Path == fo.file.Path && f.Span.StartLine >= s.Line && f.Span.StartLine <= s.EndLine {
					ans = append(ans, fmt.Sprintf("Inside it, %s reports “%s” at %s:%d.", f.RuleID, headline(f), f.Span.Path, f.Span.StartLine))
				}
			}
		}
		ans = append(ans, fmt.Sprintf("It has %s outside tests and %s from tests.", plural(len(fo.callers), "call"), plural(len(fo.tests), "reference")))
	}
	for _, lk := range q.lookups {
		if lk.def != nil {
			ans = append(ans, fmt.Sprintf("%s is defined at %s:%d.", lk.name, lk.def.file, lk.def.sym.Line))
		} else {
			unanswered = append(unanswered, fmt.Sprintf("Could not find a definition of %s in the repository: it is declared outside it (the standard library or a dependency), so its documented behaviour is not read here.", lk.name))
		}
		if len(lk.uses) == 0 {
			unanswered = append(unanswered, fmt.Sprintf("Found no use of %s in the changed files.", lk.name))
		} else {
			ans = append(ans, fmt.Sprintf("%s is used in the changed files at %s.", lk.name, usesWithHandling(lk.uses, lk.name, q.topic == topicErrors)))
		}
		if q.topic == topicTests || q.topic == topicErrors {
			if len(lk.tests) == 0 {
				ans = append(ans, fmt.Sprintf("No test mentions %s.", lk.name))
			} else {
				ans = append(ans, fmt.Sprintf("Tests mention %s at %s.", lk.name, refList(lk.tests, 5)))
			}
		}
	}
	switch q.topic {
	case topicErrors:
		var go_ bool
		for _, lk := range q.lookups {
			for _, u := range lk.uses {
				go_ = go_ || review.DetectLanguage(u.Path, nil).Family() == review.LangGo
			}
		}
		if !go_ {
			for _, p := range item.Files {
				if f := cs.File(p); f != nil && f.Language.Family() != review.LangGo && f.Language.Family() != review.LangUnknown {
					unanswered = append(unanswered, "How raised exceptions propagate is not traced; only the call sites are listed.")
					break
				}
			}
		}
		unanswered = append(unanswered, "Whether the failure paths work when run is not known: reviewls runs no code.")
	case topicTests:
		inItem, other := changedTests(cs, item)
		switch {
		case len(inItem) > 0:
			ans = append(ans, "Test files changed with this item: "+strings.Join(inItem, ", ")+".")
		case len(other) > 0:
			ans = append(ans, "No test file of this item changed; the change's other test files: "+strings.Join(other, ", ")+".")
		default:
			ans = append(ans, "No test file changed.")
		}
		for _, fo := range focuses {
			if len(fo.tests) == 0 {
				ans = append(ans, fmt.Sprintf("No test mentions %s.", fo.sym.QualifiedName()))
			} else {
				ans = append(ans, fmt.Sprintf("Tests mention %s at %s.", fo.sym.QualifiedName(), refList(fo.tests, 5)))
			}
		}
		unanswered = append(unanswered, "Whether the tests pass, and what they cover, is not known: reviewls runs no tests and reads coverage only from a profile on disk.")
	}
	if len(q.names) == 0 && q.topic == topicGeneral {
		unanswered = append(unanswered, "The question names no symbol of the code; the evidence covers the item's changed symbols.")
	}
	if len(ans) == 0 {
		ans = append(ans, "The evidence below covers the item's changed symbols; the question names none of them.")
	}
	return ans, unanswered
}

// usesWithHandling lists uses, with how each treats the error when asked.
func usesWithHandling(uses []symbol.Ref, name string, errs bool) string {
	var parts []string
	for _, u := range limitRefs(uses, 5) {
		s := fmt.Sprintf("%s:%d", u.Path, u.Line)
		if h := errorHandling(review.DetectLanguage(u.Path, nil), u.Text, name); errs && h != "" {
			s += " (" + h + ")"
		}
		parts = append(parts, s)
	}
	if len(uses) > 5 {
		parts = append(parts, fmt.Sprintf("%d more", len(uses)-5))
	}
	return strings.Join(parts, ", ")
}

func slicesContain(s []string, v string) bool { return contains(s, v) }

// topicChecklist returns the checklist of an error, test or API question,
// nil for the others (the perspective's checklist then).
func topicChecklist(q *asked, res *review.Result, item *review.BoardItem, focuses []*focus, findings []*review.Finding) []ChecklistItem {
	cite := func(cats ...string) string {
		var parts []string
		for _, f := range findings {
			if slicesContain(cats, f.Category) {
				parts = append(parts, fmt.Sprintf("%s at %s:%s", f.RuleID, f.Span.Path, f.Span.Lines()))
			}
		}
		return strings.Join(parts, "; ")
	}
	item_ := func(text, status, evidence string) ChecklistItem {
		return ChecklistItem{Text: text, Status: status, Evidence: evidence}
	}
	var testRefs []symbol.Ref
	for _, fo := range focuses {
		testRefs = append(testRefs, fo.tests...)
	}
	for _, lk := range q.lookups {
		testRefs = append(testRefs, lk.tests...)
	}
	callersOutside, sigChanged := 0, false
	var exported []string
	var breaking []*focus // the focuses whose callers may no longer compile
	for _, fo := range focuses {
		for _, c := range fo.callers {
			if !contains(item.Files, c.Path) {
				callersOutside++
			}
		}
		if breaksCallers(fo.change.Kind) {
			sigChanged = true
			breaking = append(breaking, fo)
			if public, _ := fo.sym.Public(); public {
				exported = append(exported, fo.sym.QualifiedName())
			}
		}
	}
	callers := func(text string) ChecklistItem {
		switch {
		case !sigChanged && len(callersOf(focuses)) == 0:
			return item_(text, Unanswerable, noCallerWhy(focuses))
		case !sigChanged:
			return item_(text, Supported, "no signature of the item's changed symbols changed")
		case len(callersOf(breaking)) == 0:
			return item_(text, Unanswerable, noCallerWhy(breaking))
		case callersOutside == 0:
			return item_(text, Supported, "no caller outside the item")
		}
		return item_(text, Open, fmt.Sprintf("%s outside the item %s a symbol whose signature changed", plural(callersOutside, "caller"), map[bool]string{true: "uses", false: "use"}[callersOutside == 1]))
	}
	switch q.topic {
	case topicErrors:
		var dropped, checked, noError []string
		uses, named := 0, len(q.lookups)
		classify := func(name string, refs []symbol.Ref) {
			for _, u := range refs {
				uses++
				switch h := errorHandling(review.DetectLanguage(u.Path, nil), u.Text, name); {
				case discarded(h):
					dropped = append(dropped, fmt.Sprintf("%s at %s:%d: %s", name, u.Path, u.Line, h))
				case h != "":
					checked = append(checked, fmt.Sprintf("%s at %s:%d: %s", name, u.Path, u.Line, h))
				}
			}
		}
		for _, lk := range q.lookups {
			classify(lk.name, lk.uses)
		}
		for _, fo := range focuses {
			switch {
			case !q.named(fo):
				continue
			case returnsNoError(fo.sym):
				noError = append(noError, fo.sym.QualifiedName())
			default:
				classify(fo.sym.Name, fo.callers)
			}
			named++
		}
		calls := item_("the errors of the calls the question names are checked", Open, "no call of a named function whose handling can be read")
		switch {
		case len(dropped) > 0:
			calls = item_(calls.Text, Contradicted, strings.Join(dropped, "; "))
		case len(checked) > 0:
			calls = item_(calls.Text, Supported, strings.Join(checked, "; "))
		case len(noError) > 0:
			calls = item_(calls.Text, Unanswerable, andList(noError, "and")+map[bool]string{true: " returns", false: " return"}[len(noError) == 1]+" no error: a caller has none to check")
		case named == 0:
			calls = item_(calls.Text, Unanswerable, "the question names no function of the code")
		case uses == 0:
			calls = item_(calls.Text, Unanswerable, "no call of the names the question asks about to read")
		default:
			calls.Evidence = fmt.Sprintf("%s of the names the question asks about; how %s a failure is not read", plural(uses, "call"), map[bool]string{true: "it treats", false: "they treat"}[uses == 1])
		}
		paths := item_("failure paths return or report the error", Open, "no error-handling finding; the failure paths are not executed")
		if why := cite("Error Handling"); why != "" {
			paths = item_(paths.Text, Contradicted, why)
		}
		tests := item_("a test exercises the failure path", Open, "no test mentions the symbols asked about")
		if len(testRefs) > 0 {
			tests = item_(tests.Text, Open, "tests mention them at "+refList(testRefs, 5)+"; whether they reach the failure path is not read")
		}
		return []ChecklistItem{calls, paths, tests, callers("callers handle the new results of changed signatures")}
	case topicTests:
		inItem, other := changedTests(res.ChangeSet, item)
		changed := item_("a test file changed with the item", Open, "no test file of the item changed")
		if len(inItem) > 0 {
			changed = item_(changed.Text, Supported, strings.Join(inItem, ", "))
		} else if len(other) > 0 {
			changed.Evidence += "; other changed test files: " + strings.Join(other, ", ")
		}
		mention := item_("tests mention the symbols asked about", Open, "no test mentions them")
		if len(testRefs) > 0 {
			mention = item_(mention.Text, Supported, refList(testRefs, 8))
		}
		var untested []string
		for _, fo := range focuses {
			if len(fo.tests) == 0 {
				untested = append(untested, fo.sym.QualifiedName())
			}
		}
		every := item_("every changed symbol is referenced from a test", Supported, "each is")
		switch {
		case len(focuses) == 0:
			every = item_(every.Text, Unanswerable, noCallerWhy(nil))
		case len(untested) > 0:
			every = item_(every.Text, Open, "no test references "+strings.Join(untested, ", "))
		}
		if why := cite("Validation Evidence"); why != "" {
			changed = item_(changed.Text, Contradicted, why)
		}
		return []ChecklistItem{changed, mention, every, item_("the tests pass", Open, "reviewls runs no tests")}
	case topicAPI:
		sigs := item_("exported signatures are unchanged", Supported, "no exported symbol's signature changed or was removed")
		switch {
		case len(exported) > 0:
			sigs = item_(sigs.Text, Contradicted, "changed, renamed or removed: "+strings.Join(exported, ", "))
		case len(focuses) == 0:
			sigs = item_(sigs.Text, Unanswerable, noCallerWhy(nil))
		}
		contract := item_("no contract finding on the item", Supported, "none")
		if why := cite("Contract"); why != "" {
			contract = item_(contract.Text, Contradicted, why)
		}
		return []ChecklistItem{sigs, callers("every caller outside the item matches the new signatures"), contract}
	}
	return nil
}
