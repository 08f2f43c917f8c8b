package engine

import (
	"context"
	"runtime"
	"sort"
	"sync"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/gitdiff"
	"github.com/reviewls/reviewls/review/process"
)

// Baselines. A baseline (.reviewls-baseline.json) records the findings of
// a scan of every file committed at HEAD, so that a team adopting reviewls
// on a legacy repository starts from zero: a review sets aside the
// change's findings the baseline records (as it does those of the base
// version), and `reviewls baseline check` fails only on findings outside
// it anywhere in the committed tree. The scan reads the commit, never the
// index or the work tree: a baseline made before a commit must not take
// in what that commit adds. The scan runs the rules the base side runs
// (every per-file rule, not the whole-package analysis or the
// whole-change rules) at comprehensive depth, so that a review at any
// depth finds nothing the baseline could not have recorded. A baseline
// never covers a secret (review.NewBaseline leaves them out, and a review
// ignores an entry that names one).

// ScanDepth is the depth of a whole-tree scan.
const ScanDepth = review.DepthComprehensive

// TreeScan is the outcome of [Engine.ScanTree].
type TreeScan struct {
	// Head is the commit scanned; "" when HEAD has no commit yet.
	Head string
	// Findings are in path and line order. They cite code already
	// redacted; their Secrets hold the raw values, for the caller's
	// redactor.
	Findings []*review.Finding
	// Problems are the checks that failed.
	Problems []string
}

// ScanTree runs the per-file rules over every file committed at HEAD,
// each as if all its lines were new.
func (e *Engine) ScanTree(ctx context.Context) (*TreeScan, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.repo.Resolve(ctx, false, "")
	if err != nil {
		return nil, err
	}
	files, err := e.repo.CommittedFiles(ctx, t.HeadSHA)
	if err != nil {
		return nil, err
	}
	cs := &review.ChangeSet{Root: e.repo.Root()}
	cfg := e.opts.Config
	skip := func(id string) bool { return e.heavy[id] || wholeChange[id] }

	type out struct {
		findings []*review.Finding
		problem  string
	}
	results := make([]out, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				results[i].findings, results[i].problem = e.scanFile(ctx, cs, files[i], cfg, skip)
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	scan := &TreeScan{Head: t.HeadSHA}
	for _, r := range results {
		scan.Findings = append(scan.Findings, r.findings...)
		if r.problem != "" {
			scan.Problems = append(scan.Problems, r.problem)
		}
	}
	all := scan.Findings
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Span.Path != b.Span.Path {
			return a.Span.Path < b.Span.Path
		}
		return a.Span.StartLine < b.Span.StartLine
	})
	return scan, nil
}

// scanFile checks one committed file for ScanTree.
func (e *Engine) scanFile(ctx context.Context, cs *review.ChangeSet, file gitdiff.CommittedFile, cfg *review.Config, skip func(string) bool) ([]*review.Finding, string) {
	tf, err := e.repo.ReadCommitted(file)
	if err != nil {
		return nil, err.Error()
	}
	if tf.Skip != "" {
		return nil, ""
	}
	path := tf.Path
	f := wholeFile(path, review.LangUnknown, tf.Content)
	one := &review.ChangeSet{Root: cs.Root, Files: []*review.File{f}}
	var found []*review.Finding
	var problem string
	for _, l := range e.opts.Lenses {
		fs, err := l.Check(ctx, one, nil, review.CheckOptions{Depth: ScanDepth, Config: cfg, Skip: skip})
		if err != nil && ctx.Err() == nil {
			problem = path + ": " + firstLine(err.Error())
		}
		found = append(found, fs...)
	}
	return found, problem
}

// withBaseline adds to the fingerprints known in f's base version those
// the baseline records for f's path: a fingerprint known in both counts
// the larger number, and is attributed to the base when the base alone
// accounts for it.
func withBaseline(known map[string]process.Known, b *review.Baseline, path string) map[string]process.Known {
	entries := b.Of(path)
	if len(entries) == 0 {
		return known
	}
	out := make(map[string]process.Known, len(known)+len(entries))
	for id, k := range known {
		out[id] = k
	}
	for _, en := range entries {
		k := out[en.Fingerprint]
		if en.Count > k.Count {
			k.Count, k.Source = en.Count, review.SourceBaseline
		}
		out[en.Fingerprint] = k
	}
	return out
}

// absent returns the baseline entries of the reviewed files of cs that the
// files no longer carry, with the missing count: the rules of the entries
// run over the whole current file (memoised). Entries of rules that did
// not run at this depth or are turned off are not judged.
func (e *Engine) absent(ctx context.Context, cs *review.ChangeSet, b *review.Baseline, depth review.Depth, cfg *review.Config) []review.BaselineEntry {
	var out []review.BaselineEntry
	for _, f := range cs.Reviewed() {
		var judged []review.BaselineEntry
		rules := map[string]bool{}
		for _, en := range b.Of(f.Path) {
			info, ok := Rule(en.RuleID)
			if !ok || e.heavy[en.RuleID] || wholeChange[en.RuleID] || cfg.Rule(en.RuleID).Off || info.Depth > depth {
				continue
			}
			judged = append(judged, en)
			rules[en.RuleID] = true
		}
		if len(judged) == 0 {
			continue
		}
		whole := e.wholeCounts(ctx, cs, f, depth, cfg, rules)
		for _, en := range judged {
			if n := en.Count - whole[en.Fingerprint]; n > 0 {
				en.Count = n
				out = append(out, en)
			}
		}
	}
	return out
}
