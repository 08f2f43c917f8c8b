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
