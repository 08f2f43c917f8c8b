package artifacts

import (
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm"
)

// Secrets planted in the fixtures; no written byte may contain them.
const (
	secretKey   = "AKIAIOSFODNN7EXAMPLE"
	secretQuote = `pa55"<w0rd>&|\x`
)

const (
	headSHA = "3b1f0c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a"
	baseSHA = "9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b"
)

var finished = time.Date(2026, 6, 20, 9, 15, 42, 0, time.UTC)

var testOpts = Options{
	Tool:    "reviewls",
	Version: "v0.1.0-test",
	Rules: []review.RuleInfo{
		{ID: "security/hardcoded-secret", Perspective: review.Security, Severity: review.SeverityCritical,
			Summary: "Hard-coded secret", Doc: "A credential is written in the source, where anyone who can read the repository can use it."},
		{ID: "functional/unchecked-error", Perspective: review.Functional, Severity: review.SeverityHigh,
			Summary: "Unchecked error"},
	},
}

// workflowResult is a branch-diff review from the CLI: every kind of file
// status, skipped files, findings of four perspectives, rejected and
// suppressed findings, secrets in code, diff and history.
func workflowResult() *review.Result {
	token := &review.File{
		Path: "internal/auth/token.go", Status: review.StatusModified, Language: review.LangGo,
		Staged: true, Added: 3, Deleted: 1,
		Hunks: []review.Hunk{{
			OldStart: 10, OldLines: 4, NewStart: 10, NewLines: 6,
			Lines: []string{
				" func Sign(claims Claims) (string, error) {",
				"-\tkey := os.Getenv(\"SIGNING_KEY\")",
				"+\tkey := \"" + secretKey + "\"",
				"+\tpass := `" + secretQuote + "`",
				"+\ttok, _ := jwt.Sign(claims, key, pass)",
				" \treturn tok, nil",
				" }",
			},
		}},
		Lines:   map[int]review.LineState{11: review.LineCommitted, 12: review.LineCommitted, 13: review.LineUnstaged},
		Content: []byte("package auth\n"),
	}
	test := &review.File{
		Path: "internal/auth/token_test.go", Status: review.StatusAdded, Language: review.LangGo, Added: 2,
		Hunks: []review.Hunk{{NewStart: 1, NewLines: 2, Lines: []string{"+package auth", "+// TODO: test Sign"}}},
		Lines: map[int]review.LineState{1: review.LineCommitted, 2: review.LineCommitted}, Content: []byte("package auth\n// TODO: test Sign\n"),
	}
	doc := &review.File{
		Path: "docs/auth guide.md", Status: review.StatusModified, Language: review.LangMarkdown, Added: 1, Deleted: 1,
		Hunks:   []review.Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1, Lines: []string{"-Tokens expire after 1h.", "+Tokens expire after 2h | see <config>."}}},
		Lines:   map[int]review.LineState{3: review.LineCommitted},
		Content: []byte("# Auth\n\nTokens expire after 2h | see <config>.\n"),
	}
	legacy := &review.File{
		Path: "old/legacy.go", Status: review.StatusDeleted, Language: review.LangGo, Deleted: 2,
		Hunks: []review.Hunk{{OldStart: 1, OldLines: 2, Lines: []string{"-package old", "-var x = \"]]>\""}}},
	}
	renamed := &review.File{
		Path: "pkg/client.go", OldPath: "pkg/old_client.go", Similarity: 91, Status: review.StatusRenamed, Language: review.LangGo,
		Added: 1, Deleted: 1,
		Hunks:   []review.Hunk{{OldStart: 5, OldLines: 1, NewStart: 5, NewLines: 1, Lines: []string{"-\treturn nil", "+\treturn ctx.Err()"}}},
		Lines:   map[int]review.LineState{5: review.LineCommitted},
		Content: []byte("package pkg\n"),
	}
	sum := &review.File{Path: "go.sum", Status: review.StatusModified, Skip: "lock file", Added: 40, Deleted: 2}
	logo := &review.File{Path: "assets/logo.png", Status: review.StatusAdded, Skip: "binary"}
	cs := &review.ChangeSet{
		Root: "/home/dev/src/app",
		Target: review.Target{
			Kind: review.BranchDiff, Provider: "unknown", BaseRef: "origin/main", HeadRef: "refs/heads/feat/login",
			HeadSHA: headSHA, BaseSHA: baseSHA, Branch: "feat/login",
		},
		Files: []*review.File{token, test, doc, legacy, renamed, sum, logo},
	}
	cs.Sort()

	secret := &review.Finding{
		ID: review.Fingerprint("security/hardcoded-secret", token.Path, "Sign", "key := ..."), RuleID: "security/hardcoded-secret",
		Perspective: review.Security, Category: "Secrets & Sensitive Data", Severity: review.SeverityCritical,
		Title:   "Hard-coded signing key",
		Message: "The JWT signing key " + secretKey + " is committed in the source; anyone with read access can forge tokens.",
		Span:    review.Span{Path: token.Path, StartLine: 11, EndLine: 12}, Symbol: "Sign",
		CurrentCode:  "key := \"" + secretKey + "\"\npass := `" + secretQuote + "`",
		SuggestedFix: "key := os.Getenv(\"SIGNING_KEY\")",
		Fix: &review.Fix{Title: "Read the key from SIGNING_KEY", Edits: []review.TextEdit{{
			Span: review.Span{Path: token.Path, StartLine: 11, EndLine: 11}, NewText: "\tkey := os.Getenv(\"SIGNING_KEY\")\n",
		}}},
		Confidence: review.ConfidenceHigh, LineState: review.LineCommitted,
		Secrets: []string{secretKey, secretQuote},
	}
	unchecked := &review.Finding{
		ID: review.Fingerprint("functional/unchecked-error", token.Path, "Sign", "tok, _ :="), RuleID: "functional/unchecked-error",
		Perspective: review.Functional, Category: "Error Handling", Severity: review.SeverityHigh,
		Title: "[Functional] Error from jwt.Sign is discarded", Message: "A signing failure returns an empty token and a nil error.",
		Span:        review.Span{Path: token.Path, StartLine: 13, StartCol: 2, EndLine: 13, EndCol: 40},
		CurrentCode: "tok, _ := jwt.Sign(claims, key, pass)", SuggestedFix: "tok, err := jwt.Sign(claims, key, pass)\nif err != nil {\n\treturn \"\", err\n}",
		Confidence: review.ConfidenceMedium, LineState: review.LineUnstaged,
	}
	ctxErr := &review.Finding{
		ID: review.Fingerprint("standards/context-error", renamed.Path, "Do", "return ctx.Err()"), RuleID: "standards/context-error",
		Perspective: review.Standards, Severity: review.SeverityMedium, Skill: "go-conventions",
		Title: "Wrap the context error", Message: "Callers cannot tell which call was cancelled.",
		Span: review.Span{Path: renamed.Path, StartLine: 5}, CurrentCode: "return ctx.Err()",
		SuggestedFix: "Wrap it: fmt.Errorf(\"do: %w\", ctx.Err()).", LineState: review.LineCommitted,
	}
	docs := &review.Finding{
		ID: review.Fingerprint("readiness/doc-drift", doc.Path, "", "2h"), RuleID: "readiness/doc-drift",
		Perspective: review.Readiness, Category: "Documentation", Severity: review.SeverityLow,
		Title: "Documented lifetime does not match the code", Message: "The guide says 2h | the code uses `ttl` of 1h.",
		Span: review.Span{Path: doc.Path, StartLine: 3}, LineState: review.LineCommitted,
	}
	rejected := &review.Finding{
		RuleID: "functional/nil-map", Perspective: review.Functional, Severity: review.SeverityHigh,
		Title: "Write to a nil map", Span: review.Span{Path: token.Path, StartLine: 300},
	}
	suppressed := &review.Finding{
		ID: review.Fingerprint("standards/long-function", token.Path, "Sign", ""), RuleID: "standards/long-function",
		Perspective: review.Standards, Severity: review.SeverityLow, Title: "Long function",
		Span: review.Span{Path: token.Path, StartLine: 10, EndLine: 14},
	}

	return &review.Result{
		ChangeSet: cs,
		Risk: &review.Risk{
			Brief: review.ChangeBrief{
				Intent:         "Token signing now uses a fixed key, and the docs change the token lifetime.",
				PrimaryModules: []string{"internal/auth"},
				RiskAreas:      []string{"secrets", "auth"},
				TestNotes:      "A test file was added without tests.",
			},
			Evidence: []review.Evidence{
				{Signal: review.SignalRollback, Availability: review.Qualitative, Evidence: "A plain revert restores the previous behaviour."},
				{Signal: review.SignalChangeScope, Availability: review.Observed, Evidence: "7 files in 6 directories; 2 skipped."},
				{Signal: review.SignalPathCriticality, Availability: review.Observed, Evidence: "internal/auth handles signing keys."},
				{Signal: review.SignalHistory, Availability: review.Observed, Evidence: "token.go changed in 3 of the last 50 commits."},
				{Signal: review.SignalTestPresence, Availability: review.Observed, Evidence: "token_test.go was added but holds no test."},
				// coverage is missing on purpose: it must be recorded as unavailable.
			},
			RecommendedDepth: review.DepthComprehensive,
			DepthReason:      "Observed evidence shows a change to signing-key handling.",
			Tier:             review.TierHighRisk,
			Hotspots:         []review.Hotspot{{Path: token.Path, Classes: []string{"auth", "secrets"}}},
			Specialist: []review.SpecialistSignal{
				{Concern: "security", Signals: []string{"secret in source"}, Files: []string{token.Path}},
				{Concern: "efficiency", Signals: []string{"polling loop"}, Files: []string{renamed.Path}},
			},
			FileRisk: map[string]string{token.Path: "High", renamed.Path: "medium", doc.Path: "Low"},
		},
		History: &review.History{Available: true, Limit: 50, Commits: []review.Commit{
			{Hash: headSHA, Author: "dev", When: finished.Add(-2 * time.Hour).Unix(), Subject: "auth: sign with " + secretKey, Paths: []string{token.Path}},
			{Hash: "5555555a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a", Author: "dev", When: finished.Add(-26 * time.Hour).Unix(), Subject: "docs: token <lifetime> & ]]> notes"},
			{Hash: baseSHA, Author: "dev", When: finished.Add(-72 * time.Hour).Unix(), Subject: "base commit"},
			{Hash: "7777777a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a", Author: "dev", When: finished.Add(-96 * time.Hour).Unix(), Subject: "older"},
		}},
		Profile:                 review.ProfileStandard,
		Mode:                    review.ModeWorkflow,
		RecommendedPerspectives: []review.Perspective{review.Functional, review.Standards, review.Security, review.Readiness},
		Perspectives:            []review.Perspective{review.Readiness, review.Functional, review.Standards, review.Security},
		Depth:                   review.DepthComprehensive,
		Provenance:              review.AutomationProvenance(),
		Findings:                []*review.Finding{secret, unchecked, ctxErr, docs},
		Rejected:                []review.Rejected{{Finding: rejected, Reason: "line 300 is not in the diff"}},
		Suppressed:              []review.Suppressed{{Finding: suppressed, Reason: "table-driven; splitting hurts", By: "inline at internal/auth/token.go:9"}},
		Counts:                  review.Counts{Critical: 1, High: 1, Medium: 1, Low: 1},
		Verdict:                 review.VerdictRequestChanges,
		Positive:                []string{"The client now propagates cancellation.", ""},
		Testing:                 []string{"Add a test that Sign fails when SIGNING_KEY is unset."},
		Actions:                 []string{"Rotate the committed key " + secretKey + "."},
		OutOfScope:              []review.Observation{{File: "internal/auth/legacy.go", Observation: "Pre-existing MD5 use."}},
		Redactor:                review.NewRedactor([]string{secretKey, secretQuote}),
		Started:                 finished.Add(-time.Second),
		Finished:                finished,
	}
}

