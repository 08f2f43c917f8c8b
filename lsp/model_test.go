package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/lsp"
	"github.com/reviewls/reviewls/lsp/lsptest"
	"github.com/reviewls/reviewls/review/llm/llmtest"
	"github.com/reviewls/reviewls/review/reviewtest"
)

// The model reviewer's second wave in the server, against llmtest.

const (
	sumBase = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n"
	// sumWork makes the loop read one element past the end (line 6) and
	// adds a TODO (line 7, readiness/todo-added).
	sumWork = "package calc\n\n// Sum adds xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor i := 0; i <= len(xs); i++ {\n\t\ttotal += xs[i] // TODO: overflow\n\t}\n\treturn total\n}\n"
)

var sumAnswer = llmtest.Answer(llmtest.Finding{File: "calc/sum.go", Line: 6, Quote: "for i := 0; i <= len(xs); i++ {",
	Title: "The loop reads one element past the end of xs"})

// modelSetup returns a repository with the calc change and a user folder
// whose configuration names the model server s.
func modelSetup(t *testing.T, s *llmtest.Server) (dir, user string) {
	t.Helper()
	dir = reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{
		{Name: "base/calc/sum.go", Data: []byte(sumBase)},
		{Name: "work/calc/sum.go", Data: []byte(sumWork)},
	}}).Dir
	user = t.TempDir()
	cfg := fmt.Sprintf("model:\n  endpoint: %s\n  name: test-model\n  context: 8192\n", s.URL)
	if err := os.WriteFile(filepath.Join(user, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, user
}

// events turns llmtest's notifications into a channel.
func events() (chan string, func(int, string)) {
	ch := make(chan string, 64)
	return ch, func(n int, event string) { ch <- fmt.Sprintf("%s %d", event, n) }
}

// awaitEvent waits for event on ch, within the test's time.
func awaitEvent(t *testing.T, ch <-chan string, event string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case e := <-ch:
			if e == event {
				return
			}
		case <-deadline:
			t.Fatalf("no %q from the model server", event)
		}
	}
}

// modelState is what reviewls/didReview says of the model review.
func modelState(s *lsptest.State) map[string]any {
	if len(s.Reviews) == 0 {
		return nil
	}
	var r struct {
		Model map[string]any `json:"model"`
	}
	json.Unmarshal(s.Reviews[len(s.Reviews)-1], &r)
	return r.Model
}

// modelSays holds when the last reviewls/didReview's model review has
// the state and count of findings.
func modelSays(state string, findings int) lsptest.Expectation {
	return func(s *lsptest.State) (bool, string) {
		m := modelState(s)
		return m != nil && m["state"] == state && m["findings"] == float64(findings),
			fmt.Sprintf("reviewls/didReview with model state %s and %d findings (last: %v)", state, findings, m)
	}
}

// TestModelSecondWave checks that the rule diagnostics are published
// before the model is answered, that the model's then come as a second
// publication, with $/progress while the model is asked and the model
// review's state in reviewls/didReview.
func TestModelSecondWave(t *testing.T) {
	release := make(chan struct{})
	s := llmtest.New(t, llmtest.Config{Handler: func(c *llmtest.Chat) llmtest.Reply {
		<-release
		return sumAnswer
	}})
	dir, user := modelSetup(t, s)
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: user, ModelDelay: time.Millisecond}})
	env.Await(lsptest.DiagnosticsAt("calc/sum.go", 0, lsptest.WithCode("readiness/todo-added"), lsptest.Count(1)),
		lsptest.ProgressContaining("Asking test-model at 127.0.0.1:"), modelSays("pending", 0))
	close(release)
	env.Await(lsptest.DiagnosticsAt("calc/sum.go", 0, lsptest.WithCode("functional/model"), lsptest.WithCode("readiness/todo-added"),
		lsptest.WithData("model", "test-model"), lsptest.OnLines(6, 7)), modelSays("ran", 1))
	env.Shutdown()
}

