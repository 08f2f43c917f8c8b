package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// benchGo returns about n lines of clean Go (see review/lens's catalog
// benchmark for the same shape).
func benchGo(n int) []byte {
	var b strings.Builder
	b.WriteString("// Package store keeps records in memory.\npackage store\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"sync\"\n)\n\n// ErrNotFound reports a missing record.\nvar ErrNotFound = errors.New(\"not found\")\n\n// Store holds records; it is safe for concurrent use.\ntype Store struct {\n\tmu      sync.Mutex\n\trecords map[string]string\n}\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "\n// Get%[1]d returns record %[1]d of key.\nfunc (s *Store) Get%[1]d(ctx context.Context, key string) (string, error) {\n\tif err := ctx.Err(); err != nil {\n\t\treturn \"\", fmt.Errorf(\"get %%q: %%w\", key, err)\n\t}\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tv, ok := s.records[key]\n\tif !ok {\n\t\treturn \"\", fmt.Errorf(\"get %%q: %%w\", key, ErrNotFound)\n\t}\n\treturn v, nil\n}\n", i)
	}
	return []byte(b.String())
}

func benchTSX(n int) []byte {
	var b strings.Builder
	b.WriteString("import React, { useState } from 'react';\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "\nexport function Field%[1]d({ label, onSave }: { label: string; onSave: (v: string) => Promise<void> }) {\n  const [value, setValue] = useState('');\n  const [error, setError] = useState<string | null>(null);\n  async function save() {\n    try {\n      await onSave(value);\n    } catch (e) {\n      setError(String(e));\n    }\n  }\n  return (\n    <form onSubmit={(e) => { e.preventDefault(); void save(); }}>\n      <label htmlFor=\"field-%[1]d\">{label}</label>\n      <input id=\"field-%[1]d\" value={value} onChange={(e) => setValue(e.target.value)} />\n      {error !== null && <p role=\"alert\">{error}</p>}\n      <button type=\"submit\">Save</button>\n    </form>\n  );\n}\n", i)
	}
	return []byte(b.String())
}

// benchmarkCheck measures the engine's own lens step (all five lenses
// concurrently, as a review runs them) on one changed file at depth
// standard. The file is new each iteration: a save brings new content, so
// nothing is served from the per-file cache.
func benchmarkCheck(b *testing.B, path string, content []byte) {
	e := &Engine{opts: Options{Lenses: Lenses()}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		f := lenstest.NewFile(path, content)
		cs := &review.ChangeSet{Root: b.TempDir(), Files: []*review.File{f}}
		raw, _, problems := e.check(ctx, cs, review.DepthStandard, nil)
		if len(raw) != 0 || len(problems) != 0 {
			b.Fatalf("clean input produced %d findings, problems %v", len(raw), problems)
		}
	}
}

// BenchmarkCheckGo is the whole catalog on a 1,000-line changed Go file.
func BenchmarkCheckGo(b *testing.B) { benchmarkCheck(b, "store/store.go", benchGo(1000)) }

// BenchmarkCheckTSX is the whole catalog on a 1,000-line changed TSX file.
func BenchmarkCheckTSX(b *testing.B) { benchmarkCheck(b, "ui/fields.tsx", benchTSX(1000)) }
