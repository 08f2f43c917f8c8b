package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/reviewtest"
	"github.com/reviewls/reviewls/schemas"
)

// boardOf is the part of reviewls.board's result the tests read.
type boardOf struct {
	Path  string `json:"path"`
	Phase string `json:"currentPhase"`
	Gates struct {
		OrientationConfirmed, HumanAccepted, WalkbackComplete, EmissionReady bool
	} `json:"phaseGates"`
	Items []struct {
		ID, Area, Status, Register, PreliminarySignal               string
		Links, SelectableSymbols, Findings, Explained, Investigated []string
	} `json:"items"`
	NextActions []struct{ ID, Kind, Target, Reason string } `json:"nextActions"`
	Markdown    string                                      `json:"markdown"`
}

func (b boardOf) item(t *testing.T, area string) (id string, symbols []string, status string) {
	t.Helper()
	for _, it := range b.Items {
		if it.Area == area {
			return it.ID, it.SelectableSymbols, it.Status
		}
	}
	t.Fatalf("no board item for %s in %+v", area, b.Items)
	return "", nil, ""
}

func loopEnv(t *testing.T) *lsptest.Env {
	fx := reviewtest.Repo(t, "../testdata/repos/loop.txtar")
	env := lsptest.New(t, fx.Dir, lsptest.Config{})
	env.Await(lsptest.DiagnosticsAt("web/cart.ts", 0, lsptest.WithCode("readiness/todo-added")))
	return env
}

// folderFiles validates every JSON artifact of the review folder and
// returns the folder.
func folderFiles(t *testing.T, env *lsptest.Env) string {
	t.Helper()
	dir := filepath.Join(env.Dir, artifacts.ReviewsDir, "main")
	if err := artifacts.Validate(dir); err != nil {
		t.Fatalf("artifacts: %v", err)
	}
	return dir
}

