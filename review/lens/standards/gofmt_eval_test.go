package standards

import (
	"go/format"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestGofmtScreenAgainstGofmt evaluates the byte-level screen (fmtScreen)
// against gofmt itself, the oracle, on this module's own Go files: each
// gets one changed line unformatted the ways hand-edited code is (spaces
// for the indent, a missing or doubled space, a brace pulled onto the
// parenthesis, a trailing comment out of line, trailing blanks). Of the
// edits gofmt would rewrite on the changed line, the screen must let
// almost none through unreported (the cost of a miss is a finding lost);
// on the files as they are, every line changed, it must almost never ask
// for gofmt (the cost is a format.Source run).
func TestGofmtScreenAgainstGofmt(t *testing.T) {
	var paths []string
	for _, pat := range []string{"../../*.go", "../../*/*.go", "../../../*/*.go"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) < 50 {
		t.Fatalf("found %d Go files; the corpus is this module's own source", len(paths))
	}
	rng := rand.New(rand.NewPCG(7, 11))
	oracle, caught, clean, suspected := 0, 0, 0, 0
	var missed []string
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if formatted, err := format.Source(src); err != nil || string(formatted) != string(src) {
			continue // not gofmt-clean (or not Go): no ground truth
		}
		lines := strings.Split(string(src), "\n")
		all := map[int]review.LineState{}
		for i := range lines {
			all[i+1] = review.LineUnstaged
		}
		f := lenstest.NewFile("x.go", src)
		f.Lines = all
		clean++
		if fmtSuspect(f, lens.Lines(f)) {
			suspected++
		}
		for range 6 {
			n := 1 + rng.IntN(len(lines))
			edited, ok := unformat(rng, lines[n-1])
			if !ok {
				continue
			}
			mutated := append(append(append([]string{}, lines[:n-1]...), edited), lines[n:]...)
			data := []byte(strings.Join(mutated, "\n"))
			g := lenstest.NewFile("x.go", data)
			g.Lines = map[int]review.LineState{n: review.LineUnstaged}
			formatted, err := format.Source(data)
			if err != nil || firstChangedDiff(g, lens.Lines(g), lens.SplitLines(formatted)) != n {
				continue // gofmt keeps the line (or the edit broke the syntax)
			}
			oracle++
			if fmtSuspect(g, lens.Lines(g)) {
				caught++
			} else if len(missed) < 10 {
				missed = append(missed, strings.TrimSpace(lines[n-1])+"  →  "+strings.TrimSpace(edited))
			}
		}
	}
	recall := float64(caught) / float64(max(oracle, 1))
	falseAlarms := float64(suspected) / float64(max(clean, 1))
	t.Logf("screen vs gofmt: %d of %d rewrites caught (%.1f%%); %d of %d formatted files suspected (%.1f%%)",
		caught, oracle, 100*recall, suspected, clean, 100*falseAlarms)
	if oracle < 200 {
		t.Fatalf("only %d edits that gofmt rewrites; the evaluation needs more", oracle)
	}
	if recall < 0.95 {
		t.Errorf("the screen lets %.1f%% of gofmt's rewrites through; misses: %q", 100*(1-recall), missed)
	}
	if falseAlarms > 0.05 {
		t.Errorf("the screen suspects %.1f%% of formatted files", 100*falseAlarms)
	}
}

// unformat edits one line of gofmt-clean Go as a hand edit might; ok is
// false when the line offers nothing to edit.
func unformat(rng *rand.Rand, line string) (string, bool) {
	switch rng.IntN(7) {
	case 0: // spaces for the indent
		if strings.HasPrefix(line, "\t") {
			return "    " + line[1:], true
		}
	case 1: // a missing space after a comma
		if i := strings.Index(line, ", "); i >= 0 && !strings.ContainsAny(line, "\"`'/") {
			return line[:i+1] + line[i+2:], true
		}
	case 2: // a doubled space
		if i := strings.Index(strings.TrimLeft(line, "\t"), " "); i >= 0 && !strings.ContainsAny(line, "\"`'/") {
			j := len(line) - len(strings.TrimLeft(line, "\t")) + i
			return line[:j] + " " + line[j:], true
		}
	case 3: // the brace pulled onto the parenthesis
		if strings.HasSuffix(line, ") {") {
			return strings.TrimSuffix(line, ") {") + "){", true
		}
	case 4: // trailing blanks
		if strings.TrimSpace(line) != "" {
			return line + "  ", true
		}
	case 5: // a trailing comment out of line
		if i := strings.Index(line, " // "); i > 0 && !strings.ContainsAny(line[:i], "\"`'") {
			return line[:i] + "   " + line[i:], true
		}
	case 6: // no space around an assignment
		if i := strings.Index(line, " := "); i > 0 && !strings.ContainsAny(line, "\"`'/") {
			return line[:i] + ":=" + line[i+4:], true
		}
	}
	return line, false
}
