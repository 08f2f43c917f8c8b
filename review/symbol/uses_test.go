package symbol

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

func TestCallsAndTypesUsed(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		file         string
		lang         review.Language
		symbol       string
		calls, types []string
	}{
		{
			file: "store.go", lang: review.LangGo, symbol: "Store.Get",
			calls: []string{"ctx.Err", "s.Lock", "s.Unlock", "s.expired", "fmt.Errorf"},
			types: []string{"Store", "context.Context"},
		},
		{
			file: "store.go", lang: review.LangGo, symbol: "Put",
			calls: []string{"fmt.Errorf", "s.Lock", "s.Unlock", "Add", "s.opts.Clock"},
			types: []string{"Store", "Kind", "entry"},
		},
		{
			file: "store.go", lang: review.LangGo, symbol: "Map",
			calls: []string{"f"},
			types: nil, // T and U are its own type parameters
		},
		{
			file: "store.go", lang: review.LangGo, symbol: "Options",
			types: []string{"time.Duration", "time.Time"},
		},
		{
			file: "cart.tsx", lang: review.LangTSX, symbol: "Cart",
			calls: []string{"useState", "useMemo", "computeTotals", "useCallback", "setStatus", "onCheckout", "items.map", "formatMoney"},
			types: []string{"CartProps", "Status"},
		},
		{
			file: "cart.tsx", lang: review.LangTSX, symbol: "CartStore",
			calls: []string{"Map", "this.items.set", "localStorage.setItem", "JSON.stringify", "this.items.values", "this.#emit",
				"this.#listeners.forEach", "l", "this.#listeners.push", "this.#listeners.splice", "this.#listeners.indexOf"},
			types: []string{"CartItem", "Map", "Array", "Currency", "Promise"},
		},
		{
			file: "server.js", lang: review.LangJavaScript, symbol: "Router.handle",
			calls: []string{"ROUTE.exec", "this.routes.get", "res.end", "describe", "handler"},
		},
		{
			file: "pipeline.py", lang: review.LangPython, symbol: "Pipeline.run_async",
			calls: []string{"self.run", "asyncio.wait_for", "asyncio.to_thread"},
			types: []string{"Record", "Optional"}, // not TimeoutError, named in the docstring only
		},
		{
			file: "pipeline.py", lang: review.LangPython, symbol: "load",
			calls: []string{"Record", "line.split", "line.strip"},
			types: []string{"Record"},
		},
		{
			file: "Inventory.java", lang: review.LangJava, symbol: "Inventory.find",
			calls: []string{"LookupException", "Optional.ofNullable", "items.get"},
			types: []string{"Optional", "String", "LookupException"},
		},
		{
			file: "parser.rs", lang: review.LangRust, symbol: "Parser.parse_async",
			calls: []string{"self.expr", "hook", "into"}, // not Fn(&Ast), a bound
			types: []string{"Result", "Ast", "Error", "Fn", "Send"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			content := read(tt.file)
			found := Find(Extract(tt.file, content, tt.lang), tt.symbol)
			if len(found) == 0 {
				t.Fatalf("%s not found", tt.symbol)
			}
			if diff := cmp.Diff(tt.calls, Calls(content, tt.lang, found[0])); diff != "" {
				t.Errorf("Calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.types, TypesUsed(content, tt.lang, found[0])); diff != "" {
				t.Errorf("TypesUsed (-want +got):\n%s", diff)
			}
		})
	}
}
