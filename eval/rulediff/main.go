// Command rulediff prints, for every source file under a directory, what
// the rule catalog and the symbol extractor make of it, in a stable text
// form: one line per finding (each file reviewed as wholly added, at depth
// comprehensive, every perspective) and per symbol, sorted by path. Two
// runs of it from different commits of reviewls, diffed, show every change
// in behaviour a refactoring of the parsers or rules brought.
//
// The corpus is any directory of real code (snapshots brought with the
// search tool's fetch, cloned locally); nothing of it is kept here. CI and
// go test never run this.
//
// Usage:
//
//	go run ./eval/rulediff [-depth standard] [-max-size 1048576] [-j N] DIR > out.txt
//
// At depth comprehensive (the default) the type-aware rules run go list
// in the corpus's Go modules, which takes most of the time (about 45
// minutes for eval/rulediff/corpus.txt on 2 cores, against 25 seconds at
// depth standard).
package main

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
	"github.com/reviewls/reviewls/review/symbol"
	"github.com/reviewls/reviewls/review/syntax"
)

func main() {
	maxSize := flag.Int64("max-size", 1<<20, "skip files larger than this many bytes")
	jobs := flag.Int("j", runtime.GOMAXPROCS(0), "files reviewed at once")
	flag.TextVar(&depthFlag, "depth", review.DepthComprehensive, "review depth of the rules (comprehensive runs the type-aware rules, which call go list)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: rulediff [flags] DIR")
		os.Exit(2)
	}
	root := flag.Arg(0)
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > *maxSize {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "rulediff:", err)
		os.Exit(2)
	}
	slices.Sort(paths)

	out := make([]string, len(paths))
	langs := make([]string, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range *jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], langs[i] = describe(root, paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()

	w := bufio.NewWriter(os.Stdout)
	count := map[string]int{}
	for i, s := range out {
		if langs[i] != "" {
			count[langs[i]]++
		}
		w.WriteString(s)
	}
	w.Flush()
	total := 0
	for l, n := range count {
		total += n
		fmt.Fprintf(os.Stderr, "%s\t%d\n", l, n)
	}
	fmt.Fprintf(os.Stderr, "files with a language\t%d\n", total)
}

var (
	lenses    = engine.Lenses()
	depthFlag review.Depth
)

// describe returns the lines for one file and its language.
func describe(root, p string) (string, string) {
	content, err := os.ReadFile(p)
	if err != nil {
		return fmt.Sprintf("%s: read: %v\n", p, err), ""
	}
	rel, _ := filepath.Rel(root, p)
	rel = filepath.ToSlash(rel)
	f := review.UntrackedFile(rel, content)
	lang := fmt.Sprint(f.Language)
	if lang == "" {
		return "", ""
	}
	var b strings.Builder
	cs := &review.ChangeSet{Root: root, Files: []*review.File{f}}
	var findings []*review.Finding
	for _, l := range lenses {
		got, err := l.Check(context.Background(), cs, nil, review.CheckOptions{Depth: depthFlag})
		if err != nil {
			fmt.Fprintf(&b, "%s: %s: %v\n", rel, l.Perspective(), err)
		}
		findings = append(findings, got...)
	}
	slices.SortFunc(findings, func(a, b *review.Finding) int {
		return cmp.Or(cmp.Compare(a.Span.StartLine, b.Span.StartLine), cmp.Compare(a.RuleID, b.RuleID),
			cmp.Compare(a.Span.StartCol, b.Span.StartCol), cmp.Compare(a.Message, b.Message))
	})
	for _, x := range findings {
		fix := ""
		if x.Fix != nil {
			fix = fmt.Sprintf(" fix=%x", sha256.Sum256(fmt.Appendf(nil, "%+v", *x.Fix)))[:14]
		}
		fmt.Fprintf(&b, "%s:%d:%d-%d:%d F %s %s %s sym=%q match=%q measure=%d%s title=%q msg=%q sugg=%q\n",
			rel, x.Span.StartLine, x.Span.StartCol, x.Span.EndLine, x.Span.EndCol, x.RuleID, x.Severity, x.Confidence,
			x.Symbol, x.Match, x.Measure, fix, x.Title, x.Message, x.SuggestedFix)
	}
	for _, s := range symbol.Extract(rel, content, f.Language) {
		fmt.Fprintf(&b, "%s:%d-%d S %s %s.%s sig=%q\n", rel, s.Line, s.EndLine, s.Kind, s.Container, s.Name, s.Signature)
	}
	toks := syntax.CodeTokens(f.Language, content)
	fmt.Fprintf(&b, "%s T %d %x\n", rel, len(toks), sha256.Sum256([]byte(strings.Join(toks, "\x00"))))
	return b.String(), lang
}
