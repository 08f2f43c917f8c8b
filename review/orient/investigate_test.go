package orient

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// cobraResult reviews the cobra-shaped change: its board, and the
// ignored-error finding on the WriteString call of WriteUsageFile.
func cobraResult(t *testing.T) (*review.Result, *baseWorkspace) {
	t.Helper()
	cs, ws := cobraLike()
	changes := map[string][]symbol.Change{}
	for _, f := range cs.Files {
		changes[f.Path] = ChangedSymbols(t.Context(), ws, f)
	}
	res := &review.Result{ChangeSet: cs, Board: Board(cs, Areas(cs, changes), changes)}
	for i, l := range strings.Split(string(cs.File("command.go").Content), "\n") {
		if strings.Contains(l, "f.WriteString") {
			res.Findings = append(res.Findings, &review.Finding{ID: "rv-1", RuleID: "functional/ignored-error", Perspective: review.Functional,
				Category: "Error Handling", Severity: review.SeverityHigh, Title: "Error of f.WriteString dropped",
				Message: "The error returned by f.WriteString is dropped.", Span: review.Span{Path: "command.go", StartLine: i + 1, EndLine: i + 1}})
		}
	}
	WalkBack(res.Board, res.Findings)
	return res, ws
}

// gluedSentence finds a sentence glued into a list after a semicolon,
// lowerStart one that starts in lower case (a sentence may start with a
// name of code: os.Create, legacyArgs).
var (
	gluedSentence = regexp.MustCompile(`; (Whether|What|The|It|How|No|Could|Found|Tests)\b`)
	lowerStart    = regexp.MustCompile(`(^|[.!?] )(it|the|what|whether|no|nothing|local|how|tests?|found|could)\b`)
)

// checkProse fails on text that is not made of sentences: a negated
// checklist item ("NOT failure paths ..."), a doubled full stop, a
// sentence glued into a list, a sentence in lower case or one without its
// full stop.
func checkProse(t *testing.T, what, text string) {
	t.Helper()
	for _, bad := range []string{"NOT ", "..", " .", ":."} {
		if strings.Contains(text, bad) {
			t.Errorf("%s has %q: %s", what, bad, text)
		}
	}
	if m := gluedSentence.FindString(text); m != "" {
		t.Errorf("%s glues a sentence into a list (%q): %s", what, m, text)
	}
	if m := lowerStart.FindString(text); m != "" {
		t.Errorf("%s has a sentence that starts in lower case (%q): %s", what, m, text)
	}
	if !strings.HasSuffix(text, ".") {
		t.Errorf("%s does not end a sentence: %s", what, text)
	}
}

// TestInvestigateSentences asks the questions of a new user about a
// change that adds a method returning no error and renames a function,
// and holds every answer to sentences: no negated checklist items, no
// doubled full stops, no fragments glued in.
func TestInvestigateSentences(t *testing.T) {
	res, ws := cobraResult(t)
	for _, q := range []string{
		"Is the error from WriteUsageFile handled by every caller?",
		"is WriteUsageFile tested?",
		"does this break callers?",
		"is it safe?",
		"what does this change do?",
		"is the error of os.Create handled?",
	} {
		inv, err := Investigate(t.Context(), ws, res, "board-1", "board-1-001", q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		checkProse(t, q+": conclusion", inv.Conclusion)
		for _, s := range append(append([]string{}, inv.Answer...), inv.Unanswered...) {
			checkProse(t, q+": answer", s)
		}
	}
}

// TestInvestigateNamedSymbolWithoutError checks the question about
// a method the change adds: the answer starts from its signature and says
// it returns no error, and the checklist does not call a claim about its
// callers supported when it has none.
func TestInvestigateNamedSymbolWithoutError(t *testing.T) {
	res, ws := cobraResult(t)
	inv, err := Investigate(t.Context(), ws, res, "board-1", "board-1-001", "Is the error from WriteUsageFile handled by every caller?")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Command.WriteUsageFile (added) is declared at command.go:12 as `func (c *Command) WriteUsageFile(path string)`.",
		"It returns no error, so its callers cannot tell whether it failed: a failure inside it is handled there or lost.",
		"Inside it, functional/ignored-error reports “Error of f.WriteString dropped” at command.go:18.",
		"It has 0 calls outside tests and 0 references from tests.",
	}
	if strings.Join(inv.Answer, "\n") != strings.Join(want, "\n") {
		t.Errorf("answer\n got %q\nwant %q", inv.Answer, want)
	}
	status := map[string]ChecklistItem{}
	for _, c := range inv.Checklist {
		status[c.Text] = c
	}
	for text, want := range map[string]ChecklistItem{
		"the errors of the calls the question names are checked": {Status: Unanswerable, Evidence: "Command.WriteUsageFile returns no error: a caller has none to check"},
		"failure paths return or report the error":               {Status: Contradicted, Evidence: "functional/ignored-error at command.go:18"},
		"callers handle the new results of changed signatures":   {Status: Unanswerable, Evidence: "nothing outside tests calls Command.WriteUsageFile"},
	} {
		if got := status[text]; got.Status != want.Status || got.Evidence != want.Evidence {
			t.Errorf("%q: %s (%s), want %s (%s)", text, got.Status, got.Evidence, want.Status, want.Evidence)
		}
	}
	if !strings.Contains(inv.Markdown, "| callers handle the new results of changed signatures | not answerable from local evidence | nothing outside tests calls Command.WriteUsageFile |") {
		t.Errorf("the Markdown does not say the callers claim is not answerable:\n%s", inv.Markdown)
	}
	const conclusion = "What the evidence shows: it contradicts “failure paths return or report the error” (functional/ignored-error at command.go:18). " +
		"What stays unverified: “a test exercises the failure path” (no test mentions the symbols asked about) is open; local evidence cannot answer " +
		"“the errors of the calls the question names are checked” (Command.WriteUsageFile returns no error: a caller has none to check) or " +
		"“callers handle the new results of changed signatures” (nothing outside tests calls Command.WriteUsageFile). " +
		"Whether the failure paths work when run is not known: reviewls runs no code."
	if !strings.HasSuffix(inv.Conclusion, conclusion) {
		t.Errorf("conclusion\n got %q\nwant it to end %q", inv.Conclusion, conclusion)
	}
}

// TestRegressionsWithoutCallers checks the functional checklist of a
// question about a symbol nothing calls: "no regressions" is not
// answerable, not supported.
func TestRegressionsWithoutCallers(t *testing.T) {
	res, ws := cobraResult(t)
	inv, err := Investigate(t.Context(), ws, res, "board-1", "board-1-001", "what does WriteUsageFile do?")
	if err != nil {
		t.Fatal(err)
	}
	want := ChecklistItem{Text: "no regressions in adjacent workflows or interfaces", Status: Unanswerable, Evidence: "nothing outside tests calls Command.WriteUsageFile"}
	if !slices.Contains(inv.Checklist, want) {
		t.Errorf("checklist %+v, want it to hold %+v", inv.Checklist, want)
	}
}
