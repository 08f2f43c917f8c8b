package schemas

import (
	"path/filepath"
	"testing"
)

// BenchmarkValidate measures what a process pays for schema validation:
// "first" compiles every embedded schema and validates one document, as
// the first Validate of a process does; "cached/<doc>" is each later call.
func BenchmarkValidate(b *testing.B) {
	files, err := filepath.Glob("testdata/valid/*.json")
	if err != nil || len(files) == 0 {
		b.Fatalf("no test documents: %v", err)
	}
	type doc struct {
		name, schema string
		data         []byte
	}
	var docs []doc
	for _, f := range files {
		data := readFile(b, f)
		docs = append(docs, doc{filepath.Base(f), schemaOf(f), data})
	}
	b.Run("first", func(b *testing.B) {
		d := docs[0]
		b.ReportAllocs()
		for b.Loop() {
			all, err := compileAll()
			if err != nil {
				b.Fatal(err)
			}
			if err := validate(all, d.schema, d.data); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, d := range docs {
		b.Run("cached/"+d.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Validate(d.schema, d.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
