package review

import (
	"sort"
	"strings"
)

// BaselineFile is the default name of the baseline at the repository root.
const BaselineFile = ".reviewls-baseline.json"

// InGitDir reports whether the slash-separated, work-tree-relative path
// rel lies in git's directory, .git/, as a file system may spell it: in
// any case, with the trailing dots and spaces Windows drops, or as the
// short name GIT~1 (the names git itself refuses to check out). No
// reviewls file is ever written there: a baseline at .git/hooks/pre-commit
// would replace a hook, one at .git/HEAD the repository.
func InGitDir(rel string) bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(rel, "./"), "/")
	first = strings.TrimRight(first, ". ")
	return strings.EqualFold(first, ".git") || strings.EqualFold(first, "git~1")
}

// Baseline is the set of findings a team has accepted as known
// (.reviewls-baseline.json): for each fingerprint its rule, path and how
// many findings carry it. It never holds a line number, a cited line or a
// secret value, so it survives edits that shift lines and can be
// committed.
type Baseline struct {
	Entries []BaselineEntry
}

// BaselineEntry is one fingerprint of a baseline.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	RuleID      string `json:"rule_id"`
	Path        string `json:"path"`
	Count       int    `json:"count"`
}

// NewBaseline records the fingerprints of findings, counted (the same rule
// on the same line and symbol counts once, as the review keeps one), in
// path, rule and fingerprint order. A finding that cites a secret is never
// recorded: only the configuration's allow-secrets lets a secret through,
// so a baseline made over a tree that holds one does not take it in.
func NewBaseline(findings []*Finding) *Baseline {
	type dup struct {
		rule, path, symbol string
		line               int
	}
	seen := map[dup]bool{}
	index := map[string]int{}
	b := &Baseline{Entries: []BaselineEntry{}}
	for _, f := range findings {
		if f.IsSecret() {
			continue
		}
		d := dup{f.RuleID, f.Span.Path, f.Symbol, f.Span.StartLine}
		if seen[d] {
			continue
		}
		seen[d] = true
		if i, ok := index[f.ID]; ok {
			b.Entries[i].Count++
			continue
		}
		index[f.ID] = len(b.Entries)
		b.Entries = append(b.Entries, BaselineEntry{Fingerprint: f.ID, RuleID: f.RuleID, Path: f.Span.Path, Count: 1})
	}
	sort.Slice(b.Entries, func(i, j int) bool {
		x, y := b.Entries[i], b.Entries[j]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.RuleID != y.RuleID {
			return x.RuleID < y.RuleID
		}
		return x.Fingerprint < y.Fingerprint
	})
	return b
}

// Of returns the entries of path.
func (b *Baseline) Of(path string) []BaselineEntry {
	if b == nil {
		return nil
	}
	var out []BaselineEntry
	for _, e := range b.Entries {
		if e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

// Compare splits findings (of a whole-tree scan) into those the baseline
// does not cover and those it does, count-aware: a fingerprint the
// baseline records n times covers its first n findings. A finding that
// cites a secret is never covered, whatever the file says (a hand-edited
// baseline, or one an older version wrote): only allow-secrets lets a
// secret through. absent lists the entries, with the missing count, that
// no finding carries any more; an entry a secret finding carries is not
// absent but refused (see [Baseline.Refused]).
func (b *Baseline) Compare(findings []*Finding) (outside, inside []*Finding, absent []BaselineEntry) {
	left := map[string]int{}
	if b != nil {
		for _, e := range b.Entries {
			left[e.Fingerprint] += e.Count
		}
	}
	secret := secretIDs(findings)
	for _, f := range findings {
		if f.IsSecret() {
			outside = append(outside, f)
			continue
		}
		if left[f.ID] > 0 {
			left[f.ID]--
			inside = append(inside, f)
			continue
		}
		outside = append(outside, f)
	}
	if b != nil {
		for _, e := range b.Entries {
			if n := min(left[e.Fingerprint], e.Count); n > 0 && !secret[e.Fingerprint] {
				left[e.Fingerprint] -= n
				e.Count = n
				absent = append(absent, e)
			}
		}
	}
	return outside, inside, absent
}

// Refused returns the entries of b that a finding citing a secret
// carries: a baseline never covers a secret, so a review and a check
// ignore them; `reviewls baseline update` drops them.
func (b *Baseline) Refused(findings []*Finding) []BaselineEntry {
	secret := secretIDs(findings)
	var out []BaselineEntry
	if b != nil {
		for _, e := range b.Entries {
			if secret[e.Fingerprint] {
				out = append(out, e)
			}
		}
	}
	return out
}

// secretIDs returns the fingerprints of the findings that cite a secret.
func secretIDs(findings []*Finding) map[string]bool {
	out := map[string]bool{}
	for _, f := range findings {
		if f.IsSecret() {
			out[f.ID] = true
		}
	}
	return out
}
