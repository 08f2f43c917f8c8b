package orient

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
	"github.com/reviewls/reviewls/review/symbol"
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

// cobraLike is a change shaped like a tester's edit of spf13/cobra: args.go
// renames legacyArgs, command.go adds a method and calls the new name.
func cobraLike() (*review.ChangeSet, *baseWorkspace) {
	argsOld := "package cobra\n\n// legacyArgs validates args.\nfunc legacyArgs(cmd *Command, args []string) error {\n\tif len(args) == 0 {\n\t\treturn nil\n\t}\n\treturn nil\n}\n"
	argsNew := strings.Replace(argsOld, "func legacyArgs(", "func legacyArgsValidator(", 1)
	cmdOld := "package cobra\n\nimport \"os\"\n\ntype Command struct{}\n\nfunc (c *Command) Find(args []string) error {\n\treturn legacyArgs(c, args)\n}\n\nfunc (c *Command) UsageString() string { return \"\" }\n\nvar _ = os.Create\n"
	cmdNew := strings.Replace(cmdOld, "return legacyArgs(c, args)", "return legacyArgsValidator(c, args)", 1)
	cmdNew = strings.Replace(cmdNew, "func (c *Command) UsageString()", "// WriteUsageFile writes the usage to path.\nfunc (c *Command) WriteUsageFile(path string) {\n\tf, err := os.Create(path)\n\tif err != nil {\n\t\treturn\n\t}\n\tdefer f.Close()\n\tf.WriteString(c.UsageString())\n}\n\nfunc (c *Command) UsageString()", 1)
	cs := &review.ChangeSet{Root: "/repo", Files: []*review.File{
		lenstest.Modified("args.go", argsOld, argsNew),
		lenstest.Modified("command.go", cmdOld, cmdNew),
	}}
	cs.Files[0].Added, cs.Files[0].Deleted = 1, 1
	cs.Files[1].Added, cs.Files[1].Deleted = 11, 1
	cs.Sort()
	return cs, &baseWorkspace{base: map[string]string{"args.go": argsOld, "command.go": cmdOld}}
}

// TestBoardNamesTheCitedFilesSymbols checks that a board item's signal
// names the symbols of the file it cites, not those of the area's other
// files, and that a rename is one change, not an addition and a removal.
func TestBoardNamesTheCitedFilesSymbols(t *testing.T) {
	cs, ws := cobraLike()
	changes := map[string][]symbol.Change{}
	for _, f := range cs.Files {
		changes[f.Path] = ChangedSymbols(t.Context(), ws, f)
	}
	areas := Areas(cs, changes)
	if len(areas) != 1 {
		t.Fatalf("%d areas, want 1", len(areas))
	}
	if want := []string{"legacyArgsValidator", "Command.Find", "Command.WriteUsageFile"}; !slices.Equal(areas[0].Symbols, want) {
		t.Errorf("area symbols %q, want %q", areas[0].Symbols, want)
	}
	board := Board(cs, areas, changes)
	const want = "The change modifies command.go (+11 −1), touching Command.Find, Command.WriteUsageFile (command.go:8): no test in this area changed: which test pins the new behaviour?"
	if got := board[0].PreliminarySignal; got != want {
		t.Errorf("signal\n got %q\nwant %q", got, want)
	}
	// The file the rename is in names it once, old and new.
	if got := touchedSymbols(changes["args.go"]); !slices.Equal(got, []string{"renamed legacyArgs → legacyArgsValidator"}) {
		t.Errorf("args.go touches %q", got)
	}
	w := Walkthrough(cs, areas, nil, changes)
	if want := []string{"legacyArgsValidator (function, renamed from legacyArgs) at args.go:4", "Command.Find (method, body changed) at command.go:7",
		"Command.WriteUsageFile (method, added) at command.go:12"}; !slices.Equal(w.Symbols, want) {
		t.Errorf("walkthrough symbols\n got %q\nwant %q", w.Symbols, want)
	}
}

// TestExplainRenameAndVisibility checks what an explanation says of a
// renamed symbol, and that a name of a private Python module is not called
// part of the public surface.
func TestExplainRenameAndVisibility(t *testing.T) {
	cs, ws := cobraLike()
	telemetry := review.UntrackedFile("src/click/_telemetry.py", []byte("KEY = \"x\"\n\n\ndef report(event):\n    print(event, KEY)\n"))
	cs.Files = append(cs.Files, telemetry)
	cs.Sort()
	res := &review.Result{ChangeSet: cs}
	for _, tc := range []struct {
		path           string
		line           int
		change         string
		want, unwanted []string
	}{
		{"args.go", 4, "renamed from legacyArgs", []string{"The change renames it from `legacyArgs`; the rest of its declaration is unchanged.\n"}, []string{"Visibility"}},
		{"command.go", 12, "added", []string{"- **Visibility:** exported (part of the package's or module's public surface)\n"}, nil},
		{"src/click/_telemetry.py", 4, "added", []string{"- **Visibility:** not part of the public surface: its module _telemetry is private (a leading underscore)\n"}, []string{"exported"}},
	} {
		e, err := Explain(t.Context(), ws, res, ExplainRequest{Path: tc.path, Line: tc.line})
		if err != nil {
			t.Fatalf("%s:%d: %v", tc.path, tc.line, err)
		}
		if e.Change != tc.change {
			t.Errorf("%s:%d: change %q, want %q", tc.path, tc.line, e.Change, tc.change)
		}
		for _, w := range tc.want {
			if !strings.Contains(e.Markdown, w) {
				t.Errorf("%s:%d: explanation lacks %q:\n%s", tc.path, tc.line, w, e.Markdown)
			}
		}
		for _, w := range tc.unwanted {
			if strings.Contains(e.Markdown, w) {
				t.Errorf("%s:%d: explanation says %q:\n%s", tc.path, tc.line, w, e.Markdown)
			}
		}
	}
}

// TestBoardCitesTheSymbolsLine checks that the signal cites where the
// symbol it names changed, not the file's first changed line: an import
// added at line 5 is not where main is.
func TestBoardCitesTheSymbolsLine(t *testing.T) {
	const old = "package main\n\nimport (\n\t\"fmt\"\n)\n\n// main prints.\nfunc main() {\n\tfmt.Println(\"a\")\n}\n"
	const cur = "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// main prints.\nfunc main() {\n\tfmt.Println(\"b\", os.Args)\n}\n"
	f := lenstest.Modified("main.go", old, cur)
	f.Added, f.Deleted = 2, 1
	cs := &review.ChangeSet{Root: "/repo", Files: []*review.File{f}}
	changes := map[string][]symbol.Change{"main.go": ChangedSymbols(t.Context(), &baseWorkspace{base: map[string]string{"main.go": old}}, f)}
	board := Board(cs, Areas(cs, changes), changes)
	if got := board[0].PreliminarySignal; !strings.Contains(got, "touching main (main.go:10)") {
		t.Errorf("signal %q, want main cited at main.go:10, its changed line", got)
	}
}