// TestModelCancelledByEdit checks that an edit cancels the model request
// in flight, that between saves the model is not asked (trigger: save),
// and that the next save asks it again, while the rule diagnostics
// follow every edit.
func TestModelCancelledByEdit(t *testing.T) {
	ch, notify := events()
	s := llmtest.New(t, llmtest.Config{Notify: notify, Handler: llmtest.Replies(llmtest.Reply{Hang: true}, sumAnswer)})
	dir, user := modelSetup(t, s)
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: user, ModelDelay: time.Millisecond, NoWatch: true}})
	env.OpenFile("calc/sum.go")
	awaitEvent(t, ch, "received 1")
	v := env.EditFile("calc/sum.go", sumWork+"\n// TODO: tests\n")
	awaitEvent(t, ch, "cancelled 1")
	// The edit's review: the rules at once, the model from the cache
	// (nothing cached, nothing asked).
	env.Await(lsptest.DiagnosticsAt("calc/sum.go", uint32(v), lsptest.WithCode("readiness/todo-added"), lsptest.Count(2)), modelSays("ran", 0))
	if n := len(s.Chats()); n != 1 {
		t.Errorf("%d model requests after an edit, want 1: an edit asks nothing", n)
	}
	env.SaveFile("calc/sum.go", sumWork)
	awaitEvent(t, ch, "answered 2")
	env.Await(lsptest.DiagnosticsAt("calc/sum.go", 0, lsptest.WithCode("functional/model")), modelSays("ran", 1))
	env.Shutdown()
}

// TestModelDownLogged checks that a model that is down costs one line in
// the client's log and a note in reviewls/didReview, never the rule
// diagnostics.
func TestModelDownLogged(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(llmtest.Reply{Status: 500, Error: "model not loaded"})})
	dir, user := modelSetup(t, s)
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: user, ModelDelay: time.Millisecond}})
	env.Await(lsptest.DiagnosticsAt("calc/sum.go", 0, lsptest.WithCode("readiness/todo-added")),
		lsptest.LogContaining("reviewls: model review (test-model): 0 candidates, 0 confirmed, 0 refuted; 1 request unverified (unavailable 1)"),
		modelSays("ran", 0))
	env.Shutdown()
}

// TestModelEditorSettings checks that the editor's settings turn the
// model on (the user's own, so in any repository), that a bad one is
// refused naming the key, and that false turns off the user file's.
func TestModelEditorSettings(t *testing.T) {
	s := llmtest.New(t, llmtest.Config{Handler: llmtest.Replies(sumAnswer)})
	dir, user := modelSetup(t, s)
	env := lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: t.TempDir(), ModelDelay: time.Millisecond},
		InitializationOptions: map[string]any{"model": map[string]any{"endpoint": s.URL, "name": "test-model", "context": 8192}}})
	env.Await(lsptest.DiagnosticsAt("calc/sum.go", 0, lsptest.WithCode("functional/model")))
	env.Shutdown()

	env = lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: user},
		InitializationOptions: map[string]any{"model": map[string]any{"timeout": "soon"}}})
	env.Await(lsptest.MessageContaining(`reviewls settings:1: model.timeout: want a positive duration such as 30s or 2m, got "soon"`))
	env.Shutdown()

	asked := len(s.Chats())
	env = lsptest.New(t, dir, lsptest.Config{Options: lsp.Options{UserDir: user}, InitializationOptions: map[string]any{"model": false}})
	env.Await(lsptest.DiagnosticsAt("calc/sum.go", 0, lsptest.WithCode("readiness/todo-added")), func(s *lsptest.State) (bool, string) {
		return len(s.Reviews) > 0 && modelState(s) == nil, "a reviewls/didReview without a model"
	})
	if n := len(s.Chats()); n != asked {
		t.Errorf("model: false: %d model requests, want none", n-asked)
	}
	env.Shutdown()
}
