package symbol

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/gitdiff"
	"github.com/reviewls/reviewls/review/syntax"
)

// TestSpliceBaseGo checks the shortcut of OfBase against a whole parse of
// the base: on this module's Go files, each turned into a current version
// by random edits of the kinds real changes make (functions added and
// removed, bodies, doc comments and declarations edited, lines moved),
// the spliced base symbols must equal Extract's, and edits that keep the
// file valid must take the shortcut.
func TestSpliceBaseGo(t *testing.T) {
	paths, _ := filepath.Glob("../*/*.go")
	more, _ := filepath.Glob("../*.go")
	paths = append(paths, more...)
	if len(paths) < 20 {
		t.Fatalf("found %d Go files under review/; the corpus is this module's own source", len(paths))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	spliced, cases := 0, 0
	for _, p := range paths {
		old, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(old) > 60_000 {
			continue
		}
		for round := range 4 {
			cur := editGo(rng, string(old), 1+round)
			if cur == string(old) {
				continue
			}
			cases++
			f := &review.File{Path: p, Status: review.StatusModified, Language: review.LangGo,
				Content: []byte(cur), Hunks: gitdiff.Diff(old, []byte(cur))}
			want := Extract(p, old, review.LangGo)
			got, ok := spliceBaseGo(f, old)
			if ok {
				spliced++
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, round %d: spliced base symbols differ from a whole parse\n%s", p, round, symbolDiff(got, want))
				}
			} else if syntax.Go(f).Err == nil {
				t.Errorf("%s, round %d: a valid current version did not take the shortcut", p, round)
			}
			if syms := OfBase(f, old); !reflect.DeepEqual(syms, want) {
				t.Fatalf("%s, round %d: OfBase differs from a whole parse\n%s", p, round, symbolDiff(syms, want))
			}
		}
	}
	if spliced < cases/2 {
		t.Errorf("%d of %d edited files took the shortcut; want at least half", spliced, cases)
	}
}

// TestSpliceBaseGoRefuses checks the cases the shortcut must leave to a
// whole parse.
func TestSpliceBaseGoRefuses(t *testing.T) {
	old := "package p\n\n// A is a.\nfunc A() {}\n\nfunc B() {}\n"
	cur := "package p\n\n// A is a.\nfunc A() {}\n\nfunc B() {}\n\nfunc C() {}\n"
	f := func(content string, hunks []review.Hunk) *review.File {
		return &review.File{Path: "p.go", Status: review.StatusModified, Language: review.LangGo, Content: []byte(content), Hunks: hunks}
	}
	hunks := gitdiff.Diff([]byte(old), []byte(cur))
	if syms, ok := spliceBaseGo(f(cur, hunks), []byte(old)); !ok || len(syms) != 2 {
		t.Fatalf("an appended function: ok %v, %d symbols; want the shortcut and 2", ok, len(syms))
	}
	for name, c := range map[string]struct {
		file *review.File
		old  string
	}{
		"current does not parse": {f(cur+"func (", gitdiff.Diff([]byte(old), []byte(cur+"func ("))), old},
		"no hunks":               {f(cur, nil), old},
		"hunks of another file":  {f(cur, []review.Hunk{{OldStart: 40, OldLines: 1, NewStart: 40, NewLines: 1, Lines: []string{"-x", "+y"}}}), old},
		"a base too short":       {f(cur, hunks), "package p\n"},
	} {
		if _, ok := spliceBaseGo(c.file, []byte(c.old)); ok {
			t.Errorf("%s: took the shortcut", name)
		}
	}
	// A base that does not match the hunks' context is parsed whole.
	other := strings.Replace(old, "func B() {}", "func D() {}", 1)
	got := OfBase(f(cur, hunks), []byte(other))
	if want := Extract("p.go", []byte(other), review.LangGo); !reflect.DeepEqual(got, want) {
		t.Errorf("a base unlike the hunks' context:\n%s", symbolDiff(got, want))
	}
}

// editGo applies n random edits to src, line-wise.
func editGo(rng *rand.Rand, src string, n int) string {
	lines := strings.Split(src, "\n")
	for range n {
		if len(lines) < 4 {
			break
		}
		i := 1 + rng.IntN(len(lines)-2)
		switch rng.IntN(9) {
		case 0: // a new function after a top-level closing brace
			for j := i; j < len(lines); j++ {
				if lines[j] == "}" {
					lines = splice(lines, j+1, 0, "", fmt.Sprintf("// added%d is new.", i), fmt.Sprintf("func added%d() int {", i), "\treturn 1", "}")
					break
				}
			}
		case 1: // a top-level declaration removed
			for j := i; j < len(lines); j++ {
				if strings.HasPrefix(lines[j], "func ") || strings.HasPrefix(lines[j], "type ") {
					k := j
					for k < len(lines) && lines[k] != "}" && !(k > j && lines[k] == "") {
						k++
					}
					lines = splice(lines, j, min(k+1, len(lines))-j)
					break
				}
			}
		case 2: // a body line edited
			if strings.HasPrefix(lines[i], "\t") && !strings.Contains(lines[i], "`") {
				lines[i] += " // edited"
			}
		case 3: // a doc comment line added above a declaration
			for j := i; j < len(lines); j++ {
				if strings.HasPrefix(lines[j], "func ") {
					lines = splice(lines, j, 0, "// Edited doc.")
					break
				}
			}
		case 4: // a signature changed
			for j := i; j < len(lines); j++ {
				if strings.HasPrefix(lines[j], "func ") && strings.Contains(lines[j], "()") {
					lines[j] = strings.Replace(lines[j], "()", "(extra int)", 1)
					break
				}
			}
		case 5: // lines removed anywhere (may break the syntax)
			lines = splice(lines, i, min(1+rng.IntN(3), len(lines)-i))
		case 6: // a line duplicated
			lines = splice(lines, i, 0, lines[i])
		case 7: // a struct field added
			for j := i; j < len(lines); j++ {
				if strings.HasPrefix(lines[j], "type ") && strings.HasSuffix(lines[j], "struct {") {
					lines = splice(lines, j+1, 0, "\tAddedField int")
					break
				}
			}
		case 8: // a method added to a type of the file
			for j := i; j < len(lines); j++ {
				if name, ok := strings.CutPrefix(lines[j], "type "); ok && strings.HasSuffix(name, " struct {") {
					name = strings.TrimSuffix(name, " struct {")
					lines = append(lines, fmt.Sprintf("func (*%s) addedMethod%d() {}", name, i))
					break
				}
			}
		}
	}
	return strings.Join(lines, "\n")
}

func splice(lines []string, at, del int, ins ...string) []string {
	out := append([]string{}, lines[:at]...)
	out = append(out, ins...)
	return append(out, lines[at+del:]...)
}

func symbolDiff(got, want []Symbol) string {
	var b strings.Builder
	for i := range max(len(got), len(want)) {
		var g, w Symbol
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if !reflect.DeepEqual(g, w) {
			fmt.Fprintf(&b, "symbol %d:\n got  %+v\n want %+v\n", i, g, w)
			if b.Len() > 2000 {
				break
			}
		}
	}
	return b.String()
}
