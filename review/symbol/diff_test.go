package symbol

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func TestDiff(t *testing.T) {
	base := []byte(`package p

// A does a.
func A() {}

func B(x int) {}

func C() {
	println(1)
}

type S struct{}

func (S) M() int { return 1 }

func Gone() {}

// D is old.
func D() {}
`)
	head := []byte(`package p

// New is new.
func New() {}

// A does a.
func A() {}

func B(x, y int) {}

func C() {
	println(2)
}

type S struct{}

// D is new.
func D() {}

func (S) M() int { return 1 }
`)
	// The lines a line diff reports as added: New, B, C's body, D's doc,
	// and M, which was cut and pasted below D. A and S only moved down.
	added := map[int]bool{3: true, 4: true, 5: true, 9: true, 12: true, 17: true, 19: true, 20: true}
	changed := func(n int) bool { return added[n] }
	oldSyms := Extract("p.go", base, review.LangGo)
	newSyms := Extract("p.go", head, review.LangGo)

	got := map[string]ChangeKind{}
	for _, c := range Diff(oldSyms, newSyms, head, changed) {
		got[c.Symbol.QualifiedName()] = c.Kind
		if (c.Old == nil) != (c.Kind == ChangeAdded) {
			t.Errorf("%s: %s with Old = %v", c.Symbol.QualifiedName(), c.Kind, c.Old)
		}
	}
	want := map[string]ChangeKind{
		"New":  ChangeAdded,
		"A":    ChangeNone,      // moved down by the lines above it
		"B":    ChangeSignature, // a parameter was added
		"C":    ChangeBody,
		"S":    ChangeNone,
		"D":    ChangeBody, // only its doc comment changed
		"S.M":  ChangeNone, // cut and pasted elsewhere, text unchanged
		"Gone": ChangeRemoved,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Diff (-want +got):\n%s", diff)
	}
}

func TestDiffOrderAndPairing(t *testing.T) {
	// Hand-built symbols have no Hash: changed lines decide alone.
	oldSyms := []Symbol{
		{Name: "size", Container: "C", Kind: KindMethod, Signature: "get size()", Line: 2, EndLine: 2},
		{Name: "size", Container: "C", Kind: KindMethod, Signature: "set size(v)", Line: 3, EndLine: 3},
		{Name: "old", Kind: KindFunction, Signature: "function old()", Line: 5, EndLine: 7},
	}
	newSyms := []Symbol{
		{Name: "size", Container: "C", Kind: KindMethod, Signature: "get size()", Line: 2, EndLine: 4},
		{Name: "size", Container: "C", Kind: KindMethod, Signature: "set size(v)", Line: 5, EndLine: 5},
		{Name: "old", Kind: KindVar, Signature: "let old = 1", Line: 7, EndLine: 7},
	}
	changed := func(n int) bool { return n == 3 }
	var got []string
	for _, c := range Diff(oldSyms, newSyms, nil, changed) {
		got = append(got, c.Symbol.Signature+": "+string(c.Kind))
	}
	want := []string{
		"get size(): body changed",
		"set size(v): unchanged",
		"let old = 1: added", // another kind is another symbol
		"function old(): removed",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Diff (-want +got):\n%s", diff)
	}
	// Without changed lines only signatures and docs are compared.
	for _, c := range Diff(oldSyms[:2], newSyms[:2], nil, nil) {
		if c.Kind != ChangeNone {
			t.Errorf("%s: %s, want unchanged", c.Symbol.Signature, c.Kind)
		}
	}
}

// TestRenamed checks that a declaration the change only renamed is one
// renamed change, and that a rename with other edits, or one that could
// pair with several removed look-alikes, stays an addition and a removal.
func TestRenamed(t *testing.T) {
	for _, tc := range []struct {
		name, path, base, head string
		want                   []string
	}{
		{
			name: "function",
			path: "args.go",
			base: "package p\n\n// legacyArgs validates args.\nfunc legacyArgs(args []string) error {\n\tif len(args) > 0 {\n\t\treturn nil\n\t}\n\treturn nil\n}\n",
			head: "package p\n\n// legacyArgs validates args.\nfunc legacyArgsValidator(args []string) error {\n\tif len(args) > 0 {\n\t\treturn nil\n\t}\n\treturn nil\n}\n",
			want: []string{"legacyArgsValidator: renamed from legacyArgs"},
		},
		{
			name: "recursive function",
			path: "m.go",
			base: "package p\n\nfunc fact(n int) int {\n\tif n < 2 {\n\t\treturn 1\n\t}\n\treturn n * fact(n-1)\n}\n",
			head: "package p\n\nfunc factorial(n int) int {\n\tif n < 2 {\n\t\treturn 1\n\t}\n\treturn n * factorial(n-1)\n}\n",
			want: []string{"factorial: renamed from fact"},
		},
		{
			name: "renamed and edited",
			path: "m.go",
			base: "package p\n\nfunc fact(n int) int {\n\treturn n\n}\n",
			head: "package p\n\nfunc factorial(n int) int {\n\treturn n + 1\n}\n",
			want: []string{"factorial: added", "fact: removed"},
		},
		{
			name: "one-letter name",
			path: "m.go",
			base: "package p\n\nfunc f(x int) int { return x + 0x1f }\n",
			head: "package p\n\nfunc g(x int) int { return x + 0x1f }\n",
			want: []string{"g: renamed from f"},
		},
		{
			name: "look-alikes",
			path: "m.go",
			base: "package p\n\nfunc a() {}\n\nfunc b() {}\n",
			head: "package p\n\nfunc c() {}\n",
			want: []string{"c: added", "a: removed", "b: removed"},
		},
		{
			name: "type and its methods",
			path: "store.go",
			base: "package p\n\ntype store struct{ n int }\n\nfunc (s *store) Len() int { return s.n }\n",
			head: "package p\n\ntype Store struct{ n int }\n\nfunc (s *Store) Len() int { return s.n }\n",
			want: []string{"Store: renamed from store", "Store.n: renamed from store.n", "Store.Len: renamed from store.Len"},
		},
		{
			name: "python",
			path: "telemetry.py",
			base: "def _send(event):\n    print(event)\n\n\ndef keep():\n    pass\n",
			head: "def send(event):\n    print(event)\n\n\ndef keep():\n    pass\n",
			want: []string{"send: renamed from _send", "keep: unchanged"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lang := review.DetectLanguage(tc.path, nil)
			base, head := []byte(tc.base), []byte(tc.head)
			changes := Diff(Extract(tc.path, base, lang), Extract(tc.path, head, lang), head, nil)
			var got []string
			for _, c := range Renamed(changes, base, head) {
				s := c.Symbol.QualifiedName() + ": " + string(c.Kind)
				if c.Kind == ChangeRenamed {
					s += " from " + c.Old.QualifiedName()
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Renamed (-want +got):\n%s", diff)
			}
		})
	}
}