// interactiveResult is a local-changes review from the editor: an
// untracked file, a board, a walkthrough and loop state.
func interactiveResult() *review.Result {
	page := &review.File{
		Path: "web/src/Login.tsx", Status: review.StatusModified, Language: review.LangTSX, Unstaged: true, Added: 2, Deleted: 1,
		Hunks: []review.Hunk{{OldStart: 20, OldLines: 3, NewStart: 20, NewLines: 4, Lines: []string{
			" return (",
			"-  <button onClick={submit}>Log in</button>",
			"+  <div onClick={submit}>Log in</div>",
			"+  <img src={logo} />",
			" );",
		}}},
		Lines:   map[int]review.LineState{21: review.LineUnstaged, 22: review.LineUnstaged},
		Content: []byte("export function Login() {}\n"),
	}
	notes := &review.File{
		Path: "web/NOTES.txt", Status: review.StatusUntracked, Language: review.LangText, Added: 2,
		Lines: map[int]review.LineState{1: review.LineUntracked, 2: review.LineUntracked}, Content: []byte("remember\nthe | pipe"),
	}
	cs := &review.ChangeSet{
		Root: "/home/dev/src/web",
		Target: review.Target{
			Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD", HeadRef: "refs/heads/main",
			HeadSHA: headSHA, BaseSHA: headSHA, Branch: "main",
		},
		Files: []*review.File{page, notes},
	}
	cs.Sort()
	div := &review.Finding{
		ID: review.Fingerprint("accessibility/clickable-div", page.Path, "Login", "<div onClick={submit}>"), RuleID: "accessibility/clickable-div",
		Perspective: review.Accessibility, Category: "Operable", Skill: "wcag-22", Severity: review.SeverityMedium,
		Title: "Clickable div is not keyboard operable", Message: "A div with onClick cannot be reached with Tab or activated with Enter (WCAG 2.1.1).",
		Span: review.Span{Path: page.Path, StartLine: 21}, Symbol: "Login", CurrentCode: "<div onClick={submit}>Log in</div>",
		SuggestedFix: "<button onClick={submit}>Log in</button>", LineState: review.LineUnstaged,
	}
	img := &review.Finding{
		ID: review.Fingerprint("accessibility/img-alt", page.Path, "Login", "<img src={logo} />"), RuleID: "accessibility/img-alt",
		Perspective: review.Accessibility, Category: "Perceivable", Skill: "wcag-22", Severity: review.SeverityLow,
		Title: "Image without alt text", Message: "Screen readers announce the file name.",
		Span: review.Span{Path: page.Path, StartLine: 22}, CurrentCode: "<img src={logo} />", LineState: review.LineUnstaged,
	}
	return &review.Result{
		ChangeSet: cs,
		Risk: &review.Risk{
			Brief: review.ChangeBrief{Intent: "The login button becomes a div and gains a logo."},
			Evidence: []review.Evidence{
				{Signal: review.SignalChangeScope, Availability: review.Observed, Evidence: "2 files in 2 directories."},
				{Signal: review.SignalPathCriticality, Availability: review.Qualitative, Evidence: "UI only."},
				{Signal: review.SignalHistory, Availability: review.Unavailable, Evidence: "Shallow clone."},
				{Signal: review.SignalTestPresence, Availability: review.Observed, Evidence: "No test changed."},
				{Signal: review.SignalCoverage, Availability: review.Unavailable, Evidence: "No coverage report."},
				{Signal: review.SignalRollback, Availability: review.Qualitative, Evidence: "Plain revert."},
			},
			RecommendedDepth: review.DepthStandard,
			DepthReason:      "History and coverage are unavailable.",
			Tier:             review.TierLocal,
			Specialist:       []review.SpecialistSignal{{Concern: "accessibility", Signals: []string{"markup"}, Files: []string{page.Path}}},
			FileRisk:         map[string]string{page.Path: "Medium"},
			Incomplete:       true,
		},
		Profile:                 review.ProfileStandard,
		Mode:                    review.ModeInteractive,
		RecommendedPerspectives: []review.Perspective{review.Functional, review.Standards, review.Accessibility, review.Readiness},
		Perspectives:            []review.Perspective{review.Functional, review.Accessibility},
		Depth:                   review.DepthBasic,
		DepthRationale:          "The human chose a quick pass before lunch.",
		Provenance: review.Provenance{
			Scope: review.HumanConfirmed, ChangeRiskEvidence: review.HumanConfirmed, RecommendedDepth: review.AutomationDerived,
			DepthTier: review.HumanConfirmed, DepthRationale: review.HumanConfirmed,
		},
		Findings: []*review.Finding{div, img},
		Board: []review.BoardItem{
			{
				ID: "board-1", Area: "web/src", Status: review.StatusInProgress, Register: review.Register2,
				Summary:           "Login markup | button to div",
				PreliminarySignal: "Login.tsx:21 replaces a button with a clickable div.",
				Links:             []string{"web/src/Login.tsx:21", "web/src/Login.tsx:22"},
				SelectableSymbols: []string{"Login"}, Files: []string{page.Path}, Findings: []string{div.ID, img.ID},
			},
			{ID: "board-2", Area: "notes", Summary: "Untracked notes", Files: []string{notes.Path}},
		},
		Walkthrough: &review.Walkthrough{
			Areas: []review.Area{
				{Name: "web/src", Kind: "package", Files: []string{page.Path}, Added: 2, Deleted: 1,
					Summary: "Login renders a div where it rendered a button, and adds a logo image.", Symbols: []string{"Login"}},
				{Name: "notes", Kind: "docs", Files: []string{notes.Path}, Added: 2, Summary: "A new untracked notes file."},
			},
			EntryPoints: []string{"Login"},
			BlastRadius: []review.BlastItem{{Kind: review.BlastShared, Path: page.Path, Files: []string{"web/admin", "web/shop"}}, {Kind: review.BlastConfig, Files: []string{"web/config.yaml"}}},
			TestNotes:   []string{"No test touches Login."},
		},
		NextActions: []review.NextAction{{ID: "bookmark-1", Kind: review.ActionBookmark, Target: "board-1", Reason: "the button change"}},
		Gates:       review.PhaseGates{OrientationConfirmed: true, HumanAccepted: true},
		Phase:       review.PhaseDispatch,
		Finished:    finished,
	}
}