// TestReviewLoop walks the whole loop through the commands: board and
// walkthrough, bookmark, explain (by position and by name, in Go, Python
// and TypeScript), investigate, perspectives, depth, sweep, emission.
func TestReviewLoop(t *testing.T) {
	env := loopEnv(t)

	var wt struct{ Path, Markdown string }
	if err := env.ExecuteCommand("reviewls.walkthrough", &wt); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Diff summary", "## Entry points and reach", "Store.Get", "cmd/shop/main.go:11 → Store.Get",
		"shared module: store/store.go is called from 2 other directories (api, cmd/shop)", "## Appendices"} {
		if !strings.Contains(wt.Markdown, want) {
			t.Errorf("walkthrough lacks %q:\n%s", want, wt.Markdown)
		}
	}
	for _, banned := range []string{"Critical", "High", "request_changes", "verdict"} {
		if strings.Contains(wt.Markdown, banned) {
			t.Errorf("walkthrough (Register 1) mentions %q", banned)
		}
	}

	var board boardOf
	if err := env.ExecuteCommand("reviewls.board", &board); err != nil {
		t.Fatal(err)
	}
	storeID, storeSyms, status := board.item(t, "store")
	webID, _, _ := board.item(t, "web")
	jobsID, _, _ := board.item(t, "jobs")
	if status != "pending" || !board.Gates.OrientationConfirmed || board.Phase != "orientation" {
		t.Errorf("board after first look: status %s gates %+v phase %s", status, board.Gates, board.Phase)
	}
	if strings.Join(storeSyms, ",") != "ErrMissing,Store.Get" {
		t.Errorf("store symbols = %v", storeSyms)
	}
	if !strings.Contains(board.Markdown, "| # | Area | Status | Preliminary signal |") {
		t.Errorf("board markdown:\n%s", board.Markdown)
	}
	// The TODO finding is walked back onto the web item.
	for _, it := range board.Items {
		if it.ID == webID && len(it.Findings) != 1 {
			t.Errorf("web item findings = %v, want the TODO", it.Findings)
		}
	}

	var bm struct {
		Item   struct{ ID, Status, Register string }
		Action struct{ ID, Kind, Target string }
		Route  string
	}
	if err := env.ExecuteCommand("reviewls.bookmark", &bm, map[string]any{"item": storeID, "question": "is the new error handled by every caller?"}); err != nil {
		t.Fatal(err)
	}
	if bm.Item.Status != "in_progress" || bm.Route != "investigate" || bm.Action.Kind != "bookmark" || bm.Action.Target != storeID {
		t.Errorf("bookmark = %+v", bm)
	}

	// Explain by position: the cursor on "Get" in store.go line 15.
	var ex struct {
		Item, Symbol, Change, Path, Markdown string
		FollowOn                             []string
	}
	pos := protocol.Position{Line: 14, Character: 17}
	if err := env.ExecuteCommand("reviewls.explain", &ex, map[string]any{"uri": env.URI("store/store.go"), "position": pos}); err != nil {
		t.Fatal(err)
	}
	if ex.Symbol != "Store.Get" || ex.Change != "signature changed" || ex.Item != storeID {
		t.Errorf("explain = %+v", ex)
	}
	for _, want := range []string{"func (s *Store) Get(key string) string", "[`cmd/shop/main.go:11`](", "> Get returns a record, or ErrMissing."} {
		if !strings.Contains(ex.Markdown, want) {
			t.Errorf("explanation lacks %q:\n%s", want, ex.Markdown)
		}
	}
	if filepath.Base(ex.Path) != storeID+"-Store.Get.md" {
		t.Errorf("explanation written to %s", ex.Path)
	}
	// By name, in Python and TypeScript.
	for _, c := range []struct{ item, symbol, change, want string }{
		{jobsID, "normalize", "added", `"""Strip and lower-case one item."""`},
		{webID, "discounted", "added", "export function discounted(prices: number[], rate: number): number"},
	} {
		if err := env.ExecuteCommand("reviewls.explain", &ex, map[string]any{"item": c.item, "symbol": c.symbol}); err != nil {
			t.Fatal(err)
		}
		if ex.Change != c.change || !strings.Contains(ex.Markdown, strings.Trim(c.want, `"`)) {
			t.Errorf("explain %s = %s:\n%s", c.symbol, ex.Change, ex.Markdown)
		}
	}

	// Investigate in Go and in TypeScript.
	var inv struct {
		Item, Investigation, Path, Perspective, Conclusion, Markdown string
		Checklist                                                    []struct{ Text, Status, Evidence string }
		FollowOn                                                     []string
	}
	if err := env.ExecuteCommand("reviewls.investigate", &inv, map[string]any{"item": storeID, "question": "is Store.Get's new error handled by every caller?"}); err != nil {
		t.Fatal(err)
	}
	if inv.Investigation != storeID+"-001" || inv.Perspective != "functional" || len(inv.Checklist) != 4 {
		t.Errorf("investigation = %+v", inv)
	}
	for _, want := range []string{"caller [`cmd/shop/main.go:11`]", "test [`store/store_test.go:7`]", "## Conclusion", "What the evidence shows", "What stays unverified",
		"reviewtest"} { // the blame of the replaced lines names the base commit's author
		if !strings.Contains(inv.Markdown, want) {
			t.Errorf("investigation lacks %q:\n%s", want, inv.Markdown)
		}
	}
	if err := env.ExecuteCommand("reviewls.investigate", &inv, map[string]any{"item": webID, "question": "does discounted need a test?"}); err != nil {
		t.Fatal(err)
	}
	if inv.Perspective != "readiness" || !strings.Contains(inv.Markdown, "readiness/todo-added") {
		t.Errorf("web investigation = %s\n%s", inv.Perspective, inv.Markdown)
	}
	// And in Python: normalize is called by run in the same file.
	if err := env.ExecuteCommand("reviewls.investigate", &inv, map[string]any{"item": jobsID, "question": "is normalize safe for None items?"}); err != nil {
		t.Fatal(err)
	}
	if inv.Perspective != "security" || !strings.Contains(inv.Markdown, "### `normalize` (function, added)") ||
		!strings.Contains(inv.Markdown, "caller [`jobs/batch.py:2`]") || !strings.Contains(inv.Markdown, "History: the change only adds lines here") {
		t.Errorf("python investigation = %s\n%s", inv.Perspective, inv.Markdown)
	}

	if err := env.ExecuteCommand("reviewls.board", &board); err != nil {
		t.Fatal(err)
	}
	_, _, status = board.item(t, "store")
	if status != "complete" {
		t.Errorf("store item after its investigation: %s", status)
	}
	var kinds []string
	for _, a := range board.NextActions {
		kinds = append(kinds, a.Kind)
	}
	if got := strings.Join(kinds, ","); !strings.HasPrefix(got, "bookmark,explain,") || !strings.Contains(got, "investigate") {
		t.Errorf("next actions: %s", got)
	}

	// Human choices: perspectives and depth are human-confirmed.
	var sum struct {
		Perspectives []string
		Depth        string
	}
	if err := env.ExecuteCommand("reviewls.selectPerspectives", &sum, map[string]any{"perspectives": []string{"security", "readiness"}}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(sum.Perspectives, ",") != "security,readiness" {
		t.Errorf("perspectives after selection = %v", sum.Perspectives)
	}
	if err := env.ExecuteCommand("reviewls.setDepth", &sum, map[string]any{"depth": "basic", "rationale": "a small, well-tested change"}); err != nil {
		t.Fatal(err)
	}
	if sum.Depth != "basic" {
		t.Errorf("depth = %s", sum.Depth)
	}
	var sw struct {
		Board boardOf
	}
	if err := env.ExecuteCommand("reviewls.sweep", &sw); err != nil {
		t.Fatal(err)
	}
	if !sw.Board.Gates.WalkbackComplete || sw.Board.Phase != "walkback" {
		t.Errorf("after the sweep: gates %+v phase %s", sw.Board.Gates, sw.Board.Phase)
	}
	dir := folderFiles(t, env)
	ds, err := os.ReadFile(filepath.Join(dir, artifacts.FileDiffState))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"scope": "human-confirmed"`, `"depthTier": "human-confirmed"`, `"recommendedDepth": "automation-derived"`, `"depthRationale": "a small, well-tested change"`} {
		if !strings.Contains(string(ds), want) {
			t.Errorf("diff-state.json lacks %s", want)
		}
	}

	// Emission: unconfirmed, then confirmed.
	var em struct {
		Path   string
		Record struct{ Mode, Target, Status, Summary string }
		Ready  bool `json:"emissionReady"`
	}
	if err := env.ExecuteCommand("reviewls.emit", &em, map[string]any{"confirm": false}); err != nil {
		t.Fatal(err)
	}
	if em.Record.Status != "skipped" || em.Ready {
		t.Errorf("unconfirmed emission = %+v", em)
	}
	if err := env.ExecuteCommand("reviewls.emit", &em, map[string]any{"confirm": true}); err != nil {
		t.Fatal(err)
	}
	if em.Record.Status != "completed" || em.Record.Mode != "canonical" || em.Record.Target != "review artifact" || !em.Ready {
		t.Errorf("confirmed emission = %+v", em)
	}
	meta, _ := os.ReadFile(filepath.Join(dir, artifacts.FileMetadata))
	for _, want := range []string{`"explanations/` + storeID + `-Store.Get.md"`, `"walkback/` + storeID + `-001-register-2.md"`, `"emission_record": "emission-record.json"`} {
		if !strings.Contains(string(meta), want) {
			t.Errorf("metadata.json lacks %s:\n%s", want, meta)
		}
	}
	reviewMD, _ := os.ReadFile(filepath.Join(dir, artifacts.FileReview))
	if !strings.Contains(string(reviewMD), "walkback/"+storeID+"-001-register-2.md") {
		t.Errorf("review.md does not link the investigation")
	}
	rec, _ := os.ReadFile(filepath.Join(dir, artifacts.FileEmissionRecord))
	if err := schemas.Validate("emission-record", rec); err != nil || !strings.Contains(string(rec), `"completed"`) {
		t.Errorf("emission-record.json: %v\n%s", err, rec)
	}
	env.Shutdown()
}

// TestLoopBadArguments checks that bad arguments return a clear error and
// change nothing.
func TestLoopBadArguments(t *testing.T) {
	env := loopEnv(t)
	var before boardOf
	if err := env.ExecuteCommand("reviewls.board", &before); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  string
		args any
		want string
	}{
		{"reviewls.bookmark", map[string]any{"item": "board-99"}, `unknown board item "board-99"`},
		{"reviewls.bookmark", map[string]any{"itme": "board-1"}, `unknown field "itme"`},
		{"reviewls.explain", map[string]any{"item": "board-1", "symbol": "NoSuchThing"}, "symbol not found"},
		{"reviewls.explain", map[string]any{"uri": env.URI("store/store.go"), "position": protocol.Position{Line: 0, Character: 0}}, "nothing is declared or used"},
		{"reviewls.explain", map[string]any{}, "explain needs"},
		{"reviewls.investigate", map[string]any{"item": "board-1"}, "investigate needs"},
		{"reviewls.investigate", map[string]any{"item": "board-42", "question": "why?"}, `unknown board item "board-42"`},
		{"reviewls.selectPerspectives", map[string]any{"perspectives": []string{"performance"}}, `unknown perspective "performance"`},
		{"reviewls.selectPerspectives", map[string]any{"perspectives": []string{}}, "at least one"},
		{"reviewls.setDepth", map[string]any{"depth": "deep", "rationale": "x"}, `unknown depth "deep"`},
		{"reviewls.setDepth", map[string]any{"depth": "basic"}, "needs a rationale"},
		{"reviewls.emit", map[string]any{}, "emit needs"},
		{"reviewls.review", map[string]any{"colour": "blue"}, `unknown field "colour"`},
		{"reviewls.review", "board-1", "bad arguments"},
	} {
		err := env.ExecuteCommand(c.cmd, nil, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err = %v, want %q", c.cmd, c.args, err, c.want)
		}
	}
	var after boardOf
	if err := env.ExecuteCommand("reviewls.board", &after); err != nil {
		t.Fatal(err)
	}
	if len(after.NextActions) != 0 || after.Phase != before.Phase || after.Gates != before.Gates {
		t.Errorf("bad arguments changed the loop: %+v", after)
	}
	env.Shutdown()
}

// TestExplainActionAndLenses checks the "Explain <symbol>" code action at
// the cursor and the lenses over changed symbols.
func TestExplainActionAndLenses(t *testing.T) {
	env := loopEnv(t)
	env.OpenFile("store/store.go")
	at := protocol.Range{Start: protocol.Position{Line: 14, Character: 18}, End: protocol.Position{Line: 14, Character: 18}}
	var explain *protocol.CodeAction
	for i, a := range env.CodeActions("store/store.go", at) {
		if a.Title == "reviewls: Explain Get" {
			explain = &env.CodeActions("store/store.go", at)[i]
		}
	}
	if explain == nil || explain.Command == nil || explain.Command.Command != "reviewls.explain" {
		t.Fatalf("no Explain Get action among %+v", env.CodeActions("store/store.go", at))
	}
	// Explain is offered only on names the change defines, where it can
	// succeed: not on keywords, receivers, parameters, builtins or imports.
	for _, c := range []struct {
		line, char uint32
		want       string
	}{
		{14, 10, "reviewls: Explain Store"},
		{17, 14, "reviewls: Explain ErrMissing"},
		{14, 0, ""},  // func
		{14, 6, ""},  // the receiver s
		{14, 21, ""}, // the parameter key
		{14, 26, ""}, // string
		{3, 9, ""},   // the import "errors"
	} {
		pos := protocol.Position{Line: c.line, Character: c.char}
		var got []string
		for _, a := range env.CodeActions("store/store.go", protocol.Range{Start: pos, End: pos}) {
			if a.Command != nil && a.Command.Command == "reviewls.explain" {
				got = append(got, a.Title)
			}
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("explain actions at %d:%d = %q, want %q", c.line, c.char, got, c.want)
		}
	}

	var ex struct{ Symbol, Path string }
	if err := env.ExecuteCommand(explain.Command.Command, &ex, explain.Command.Arguments...); err != nil {
		t.Fatal(err)
	}
	if ex.Symbol != "Store.Get" {
		t.Errorf("the action explained %q", ex.Symbol)
	}
	if _, err := os.Stat(ex.Path); err != nil {
		t.Errorf("explanation artifact: %v", err)
	}

	lenses, err := env.Server.CodeLens(env.Ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: env.URI("store/store.go")}})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, l := range lenses {
		titles = append(titles, l.Command.Title+"@"+string(rune('0'+l.Range.Start.Line/10))+string(rune('0'+l.Range.Start.Line%10)))
	}
	// The change to store.go comes without a test change: its note's lens
	// sits on the first line.
	// The changed ErrMissing variable (line 6) carries no lens by default
	// (the codeLens setting), the method Get does.
	want := "reviewls note: no test changed with this code@00,Explain@14,Investigate@14,Bookmark@14"
	if got := strings.Join(titles, ","); got != want {
		t.Fatalf("lenses = %s, want %s", got, want)
	}
	// A lens's command runs as is.
	if err := env.ExecuteCommand(lenses[1].Command.Command, nil, lenses[1].Command.Arguments...); err != nil {
		t.Errorf("Explain lens: %v", err)
	}
	env.Shutdown()
}

// didReview is the part of a reviewls/didReview notification the tests
// read.
type didReview struct {
	Root     string `json:"root"`
	Verdict  string `json:"verdict"`
	Findings int    `json:"findings"`
	Counts   struct{ Critical, High, Medium, Low int }
	Board    []struct{ ID, Area, Status string }
}

// reviewWith expects a reviewls/didReview notification that satisfies ok.
func reviewWith(desc string, ok func(didReview) bool) lsptest.Expectation {
	return func(s *lsptest.State) (bool, string) {
		for _, raw := range s.Reviews {
			var r didReview
			if json.Unmarshal(raw, &r) == nil && ok(r) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("a reviewls/didReview with %s (got %d)", desc, len(s.Reviews))
	}
}

// TestDidReviewNotification checks that a settled review is announced
// with its verdict, counts and board, that a loop command changing the
// board announces it again, and that an unchanged state is not repeated.
func TestDidReviewNotification(t *testing.T) {
	env := loopEnv(t)
	var b boardOf
	if err := env.ExecuteCommand("reviewls.board", &b); err != nil {
		t.Fatal(err)
	}
	storeID, _, _ := b.item(t, "store")
	env.Await(reviewWith("the verdict, counts and board", func(r didReview) bool {
		return r.Root == string(env.URI("")) && r.Verdict != "" && r.Findings > 0 &&
			r.Counts.Low > 0 && len(r.Board) == len(b.Items)
	}))
	n := len(env.State().Reviews)
	if err := env.ExecuteCommand("reviewls.bookmark", nil, map[string]any{"item": storeID}); err != nil {
		t.Fatal(err)
	}
	env.Await(reviewWith(storeID+" in progress", func(r didReview) bool {
		for _, it := range r.Board {
			if it.ID == storeID {
				return it.Status == "in_progress"
			}
		}
		return false
	}))
	if err := env.ExecuteCommand("reviewls.review", nil); err != nil {
		t.Fatal(err)
	}
	if got := len(env.State().Reviews); got != n+1 {
		t.Errorf("%d notifications after bookmark and an unchanged review, want %d", got, n+1)
	}
}

// TestExplainNeverCarriesSecret checks that no Explain action is offered
// on the words of a string literal (a hardcoded key) and that an error
// quoting a secret is redacted.
func TestExplainNeverCarriesSecret(t *testing.T) {
	env := loopEnv(t)
	const secret = "AKIAZ7Q2R5T6W3X4Y6B2"
	env.WriteFile("store/creds.go", "package store\n\nconst accessKey = \""+secret+"\"\n")
	env.OpenFile("store/creds.go")
	env.Await(lsptest.DiagnosticsAt("store/creds.go", 0, lsptest.WithCode("security/hardcoded-secret")))
	at := protocol.Range{Start: protocol.Position{Line: 2, Character: 24}, End: protocol.Position{Line: 2, Character: 24}}
	for _, a := range env.CodeActions("store/creds.go", at) {
		if strings.Contains(a.Title, "AKIA") || a.Command != nil && a.Command.Command == "reviewls.explain" {
			t.Errorf("action %q offered on the secret", a.Title)
		}
	}
	var b boardOf
	if err := env.ExecuteCommand("reviewls.board", &b); err != nil {
		t.Fatal(err)
	}
	id, _, _ := b.item(t, "store")
	err := env.ExecuteCommand("reviewls.explain", nil, map[string]any{"item": id, "symbol": secret})
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "AKIA…[redacted, 20 chars]") {
		t.Errorf("explain of the secret: err = %v, want it redacted", err)
	}
	env.Shutdown()
}

// TestCodeLensSetting checks which changed symbols carry the loop's
// lenses: functions, methods and types by default (a constant's lenses
// crowd Neovim's virtual text), every declaration with codeLens "all",
// none with "off".
func TestCodeLensSetting(t *testing.T) {
	base := "package a\n\nconst limit = 1\n\nfunc Run() int { return limit }\n"
	work := "package a\n\nconst limit = 2\n\nfunc Run() int { return limit + 1 }\n\ntype job struct{ n int }\n"
	for _, tc := range []struct {
		mode string
		want string
	}{
		{"", "Explain@04,Investigate@04,Bookmark@04,Explain@06,Investigate@06,Bookmark@06"},
		{"symbols", "Explain@04,Investigate@04,Bookmark@04,Explain@06,Investigate@06,Bookmark@06"},
		// The type and its field n, both on line 6.
		{"all", "Explain@02,Investigate@02,Bookmark@02,Explain@04,Investigate@04,Bookmark@04,Explain@06,Investigate@06,Bookmark@06,Explain@06,Investigate@06,Bookmark@06"},
		{"off", ""},
	} {
		dir := repo(t, map[string]string{"a.go": base, "a_test.go": "package a\n"})
		env := lsptest.New(t, dir, lsptest.Config{InitializationOptions: map[string]any{"codeLens": tc.mode}})
		env.WriteFile("a.go", work)
		env.WriteFile("a_test.go", "package a\n\n// touched with the code\n")
		env.Await(reviewWith("a board item", func(d didReview) bool { return len(d.Board) > 0 }))
		lenses, err := env.Server.CodeLens(env.Ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: env.URI("a.go")}})
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, l := range lenses {
			titles = append(titles, fmt.Sprintf("%s@%02d", l.Command.Title, l.Range.Start.Line))
		}
		if got := strings.Join(titles, ","); got != tc.want {
			t.Errorf("codeLens %q: lenses %s, want %s", tc.mode, got, tc.want)
		}
		env.Shutdown()
	}
}
