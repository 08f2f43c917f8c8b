package symbol

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// render prints symbols one block each, for golden files a reviewer can
// read: range, kind, qualified name, name column, visibility, then the
// signature, doc, fields and methods.
func render(syms []Symbol) string {
	var sb strings.Builder
	for _, s := range syms {
		vis := "-"
		if s.Exported {
			vis = "exported"
		}
		fmt.Fprintf(&sb, "%d-%d %s %s col=%d %s\n", s.Line, s.EndLine, s.Kind, s.QualifiedName(), s.NameCol, vis)
		fmt.Fprintf(&sb, "\tsig: %s\n", s.Signature)
		if s.Doc != "" {
			fmt.Fprintf(&sb, "\tdoc: %q\n", s.Doc)
		}
		if len(s.Fields) > 0 {
			fmt.Fprintf(&sb, "\tfields: %q\n", s.Fields)
		}
		if len(s.Methods) > 0 {
			fmt.Fprintf(&sb, "\tmethods: %q\n", s.Methods)
		}
	}
	return sb.String()
}

// TestExtractGolden extracts the symbols of each realistic file of
// testdata/ and compares them with its .golden file (-update rewrites).
func TestExtractGolden(t *testing.T) {
	for _, name := range []string{"store.go", "pipeline.py", "cart.tsx", "server.js", "Inventory.java", "parser.rs"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			content, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lang := review.DetectLanguage(name, content)
			syms := Extract(name, content, lang)
			got := render(syms)
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("symbols of %s (-want +got):\n%s", name, diff)
			}
			checkInvariants(t, content, syms)
		})
	}
}

// checkInvariants checks what must hold of any extraction: sorted, sane
// ranges, and the name found at its column.
func checkInvariants(t *testing.T, content []byte, syms []Symbol) {
	t.Helper()
	for i, s := range syms {
		if s.Name == "" || s.Line < 1 || s.EndLine < s.Line || s.NameCol < 1 || s.Hash == 0 {
			t.Errorf("bad symbol %+v", s)
		}
		if i > 0 && syms[i-1].Line > s.Line {
			t.Errorf("symbols out of order at %s (line %d after %d)", s.Name, s.Line, syms[i-1].Line)
		}
	}
}