// cleanResult is a review with no findings on a detached HEAD.
func cleanResult() *review.Result {
	f := &review.File{
		Path: "README.md", Status: review.StatusModified, Language: review.LangMarkdown, Added: 1,
		Hunks:   []review.Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 2, Lines: []string{" # App", "+Usage: run it."}}},
		Lines:   map[int]review.LineState{2: review.LineUnstaged},
		Content: []byte("# App\nUsage: run it.\n"),
	}
	return &review.Result{
		ChangeSet: &review.ChangeSet{
			Target: review.Target{Kind: review.LocalChanges, BaseRef: "HEAD", HeadRef: "HEAD", HeadSHA: headSHA, BaseSHA: headSHA, Detached: true},
			Files:  []*review.File{f},
		},
		Perspectives: []review.Perspective{review.Readiness},
		Finished:     finished,
	}
}

// unbornResult is the first commit of a new repository: no HEAD yet.
func unbornResult() *review.Result {
	f := &review.File{
		Path: "main.go", Status: review.StatusUntracked, Language: review.LangGo, Added: 3,
		Lines:   map[int]review.LineState{1: review.LineUntracked, 2: review.LineUntracked, 3: review.LineUntracked},
		Content: []byte("package main\n\nfunc main() {}"),
	}
	return &review.Result{
		ChangeSet: &review.ChangeSet{
			Target: review.Target{Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD", HeadRef: "refs/heads/main", Branch: "main", Unborn: true},
			Files:  []*review.File{f},
		},
		Perspectives: []review.Perspective{review.Functional, review.Standards, review.Readiness},
		Finished:     finished,
	}
}

// modelResult is a review in which the model reviewer ran: one confirmed
// candidate, advisory (high, yet the verdict approves), one refuted as a
// duplicate of the rule finding, and a request the endpoint timed out on.
func modelResult() *review.Result {
	calc := &review.File{
		Path: "calc/calc.go", Status: review.StatusModified, Language: review.LangGo, Unstaged: true, Added: 2, Deleted: 1,
		Hunks: []review.Hunk{{OldStart: 5, OldLines: 3, NewStart: 5, NewLines: 4, Lines: []string{
			" \ttotal := 0",
			"-\tfor _, x := range xs {",
			"+\tfor i := 0; i <= len(xs); i++ {",
			"+\t\tx := xs[i] // TODO: clamp",
			" \t\ttotal += x",
		}}},
		Lines:   map[int]review.LineState{6: review.LineUnstaged, 7: review.LineUnstaged},
		Content: []byte("package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor i := 0; i <= len(xs); i++ {\n\t\tx := xs[i] // TODO: clamp\n\t\ttotal += x\n\t}\n\treturn total\n}\n"),
	}
	cs := &review.ChangeSet{
		Root: "/home/dev/src/calc",
		Target: review.Target{Kind: review.LocalChanges, Provider: "unknown", BaseRef: "HEAD", HeadRef: "refs/heads/main",
			HeadSHA: headSHA, BaseSHA: headSHA, Branch: "main"},
		Files: []*review.File{calc},
	}
	todo := &review.Finding{
		ID: review.Fingerprint("readiness/todo-added", calc.Path, "Sum", "x := xs[i] // TODO: clamp"), RuleID: "readiness/todo-added",
		Perspective: review.Readiness, Category: "Completeness", Severity: review.SeverityLow, Title: "TODO added",
		Message: "The change adds a TODO.", Span: review.Span{Path: calc.Path, StartLine: 7}, Symbol: "Sum",
		CurrentCode: "\t\tx := xs[i] // TODO: clamp", LineState: review.LineUnstaged,
	}
	cand := llm.Candidate{File: calc.Path, Line: 6, Quote: "for i := 0; i <= len(xs); i++ {", Perspective: "functional", Severity: "high",
		Title: "The loop reads one element past the end of xs", Rationale: "i reaches len(xs), and xs[i] panics.",
		SuggestedFix: "for i := 0; i < len(xs); i++ {", Confidence: "high"}
	dup := llm.Candidate{File: calc.Path, Line: 7, Quote: "x := xs[i] // TODO: clamp", Perspective: "readiness", Severity: "low",
		Title: "A TODO is left", Rationale: "The clamp is not done.", Confidence: "medium"}
	model := &review.Finding{
		ID: review.Fingerprint("functional/model", calc.Path, "Sum", "for i := 0; i <= len(xs); i++ {"), RuleID: "functional/model",
		Perspective: review.Functional, Category: llm.Category, Model: "qwen2.5-coder:7b", Severity: review.SeverityHigh,
		Title: cand.Title, Message: cand.Rationale, Span: review.Span{Path: calc.Path, StartLine: 6}, Symbol: "Sum",
		CurrentCode: "\tfor i := 0; i <= len(xs); i++ {", SuggestedFix: cand.SuggestedFix, Confidence: review.ConfidenceHigh,
		LineState: review.LineUnstaged,
	}
	ledger := &llm.Ledger{
		Model: "qwen2.5-coder:7b", Endpoint: "127.0.0.1:11434", Context: llm.ContextSize{Tokens: 8192, Source: "Ollama /api/show"},
		Requests: []llm.RequestRecord{
			{Key: "0123456789abcdef", Files: []string{calc.Path}, Tokens: 812, Mode: llm.ModeSchema, Answered: true, Candidates: 2,
				Usage: llm.Usage{PromptTokens: 830, CompletionTokens: 120}, ElapsedMS: 2140},
			{Key: "fedcba9876543210", Files: []string{"calc/more.go"}, Tokens: 400, Mode: llm.ModeSchema, ElapsedMS: 120000},
		},
		Entries: []llm.Entry{
			{ID: "c1", Request: "0123456789abcdef", Candidate: &cand, Disposition: llm.Confirmed, Evidence: "line 6 of calc/calc.go changed and read the quote", FindingID: model.ID},
			{ID: "c2", Request: "0123456789abcdef", Candidate: &dup, Disposition: llm.Refuted, Reason: llm.ReasonDuplicate, Evidence: "rule finding readiness/todo-added already reports calc/calc.go:7"},
			{ID: "u1", Request: "fedcba9876543210", Files: []string{"calc/more.go"}, Disposition: llm.Unverified, Reason: llm.ReasonTimeout, Evidence: "no answer within 2m0s"},
		},
		NotSent: []llm.NotSent{{Path: "go.sum", Why: "skipped: lock file"}},
		Counts: llm.Counts{Candidates: 2, Confirmed: 1, Refuted: map[llm.Reason]int{llm.ReasonDuplicate: 1},
			Unverified: map[llm.Reason]int{llm.ReasonTimeout: 1}},
		Usage: llm.Usage{PromptTokens: 830, CompletionTokens: 120}, ElapsedMS: 122140,
	}
	return &review.Result{
		ChangeSet:    cs,
		Perspectives: []review.Perspective{review.Functional, review.Standards, review.Readiness},
		Findings:     []*review.Finding{model, todo},
		Counts:       review.Counts{High: 1, Low: 1},
		Verdict:      review.VerdictApproveWithComments,
		Model: review.ModelReview{State: review.ModelRan, Model: "qwen2.5-coder:7b", Host: "127.0.0.1:11434", Summary: ledger.Summary(),
			Ledger: ledger.JSON(), Counts: review.ModelCounts{Requests: 2, Candidates: 2, Confirmed: 1, Refuted: map[string]int{"duplicate": 1},
				Unverified: map[string]int{"timeout": 1}, PromptTokens: 830, CompletionTokens: 120, Elapsed: 122140 * time.Millisecond}},
		Finished: finished,
	}
}
