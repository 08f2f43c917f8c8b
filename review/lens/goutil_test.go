package lens

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestGoInspectStack(t *testing.T) {
	src := "package p\nfunc f() { if x { g(y) }; h() }\n"
	file, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	GoInspectStack(file, func(n ast.Node, stack []ast.Node) bool {
		if stack[len(stack)-1] != n {
			t.Errorf("stack ends with %T, not with n (%T)", stack[len(stack)-1], n)
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			return false // skip the body: g(y) is not reached
		case *ast.FuncDecl:
			got = append(got, fmt.Sprintf("%s:%d", n.Name.Name, len(stack)))
		case *ast.Ident:
			got = append(got, fmt.Sprintf("%s:%d", n.Name, len(stack)))
		}
		return true
	})
	// The if's children are skipped, and h sits as deep as it would
	// without the skip: file, decl, body, statement, call, h.
	if want := "p:2 f:2 f:3 h:6"; strings.Join(got, " ") != want {
		t.Errorf("visited %q, want %q", strings.Join(got, " "), want)
	}
}
