package orient

import (
	"context"
	"io/fs"
	"slices"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// baseWorkspace serves base versions by path and records the paths asked.
type baseWorkspace struct {
	base  map[string]string
	asked []string
}

func (w *baseWorkspace) Root() string { return "/repo" }

func (w *baseWorkspace) ReadBase(_ context.Context, p string) ([]byte, error) {
	w.asked = append(w.asked, p)
	b, ok := w.base[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return []byte(b), nil
}

func (w *baseWorkspace) TrackedFiles() ([]string, error) { return nil, nil }

func (w *baseWorkspace) LineHistory(_ context.Context, p string, _ []int) ([]review.LineOrigin, error) {
	w.asked = append(w.asked, p)
	return nil, nil
}

// renamedFile is b.go, renamed from a.go with one function added.
func renamedFile() *review.File {
	return &review.File{
		Path: "b.go", OldPath: "a.go", Status: review.StatusRenamed, Language: review.LangGo,
		Content: []byte("package a\n\nfunc A() {}\n\nfunc B() {}\n"),
		Lines:   map[int]review.LineState{4: review.LineStaged, 5: review.LineStaged},
		Hunks: []review.Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 3,
			Lines: []string{" func A() {}", "+", "+func B() {}"}}},
	}
}

// TestRenamedFileBase checks that the symbols and history of a renamed
// file come from its old path at the base.
func TestRenamedFileBase(t *testing.T) {
	ws := &baseWorkspace{base: map[string]string{"a.go": "package a\n\nfunc A() {}\n"}}
	f := renamedFile()
	var names []string
	for _, c := range ChangedSymbols(t.Context(), ws, f) {
		names = append(names, c.Symbol.Name+":"+c.Kind.String())
	}
	if want := []string{"B:added"}; !slices.Equal(names, want) {
		t.Errorf("changed symbols %v, want %v (base read from %v)", names, want, ws.asked)
	}

	ws.asked = nil
	cs := &review.ChangeSet{Files: []*review.File{f}}
	syms := ChangedSymbols(t.Context(), ws, f)
	r := &resolved{sym: syms[0].Symbol, file: f.Path, content: f.Content, lang: review.LangGo, cf: f}
	symbolChange(t.Context(), ws, cs, r)
	if !slices.Equal(ws.asked, []string{"a.go", "a.go"}) {
		t.Errorf("symbolChange read the base of %v, want a.go", ws.asked)
	}

	ws.asked = nil
	f = renamedFile() // a File is immutable once built: its symbols are memoised
	f.Content = []byte("package a\n\nfunc A() { x() }\n")
	f.Lines = map[int]review.LineState{3: review.LineStaged}
	f.Hunks = []review.Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1, Lines: []string{"-func A() {}", "+func A() { x() }"}}}
	syms = ChangedSymbols(t.Context(), ws, f)
	if len(syms) == 0 {
		t.Fatal("no changed symbol")
	}
	ws.asked = nil
	touchedHistory(t.Context(), ws, &focus{sym: syms[0].Symbol, change: syms[0], file: f})
	if !slices.Equal(ws.asked, []string{"a.go"}) {
		t.Errorf("history of %v, want a.go", ws.asked)
	}
}
