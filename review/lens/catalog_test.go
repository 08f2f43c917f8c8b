package lens_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/accessibility"
	"github.com/reviewls/reviewls/review/lens/functional"
	"github.com/reviewls/reviewls/review/lens/lenstest"
	"github.com/reviewls/reviewls/review/lens/readiness"
	"github.com/reviewls/reviewls/review/lens/security"
	"github.com/reviewls/reviewls/review/lens/standards"
)

func catalog() []review.Lens {
	return []review.Lens{functional.Lens(), standards.Lens(), accessibility.Lens(), security.Lens(), readiness.Lens()}
}

// largeGo returns about n lines of ordinary, clean Go: a store type with
// methods that handle errors, contexts and locks the way well-kept code
// does.
func largeGo(n int) []byte {
	var b strings.Builder
	b.WriteString("// Package store keeps records in memory.\npackage store\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"sync\"\n)\n\n")
	b.WriteString("// ErrNotFound reports a missing record.\nvar ErrNotFound = errors.New(\"not found\")\n\n")
	b.WriteString("// Store holds records; it is safe for concurrent use.\ntype Store struct {\n\tmu      sync.Mutex\n\trecords map[string]string\n}\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `// Get%[1]d returns record %[1]d of key.
func (s *Store) Get%[1]d(ctx context.Context, key string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("get %%q: %%w", key, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.records[key]
	if !ok {
		return "", fmt.Errorf("get %%q: %%w", key, ErrNotFound)
	}
	return v, nil
}

`, i)
	}
	return []byte(b.String())
}

// largeTSX returns about n lines of an ordinary, accessible React module.
func largeTSX(n int) []byte {
	var b strings.Builder
	b.WriteString("import React, { useState } from 'react';\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `export function Field%[1]d({ label, onSave }: { label: string; onSave: (v: string) => Promise<void> }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function save() {
    try {
      await onSave(value);
    } catch (e) {
      setError(String(e));
    }
  }
  return (
    <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <label htmlFor="field-%[1]d">{label}</label>
      <input id="field-%[1]d" value={value} onChange={(e) => setValue(e.target.value)} />
      {error !== null && <p role="alert">{error}</p>}
      <button type="submit">Save</button>
    </form>
  );
}

`, i)
	}
	return []byte(b.String())
}

func benchmarkCatalog(b *testing.B, path string, content []byte) {
	lenses := catalog()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		// A fresh file each time: parses are memoised per file, and a save
		// always brings new content.
		f := lenstest.NewFile(path, content)
		cs := &review.ChangeSet{Files: []*review.File{f}}
		for _, l := range lenses {
			if _, err := l.Check(ctx, cs, nil, review.CheckOptions{Depth: review.DepthStandard}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCatalogGo runs the whole catalog at depth standard on a
// 1,000-line changed Go file.
func BenchmarkCatalogGo(b *testing.B) { benchmarkCatalog(b, "store/store.go", largeGo(1000)) }

// BenchmarkCatalogTSX runs the whole catalog at depth standard on a
// 1,000-line changed TSX file.
func BenchmarkCatalogTSX(b *testing.B) { benchmarkCatalog(b, "ui/fields.tsx", largeTSX(1000)) }

// TestCatalogBenchInputsAreClean keeps the benchmark honest: its inputs
// are clean code, so the catalog must report nothing on them.
func TestCatalogBenchInputsAreClean(t *testing.T) {
	for path, content := range map[string][]byte{"store/store.go": largeGo(1000), "ui/fields.tsx": largeTSX(1000)} {
		f := lenstest.NewFile(path, content)
		cs := &review.ChangeSet{Files: []*review.File{f}}
		for _, l := range catalog() {
			got, err := l.Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthStandard})
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range got {
				t.Errorf("%s:%d: %s: %s", path, fd.Span.StartLine, fd.RuleID, fd.Message)
			}
		}
	}
}
