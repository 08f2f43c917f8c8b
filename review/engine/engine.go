// Package engine runs a review: it resolves the target, diffs the work
// tree (review/gitdiff), assesses change risk (review/risk), applies the
// perspectives' rules concurrently (review/lens/...), passes the findings
// through the processor chain (review/process) and orients the result
// (review/orient). The CLI and the language server both drive it.
//
// An [Engine] keeps the previous run of its repository, so a request that
// names Paths re-diffs and re-checks only those paths (the language
// server's per-save path) as long as HEAD and the index have not moved.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/reviewls/reviewls/internal/parallel"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/config"
	"github.com/reviewls/reviewls/review/gitdiff"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/accessibility"
	"github.com/reviewls/reviewls/review/lens/functional"
	"github.com/reviewls/reviewls/review/lens/readiness"
	"github.com/reviewls/reviewls/review/lens/security"
	"github.com/reviewls/reviewls/review/lens/standards"
	"github.com/reviewls/reviewls/review/llm"
	"github.com/reviewls/reviewls/review/orient"
	"github.com/reviewls/reviewls/review/process"
	"github.com/reviewls/reviewls/review/risk"
	"github.com/reviewls/reviewls/review/symbol"
)

// DefaultHistoryLimit bounds the commits examined for the history signal:
// 200 commits cover months of a typical project's activity on the touched
// paths while keeping the log walk in the low milliseconds.
const DefaultHistoryLimit = 200

// Lenses returns the five perspectives' lenses in canonical order.
func Lenses() []review.Lens {
	return []review.Lens{functional.Lens(), standards.Lens(), accessibility.Lens(), security.Lens(), readiness.Lens()}
}

// Rules returns the whole rule catalog sorted by id: the lenses' rules and
// the model reviewer's ("<perspective>/model").
func Rules() []review.RuleInfo { return slices.Clone(catalog()) }

// Rule returns the catalog's rule with the given id.
func Rule(id string) (review.RuleInfo, bool) {
	all := catalog()
	i, ok := slices.BinarySearchFunc(all, id, func(r review.RuleInfo, id string) int { return strings.Compare(r.ID, id) })
	if !ok {
		return review.RuleInfo{}, false
	}
	return all[i], true
}

var catalog = sync.OnceValue(func() []review.RuleInfo {
	var out []review.RuleInfo
	for _, l := range Lenses() {
		out = append(out, l.Rules()...)
	}
	out = append(out, llm.Rules()...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
})

// Options configures an Engine.
type Options struct {
	// Logger receives debug and warning records; nil discards them.
	Logger *slog.Logger
	// Lenses replaces the default catalog (tests).
	Lenses []review.Lens
	// HistoryLimit bounds the history walk; 0 means DefaultHistoryLimit.
	HistoryLimit int
	// IndexFile replaces .git/index, as $GIT_INDEX_FILE does for git
	// (a pre-commit hook run by 'git commit -a' sees a temporary index).
	// It takes precedence over Env.IndexFile.
	IndexFile string
	// Env is the git environment that selects the repository, work tree
	// and index ($GIT_DIR, $GIT_WORK_TREE, $GIT_INDEX_FILE, ...); the
	// zero value discovers the repository from the directory alone.
	Env gitdiff.Env
	// Config is the repository configuration; nil means read
	// .reviewls.yaml at the repository root (defaults when absent) and
	// the user configuration file of UserDir, as config.Resolve does:
	// the repository's privileged settings (those that run tools) apply
	// only when the user trusts the repository. A Config given here is
	// the caller's, honoured whole.
	Config *review.Config
	// UserDir is the user's reviewls folder ([UserDir]): the user
	// configuration file and the repositories the user trusted. ""
	// reads no user configuration and trusts no repository.
	UserDir string
	// Model are the user's model settings of this front end (command-line
	// flags, editor settings), set over the configuration's `model:` key
	// field by field; NoModel turns the model reviewer off whatever the
	// configuration says.
	Model   *review.ModelConfig
	NoModel bool
	// Models keeps the model reviewer, and its cache of answers, across
	// the engines of a session; nil gives the engine its own.
	Models *Models
	// Getenv reads the model's API key variable; nil means os.Getenv.
	Getenv func(string) string
}

// Engine reviews one repository. It is safe for concurrent use; runs are
// serialised.
type Engine struct {
	repo   *gitdiff.Repo
	opts   Options
	logger *slog.Logger

	// crossFile and heavy mark the rules that read beyond a file, and of
	// those the expensive whole-package ones (comprehensive depth).
	crossFile, heavy map[string]bool
	// crossInputs are the base-name patterns of the files the other
	// cross-file rules read; nil when one of them may read any file.
	crossInputs []string

	// standing is where the repository stands with the user; withheld
	// are the settings of its configuration not honoured for want of
	// trust.
	standing config.Standing
	withheld []config.Withheld
	// userKeys are the configuration's keys that the user's file set.
	userKeys []string
	// model is the model reviewer; nil when none is configured.
	model *modelSetup

	mu   sync.Mutex // serialises runs; guards last, hist, base and subjects
	last *snapshot
	hist *historyCache
	// base caches the fingerprints of base versions' findings.
	base *baseCache
	// subjects holds the secrets found in each commit's subject and author.
	subjects map[string][]string
}

// snapshot is what a run leaves for the next incremental one.
type snapshot struct {
	target review.Target
	cs     *review.ChangeSet
	// findings caches raw findings per reviewed file, valid while the
	// *review.File is shared with the next change set (unchanged file) and
	// the depth and perspectives are the same.
	findings map[*review.File][]*review.Finding
	// cross caches the cross-file rules' findings the same way, valid
	// until one of their inputs changes too.
	cross map[*review.File][]*review.Finding
	// heavy holds the findings of the expensive whole-package rules
	// (comprehensive, cross-file), carried over by incremental runs.
	heavy []*review.Finding
	depth review.Depth
	// callPaths and shared are the walkthrough's call paths and shared
	// modules of the last full run.
	callPaths []string
	shared    []review.BlastItem
	// req, cfg, res, pre, light and model let Analyze and ModelReview
	// finish the run again with the type-aware findings or the model's:
	// the request and configuration, the result, the result before the
	// checks (the same for every result of one run), the raw findings but
	// the heavy rules', and the model's confirmed findings.
	req      review.Request
	cfg      *review.Config
	res, pre *review.Result
	light    []*review.Finding
	model    []*review.Finding
	problems []string
	// incremental says the run refreshed paths, not everything.
	incremental bool
}

// ErrNoChanges is not returned by Run; a run with nothing to review returns
// a Result whose ChangeSet is empty. It is exported for callers that want
// to turn that case into an error of their own.
var ErrNoChanges = errors.New("no changes")

// Open opens the repository that contains dir.
func Open(dir string, opts Options) (*Engine, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if opts.Lenses == nil {
		opts.Lenses = Lenses()
	}
	gitOpts := func(cfg *review.Config) gitdiff.Options {
		return gitdiff.Options{SizeCap: cfg.EffectiveSizeCap(), Ignore: ignoreGlobs(cfg), IndexFile: opts.IndexFile, Env: opts.Env, Logger: logger.With("component", "gitdiff")}
	}
	repo, err := gitdiff.Open(dir, gitOpts(opts.Config))
	if err != nil {
		return nil, err
	}
	var standing config.Standing
	var withheld []config.Withheld
	var userKeys []string
	if opts.Config == nil {
		// The configuration lives at the root, which only the repository
		// knows; reopen when it changes how the tree is scanned.
		res, err := config.Resolve(repo.Root(), opts.UserDir, ruleIDs(opts.Lenses))
		if err != nil {
			repo.Close()
			return nil, err
		}
		standing, withheld, userKeys = res.Standing, res.Withheld, res.UserKeys
		if cfg := res.Config; cfg != nil {
			opts.Config = cfg
			if cfg.SizeCap > 0 || len(cfg.Ignore) > 0 {
				repo.Close()
				if repo, err = gitdiff.Open(dir, gitOpts(cfg)); err != nil {
					return nil, err
				}
			}
		}
	} else if standing, err = config.StandingOf(opts.UserDir, repo.Root()); err != nil {
		repo.Close()
		return nil, err
	}
	if opts.HistoryLimit <= 0 {
		opts.HistoryLimit = DefaultHistoryLimit
	}
	e := &Engine{repo: repo, opts: opts, logger: logger, crossFile: map[string]bool{}, heavy: map[string]bool{},
		standing: standing, withheld: withheld, userKeys: userKeys, model: setupModel(opts, repo.Root(), logger)}
	known := true
	for _, l := range opts.Lenses {
		for _, r := range l.Rules() {
			e.crossFile[r.ID] = r.CrossFile
			e.heavy[r.ID] = r.CrossFile && r.Depth == review.DepthComprehensive
			if r.CrossFile && !e.heavy[r.ID] && r.Note == "" { // not a whole-change rule
				known = known && len(r.Inputs) > 0
				e.crossInputs = append(e.crossInputs, r.Inputs...)
			}
		}
	}
	if !known {
		e.crossInputs = nil
	}
	return e, nil
}

// ruleIDs returns the ids of the lenses' rules and of the model
// reviewer's: the rules a configuration may name.
func ruleIDs(lenses []review.Lens) []string {
	var ids []string
	for _, l := range lenses {
		for _, r := range l.Rules() {
			ids = append(ids, r.ID)
		}
	}
	for _, r := range llm.Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// Config returns the repository configuration in effect (nil: defaults).
func (e *Engine) Config() *review.Config { return e.opts.Config }

// UserSets reports whether the configuration's top-level key comes from
// the user's own file rather than the repository's .reviewls.yaml.
func (e *Engine) UserSets(key string) bool { return slices.Contains(e.userKeys, key) }

// withheldLine says which settings of the repository's .reviewls.yaml a
// run of req does not honour for want of trust, and how to allow them;
// a depth the request or the loop chooses leaves the file's depth aside.
func (e *Engine) withheldLine(req review.Request) string {
	ws := e.withheld
	if req.Depth.Valid() || req.Loop != nil && req.Loop.Depth.Valid() {
		ws = slices.DeleteFunc(slices.Clone(ws), func(w config.Withheld) bool { return w.Key == "depth" })
	}
	return config.WithheldLine(ws, e.standing)
}

func ignoreGlobs(cfg *review.Config) []string {
	if cfg == nil {
		return nil
	}
	return cfg.Ignore
}

// Close releases the repository's open files. It waits for a run, or
// the end of an [Engine.Analyze], and makes a later Analyze stale.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.last = nil
	return e.repo.Close()
}

// Root returns the work tree root.
func (e *Engine) Root() string { return e.repo.Root() }

// Repo returns the underlying repository.
func (e *Engine) Repo() *gitdiff.Repo { return e.repo }

// Run reviews the target of req. A run with nothing to review returns a
// Result whose ChangeSet is empty and whose verdict is approve.
func (e *Engine) Run(ctx context.Context, req review.Request) (*review.Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()

	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	cfg := req.Config
	if cfg == nil {
		cfg = e.opts.Config
	}
	res := &review.Result{Started: now(), Mode: req.Mode, Withheld: e.withheldLine(req)}
	if res.Mode == "" {
		res.Mode = review.ModeWorkflow
	}
	if err := checkProfile(req, cfg); err != nil {
		return nil, err
	}
	base := req.Base
	if base == "" && cfg != nil && !req.Staged {
		base = cfg.Base
	}
	ph := phases{last: time.Now()}
	target, err := e.repo.Resolve(ctx, req.Staged, base)
	if err != nil {
		return nil, err
	}
	cs, err := e.changeSet(ctx, target, req)
	ph.mark("diff")
	if err != nil {
		return nil, err
	}
	unread, cs, unscanned := e.unread(ctx, cs, cfg)
	ph.mark("unread")
	res.ChangeSet, res.Unscanned = cs, unscanned
	if cs.Empty() {
		e.last = &snapshot{target: target, cs: cs}
		res.Verdict = review.VerdictApprove
		res.Redactor = e.redactor(target, cs, nil, nil)
		res.Finished = now()
		return res, nil
	}
	// Before pre is taken: the analysis and the model review finish the
	// run again over the same bytes.
	res.Digest = review.Digest(cs)

	hist := e.history(ctx, target, cs)
	res.History = hist
	ph.mark("history")
	res.Risk = risk.Assess(cs, hist, risk.Options{Root: cs.Root})
	ph.mark("risk")

	chosen, err := e.choose(res, req, cfg)
	if err != nil {
		return nil, err
	}
	res.Model = e.modelPlan(req)
	model := e.carriedModel(cs, res.Model)
	incremental := len(req.Paths) > 0
	inline := e.planAnalysis(res, req, cfg, chosen, incremental)
	carry := incremental || res.Analysis.State == review.AnalysisPending
	raw, caches, carried, problems := e.check(ctx, cs, res.Depth, cfg, carry)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw = append(unread, raw...) // the heavy findings stay last
	ph.mark("check")
	pre := *res
	if inline {
		var heavy []*review.Finding
		heavy, problems = e.analyze(ctx, res, cfg, problems)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		raw, carried = append(raw, heavy...), heavy
		ph.mark("analysis")
	}
	res, err = e.finish(ctx, req, res, &pre, cfg, raw, caches, carried, model, problems, incremental)
	if err == nil {
		ph.mark("finish")
		e.logger.Debug("review", append([]any{"files", len(cs.Files)}, ph.attrs...)...)
	}
	return res, err
}

// Orient completes the orientation of a result whose run deferred it
// (Request.DeferOrientation): changed symbols, board, walkthrough, loop
// state and notes. It returns ErrStale when the engine has run again
// since, and the context's error when it is cancelled first (a newer
// edit): the result then stays pending, and the engine free for the
// next run.
func (e *Engine) Orient(ctx context.Context, res *review.Result) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !res.OrientationPending {
		return nil
	}
	if e.last == nil || e.last.res != res {
		return ErrStale
	}
	return e.orient(ctx, res)
}

// orient fills the orientation of res, the result of the last run, and
// keeps its call paths for the next incremental run. It stops between
// steps when ctx is cancelled, leaving res pending. Requires e.mu.
func (e *Engine) orient(ctx context.Context, res *review.Result) error {
	last := e.last
	cs, target := res.ChangeSet, res.ChangeSet.Target
	changes := e.changedSymbols(ctx, target, cs)
	if err := ctx.Err(); err != nil {
		return err
	}
	areas := orient.Areas(cs, changes)
	res.Board = orient.Board(cs, areas, changes)
	res.Walkthrough = orient.Walkthrough(cs, areas, res.Risk, changes)
	if res.Mode == review.ModeInteractive && res.Walkthrough != nil {
		e.callPaths(ctx, target, res, changes, last.incremental)
	} else {
		last.callPaths, last.shared = nil, nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	orient.WalkBack(res.Board, res.Findings)
	res.Loop = orient.Sync(res, last.req.Loop)
	res.Notes = e.reviewNotes(ctx, cs, res, last.cfg)
	if err := ctx.Err(); err != nil {
		return err
	}
	res.Positive, res.Testing, res.Actions = notes(cs, res)
	res.OutOfScope = []review.Observation{}
	actions, observations := secretNotes(cs)
	res.Actions = append(res.Actions, actions...)
	res.OutOfScope = append(res.OutOfScope, observations...)
	res.OrientationPending = false
	decide(res)
	return nil
}

// phases times the steps of a run for the debug log.
type phases struct {
	last  time.Time
	attrs []any
}

func (p *phases) mark(name string) {
	now := time.Now()
	p.attrs = append(p.attrs, name, now.Sub(p.last).Round(10*time.Microsecond))
	p.last = now
}

// finish turns the raw findings of a run into its result: redaction,
// perspectives, the processor chain, verdict and orientation; it leaves
// the snapshot for the next run. pre is the result as it was before the
// checks, for [Engine.Analyze] and [Engine.ModelReview] to finish again;
// model are the model's confirmed findings, which are no rule's and
// carry no secret.
func (e *Engine) finish(ctx context.Context, req review.Request, res, pre *review.Result, cfg *review.Config, raw []*review.Finding, caches fileCaches, carried, model []*review.Finding, problems []string, incremental bool) (*review.Result, error) {
	cs, target, hist := res.ChangeSet, res.ChangeSet.Target, res.History
	now := time.Now
	if req.Now != nil {
		now = req.Now
	}
	res.Problems = problems
	res.Redactor = e.redactor(target, cs, hist, raw)
	dropQuotingFixes(raw, res.Redactor)
	all := append(slices.Clip(raw), model...)

	// A confirmed model finding is a signal as a rule's is.
	res.RecommendedPerspectives = recommend(res.Profile, res.Risk, all)
	if res.Profile != review.ProfileCustom {
		res.Perspectives = res.RecommendedPerspectives
	}
	kept := keep(res, all)
	chain := process.Default(cs, cfg, e.preexisting(cs, res.Depth, cfg, req.Baseline))
	accepted, err := chain.Run(ctx, kept)
	if err != nil {
		return nil, err
	}
	res.Findings = accepted
	limit, by := sourceCap(cfg)
	res.Cut = append(process.Capped(kept, by, limit), chain.Cut()...)
	res.Rejected = chain.Rejected()
	res.Suppressed = chain.Suppressed()
	res.PreExisting = chain.PreExisting()
	if req.Baseline != nil {
		res.Absent = e.absent(ctx, cs, req.Baseline, res.Depth, cfg)
	}
	res.Counts = process.Count(accepted)
	res.Verdict = review.VerdictFor(res.GateCounts())
	res.AnalysisApplies = e.analysable(res, cfg)
	if res.ProjectGates == nil {
		res.ProjectGates = e.projectGates(cfg)
	}

	prev := e.last
	e.last = &snapshot{target: target, cs: cs, findings: caches.findings, cross: caches.cross, heavy: carried, depth: res.Depth,
		req: req, cfg: cfg, res: res, pre: pre, light: raw[:len(raw)-len(carried)], model: model, problems: problems,
		incremental: incremental}
	if prev != nil {
		e.last.callPaths, e.last.shared = prev.callPaths, prev.shared
	}
	res.OrientationPending = true
	if req.DeferOrientation {
		decide(res)
	} else if err := e.orient(ctx, res); err != nil {
		return nil, err
	}
	res.Finished = now()
	return res, nil
}

// decide computes the decision of res from what it knows now: a result
// is decided again when its orientation, type-aware analysis, model
// review or gates add to it.
func decide(res *review.Result) {
	d := review.Decide(review.DecisionInputOf(res))
	res.Decision = &d
}

// keep returns the raw findings of the selected perspectives, and the
// secret findings whatever the selection: every review checks for secrets.
// The perspectives of secrets kept outside the selection are recorded in
// Result.SecretsOnly; the selection itself stays the human's.
func keep(res *review.Result, raw []*review.Finding) []*review.Finding {
	kept := raw[:0:0]
	outside := map[review.Perspective]bool{}
	for _, f := range raw {
		switch {
		case slices.Contains(res.Perspectives, f.Perspective):
		case f.IsSecret():
			outside[f.Perspective] = true
		default:
			continue
		}
		kept = append(kept, f)
	}
	res.SecretsOnly = nil
	if len(outside) > 0 {
		res.SecretsOnly = review.SortPerspectives(outside)
	}
	return kept
}

// changeSet diffs the target, incrementally when the request names paths
// and nothing but those paths can have changed since the last run.
func (e *Engine) changeSet(ctx context.Context, t review.Target, req review.Request) (*review.ChangeSet, error) {
	if len(req.Paths) > 0 && e.last != nil && e.last.target == t {
		moved, err := e.repo.MovedFrom(t)
		if err == nil && !moved {
			return e.repo.Refresh(ctx, e.last.cs, req.Overlay, req.Paths...)
		}
		if err != nil {
			e.logger.Warn("cannot tell whether HEAD or the index moved; rescanning", "err", err)
		}
	}
	return e.repo.Scan(ctx, t, req.Overlay)
}

// history returns the history of the changed paths. Commits are
// remembered per path for the current HEAD, so an incremental run walks
// the history only for paths it has not seen (the walk examines the same
// commits whatever the paths, so per-path answers combine exactly).
func (e *Engine) history(ctx context.Context, t review.Target, cs *review.ChangeSet) *review.History {
	if t.Unborn {
		return &review.History{Reason: "the repository has no commits yet"}
	}
	if e.hist == nil || e.hist.head != t.HeadSHA {
		e.hist = &historyCache{head: t.HeadSHA, byPath: map[string][]string{}, commits: map[string]*review.Commit{}}
	}
	hc := e.hist
	// A renamed file's history is that of its old path too.
	paths := cs.Paths()
	for _, f := range cs.Files {
		if f.BasePath() != f.Path {
			paths = append(paths, f.BasePath())
		}
	}
	var missing []string
	for _, p := range paths {
		if _, ok := hc.byPath[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		h, err := e.repo.History(ctx, missing, e.opts.HistoryLimit)
		if err != nil {
			if ctx.Err() == nil {
				e.logger.Warn("history unavailable", "err", err)
			}
			return &review.History{Reason: err.Error()}
		}
		hc.meta = review.History{Available: h.Available, Shallow: h.Shallow, Limit: h.Limit, Reason: h.Reason}
		for _, p := range missing {
			hc.byPath[p] = nil
		}
		for _, c := range h.Commits {
			if _, ok := hc.commits[c.Hash]; !ok {
				cc := c
				cc.Paths = nil
				hc.commits[c.Hash] = &cc
			}
			for _, p := range c.Paths {
				hc.byPath[p] = append(hc.byPath[p], c.Hash)
			}
		}
	}
	return hc.assemble(paths)
}

// historyCache holds, for one HEAD, the commits that touched each path
// asked about so far.
type historyCache struct {
	head    string
	meta    review.History // availability of the last walk
	byPath  map[string][]string
	commits map[string]*review.Commit
}

// assemble builds the History of paths from the cache: the commits that
// touched any of them, newest first, each listing which of them it touched.
func (hc *historyCache) assemble(paths []string) *review.History {
	h := hc.meta
	h.Commits = nil
	touched := map[string][]string{}
	for _, p := range paths {
		for _, hash := range hc.byPath[p] {
			touched[hash] = append(touched[hash], p)
		}
	}
	for hash, ps := range touched {
		c := *hc.commits[hash]
		c.Paths = ps
		h.Commits = append(h.Commits, c)
	}
	sort.Slice(h.Commits, func(i, j int) bool {
		a, b := h.Commits[i], h.Commits[j]
		if a.When != b.When {
			return a.When > b.When
		}
		return a.Hash < b.Hash
	})
	if !h.Available && len(h.Commits) > 0 {
		h.Available, h.Reason = true, ""
	}
	return &h
}

// checkProfile rejects a custom profile without perspectives before any
// work is done.
func checkProfile(req review.Request, cfg *review.Config) error {
	profile, perspectives := req.Profile, req.Perspectives
	if cfg != nil {
		if profile == "" {
			profile = cfg.Profile
		}
		if len(perspectives) == 0 {
			perspectives = cfg.Perspectives
		}
	}
	if profile == review.ProfileCustom && len(perspectives) == 0 {
		return errors.New("the custom profile needs perspectives (--perspectives functional,security,...)")
	}
	return nil
}

// choose fixes the profile, custom perspectives, depth and provenance. It
// reports whether the depth was chosen (by the request, the loop or the
// configuration) rather than recommended.
func (e *Engine) choose(res *review.Result, req review.Request, cfg *review.Config) (chosen bool, err error) {
	res.Profile = req.Profile
	perspectives := req.Perspectives
	if l := req.Loop; l != nil && len(perspectives) == 0 && len(l.Perspectives) > 0 {
		// The human chose the perspectives in the loop.
		res.Profile, perspectives = review.ProfileCustom, l.Perspectives
	}
	if cfg != nil {
		if res.Profile == "" {
			res.Profile = cfg.Profile
		}
		if len(perspectives) == 0 {
			perspectives = cfg.Perspectives
		}
	}
	if res.Profile == "" {
		res.Profile = review.ProfileStandard
		if len(req.Perspectives) > 0 {
			res.Profile = review.ProfileCustom
		}
	}
	if res.Profile == review.ProfileCustom {
		res.Perspectives = append([]review.Perspective(nil), perspectives...)
	}

	res.Provenance = review.AutomationProvenance()
	res.Depth = req.Depth
	res.DepthRationale = req.DepthRationale
	if l := req.Loop; l != nil && !res.Depth.Valid() && l.Depth.Valid() {
		res.Depth, res.DepthRationale = l.Depth, l.DepthRationale
	}
	switch {
	case res.Depth.Valid():
		if res.DepthRationale == "" {
			res.DepthRationale = fmt.Sprintf("%s depth requested by the caller", res.Depth)
		}
	case cfg != nil && cfg.Depth.Valid():
		res.Depth = cfg.Depth
		res.DepthRationale = fmt.Sprintf("%s depth set in .reviewls.yaml", res.Depth)
		if e.UserSets("depth") && req.Config == nil {
			res.DepthRationale = fmt.Sprintf("%s depth set in your configuration (%s)", res.Depth, config.UserFileName)
		}
	default:
		res.Depth = res.Risk.RecommendedDepth
		if !res.Depth.Valid() {
			res.Depth = review.DepthStandard
		}
		res.DepthRationale = "recommended depth: " + res.Risk.DepthReason
		return false, nil
	}
	return true, nil
}

// check runs every lens concurrently. Findings of files unchanged since
// the last run (the same *review.File) are reused. The expensive rules —
// comprehensive and cross-file, such as type-aware Go analysis, which
// loads packages — never run here (see analyze); with carry, their
// findings on unchanged files carry over until the analysis runs again.
// It returns the raw findings, the per-file cache, the heavy rules'
// findings to carry, and check failures.
func (e *Engine) check(ctx context.Context, cs *review.ChangeSet, depth review.Depth, cfg *review.Config, carry bool) (raw []*review.Finding, caches fileCaches, heavy []*review.Finding, problems []string) {
	cache, crossCache := map[*review.File][]*review.Finding{}, map[*review.File][]*review.Finding{}
	// Findings were capped at the source: a cache made under other caps
	// does not hold the same ones.
	same := e.last != nil && e.last.depth == depth && e.last.cfg.FindingCaps() == cfg.FindingCaps()
	reuseCross := same && e.last.cross != nil && !e.crossInputsChanged(e.last.cs, cs)
	opts := review.CheckOptions{Depth: depth, Config: cfg, Skip: func(id string) bool { return e.heavy[id] }}
	opts.MaxPerFile, _ = sourceCap(cfg)
	var lastFindings, lastCross map[*review.File][]*review.Finding
	if same {
		lastFindings = e.last.findings
	}
	if reuseCross {
		lastCross = e.last.cross
		opts.Cross = []*review.File{} // not nil: only the files below
	}
	var fresh []*review.File
	for _, f := range cs.Reviewed() {
		if old, ok := lastFindings[f]; ok {
			cache[f] = old
		} else {
			fresh = append(fresh, f)
			cache[f] = nil
		}
		if old, ok := lastCross[f]; ok {
			crossCache[f] = old
		} else {
			crossCache[f] = nil
			if reuseCross {
				opts.Cross = append(opts.Cross, f)
			}
		}
	}
	if carry && same {
		for _, f := range e.last.heavy {
			if file := cs.File(f.Span.Path); file != nil && e.last.cs.File(f.Span.Path) == file {
				heavy = append(heavy, f)
			}
		}
	}
	found, problems := e.checkLenses(ctx, cs, fresh, opts)
	var stray []*review.Finding
	for _, r := range found {
		for _, f := range r {
			file := cs.File(f.Span.Path)
			switch {
			case e.crossFile[f.RuleID] && file != nil:
				crossCache[file] = append(crossCache[file], f)
			case e.crossFile[f.RuleID]:
				stray = append(stray, f) // for from_diff to reject
			case file != nil:
				cache[file] = append(cache[file], f)
			}
		}
	}
	for _, f := range cs.Files {
		raw = append(raw, cache[f]...)
	}
	for _, f := range cs.Files {
		raw = append(raw, crossCache[f]...)
	}
	raw = append(raw, stray...)
	return append(raw, heavy...), fileCaches{cache, crossCache}, heavy, problems
}

// sourceCap is the most findings one rule may report in one file,
// severity by severity (0: no cap), and the cap that sets it: the
// per-file cap, or the per-review cap when it is lower, since no file's
// findings can pass it either.
func sourceCap(cfg *review.Config) (int, review.Cap) {
	caps := cfg.FindingCaps()
	if caps.PerFile == 0 || caps.PerReview > 0 && caps.PerReview < caps.PerFile {
		return caps.PerReview, review.CapPerReview
	}
	return caps.PerFile, review.CapPerFile
}

// fileCaches are a run's raw findings per reviewed file, of the per-file
// rules and of the cross-file ones, for the next run to reuse.
type fileCaches struct {
	findings, cross map[*review.File][]*review.Finding
}

// crossInputsChanged reports whether a file the cross-file rules read may
// differ between two change sets: a path added, removed or changed that
// matches one of their inputs (any path, when an input is unknown).
func (e *Engine) crossInputsChanged(old, cur *review.ChangeSet) bool {
	if e.crossInputs == nil {
		return true
	}
	matches := func(p string) bool {
		base := path.Base(p)
		for _, pat := range e.crossInputs {
			if ok, _ := path.Match(pat, base); ok {
				return true
			}
		}
		return false
	}
	i, j := 0, 0
	for i < len(old.Files) || j < len(cur.Files) {
		switch {
		case j == len(cur.Files) || i < len(old.Files) && old.Files[i].Path < cur.Files[j].Path:
			if matches(old.Files[i].Path) {
				return true
			}
			i++
		case i == len(old.Files) || cur.Files[j].Path < old.Files[i].Path:
			if matches(cur.Files[j].Path) {
				return true
			}
			j++
		default:
			if old.Files[i] != cur.Files[j] && matches(cur.Files[j].Path) {
				return true
			}
			i, j = i+1, j+1
		}
	}
	return false
}

// checkLenses runs every lens over files concurrently and returns their
// findings, lens by lens, and the failures.
func (e *Engine) checkLenses(ctx context.Context, cs *review.ChangeSet, files []*review.File, opts review.CheckOptions) (found [][]*review.Finding, problems []string) {
	found = make([][]*review.Finding, len(e.opts.Lenses))
	errs := make([]error, len(e.opts.Lenses))
	var wg sync.WaitGroup
	for i, l := range e.opts.Lenses {
		wg.Go(func() { found[i], errs[i] = l.Check(ctx, cs, files, opts) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && ctx.Err() == nil {
			e.logger.Warn("lens failed", "check", e.opts.Lenses[i].Perspective(), "err", err)
			problems = append(problems, fmt.Sprintf("%s lens: %v", e.opts.Lenses[i].Perspective(), firstLine(err.Error())))
		}
	}
	return found, problems
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// recommend returns the perspectives of the profile, adding security and
// accessibility under the standard profile when their signals fire: a
// hotspot or specialist signal, or one of their rules matching a changed
// line (gating never hides a defect a rule found).
func recommend(p review.Profile, rk *review.Risk, raw []*review.Finding) []review.Perspective {
	set := map[review.Perspective]bool{}
	switch p {
	case review.ProfileFull:
		return append([]review.Perspective(nil), review.AllPerspectives...)
	default:
		set[review.Functional], set[review.Standards], set[review.Readiness] = true, true, true
	}
	if rk.HasSpecialist("security") || rk.HasHotspot("auth", "crypto", "parsing", "deserialization", "secrets", "networking") {
		set[review.Security] = true
	}
	if rk.HasSpecialist("accessibility") {
		set[review.Accessibility] = true
	}
	for _, f := range raw {
		if f.Perspective == review.Security || f.Perspective == review.Accessibility {
			set[f.Perspective] = true
		}
	}
	return review.SortPerspectives(set)
}

// symbolsOf memoises a file's changed symbols on the file: unchanged
// files are shared by later change sets, so a save costs one file's diff.
var symbolsOf review.Memo[[]symbol.Change]

// changedSymbols returns the symbols each reviewed file's change added,
// removed or changed, by path. The files not seen before are diffed on
// every core: two symbol extractions each.
func (e *Engine) changedSymbols(ctx context.Context, t review.Target, cs *review.ChangeSet) map[string][]symbol.Change {
	files := cs.Reviewed()
	changes := make([][]symbol.Change, len(files))
	parallel.Each(len(files), func() bool { return ctx.Err() != nil }, func(i int) { changes[i] = e.ChangedSymbols(t, files[i]) })
	out := make(map[string][]symbol.Change, len(files))
	for i, f := range files {
		out[f.Path] = changes[i]
	}
	return out
}

// ChangedSymbols returns the symbols a reviewed file's change added,
// removed or changed, memoised on the file.
func (e *Engine) ChangedSymbols(t review.Target, f *review.File) []symbol.Change {
	ws := rebuiltBase{e.Workspace(t), f}
	return symbolsOf.Of(f, func() []symbol.Change {
		// Not a run's context: a cancelled run must not leave a memo
		// computed without the base version.
		return orient.ChangedSymbols(context.Background(), ws, f)
	})
}

// rebuiltBase is a workspace that reads the base version of f from f's
// hunks (lens.OldContent: no tree walk and no object read, and the bytes
// the rules' symbol diff uses, so the extraction is shared), and any other
// file's from the repository.
type rebuiltBase struct {
	orient.Workspace
	f *review.File
}

func (w rebuiltBase) ReadBase(ctx context.Context, path string) ([]byte, error) {
	if path == w.f.BasePath() {
		if old, ok := lens.OldContent(w.f); ok {
			return old, nil
		}
	}
	return w.Workspace.ReadBase(ctx, path)
}

// callPaths fills the walkthrough's call paths and the blast radius of its
// shared modules: searched on full interactive runs (a repository search
// per changed public symbol), carried over from the last run on
// incremental ones. They are kept in e.last, the run's snapshot, which
// starts with the last run's.
func (e *Engine) callPaths(ctx context.Context, t review.Target, res *review.Result, changes map[string][]symbol.Change, incremental bool) {
	w, last := res.Walkthrough, e.last
	if !incremental {
		last.callPaths, last.shared = orient.CallPaths(ctx, e.Workspace(t), res.ChangeSet, changes)
	}
	w.CallPaths = last.callPaths
	w.BlastRadius = append(w.BlastRadius, last.shared...)
}

// reviewNotes runs the whole-change rules of the kept perspectives and
// returns their notes; a rule that fails is a problem of the run.
func (e *Engine) reviewNotes(ctx context.Context, cs *review.ChangeSet, res *review.Result, cfg *review.Config) []review.Note {
	var out []review.Note
	for _, l := range e.opts.Lenses {
		nl, ok := l.(review.NoteLens)
		if !ok || !slices.Contains(res.Perspectives, l.Perspective()) {
			continue
		}
		notes, err := nl.Notes(ctx, cs, review.CheckOptions{Depth: res.Depth, Config: cfg})
		if err != nil && ctx.Err() == nil {
			e.logger.Warn("notes failed", "check", l.Perspective(), "err", err)
			res.Problems = append(res.Problems, fmt.Sprintf("%s notes: %v", l.Perspective(), firstLine(err.Error())))
		}
		out = append(out, notes...)
	}
	return out
}

// notes derives the factual positive changes, testing recommendations and
// recommended actions of the report; the review-level notes join the
// testing recommendations or the recommended actions by kind.
func notes(cs *review.ChangeSet, res *review.Result) (positive, testing, actions []string) {
	var tests, docs []string
	for _, f := range cs.Files {
		switch {
		case f.Status == review.StatusDeleted:
		case review.IsTestPath(f.Path):
			tests = append(tests, f.Path)
		case f.Language == review.LangMarkdown:
			docs = append(docs, f.Path)
		}
	}
	if len(tests) > 0 {
		positive = append(positive, "Adds or updates tests: "+strings.Join(tests, ", "))
	}
	if len(docs) > 0 {
		positive = append(positive, "Updates documentation alongside the change: "+strings.Join(docs, ", "))
	}
	for _, n := range res.Notes {
		if n.Kind.Testing() {
			testing = append(testing, n.Text())
		}
	}
	for _, ev := range res.Risk.Evidence {
		switch {
		case ev.Signal == review.SignalCoverage && ev.Availability == review.Unavailable && hasSource(cs):
			testing = append(testing, "No coverage profile was found; run the tests with coverage"+coverageHint(cs)+" so the next review can observe it.")
		}
	}
	for _, f := range res.Findings {
		if f.Severity >= review.SeverityHigh {
			actions = append(actions, fmt.Sprintf("Fix finding %d, %s (%s:%s).", f.Number, f.Title, f.Span.Path, f.Span.Lines()))
		}
	}
	if len(res.Skipped()) > 0 {
		actions = append(actions, fmt.Sprintf("Review the %d skipped files by hand if they matter (see Changed Files Overview).", len(res.Skipped())))
	}
	for _, n := range res.Notes {
		if !n.Kind.Testing() {
			actions = append(actions, n.Text())
		}
	}
	return positive, testing, actions
}

func hasSource(cs *review.ChangeSet) bool {
	for _, f := range cs.Files {
		if f.Reviewed() && !review.IsTestPath(f.Path) && f.Language != review.LangUnknown && f.Language != review.LangMarkdown && f.Language != review.LangText {
			return true
		}
	}
	return false
}

// coverageHint names the coverage commands of the changed source's
// languages, which write a profile the next review reads: Go's
// coverage.out, Python's lcov.info.
func coverageHint(cs *review.ChangeSet) string {
	var hints []string
	seen := map[review.Language]bool{}
	for _, f := range cs.Reviewed() {
		fam := f.Language.Family()
		if seen[fam] || review.IsTestPath(f.Path) {
			continue
		}
		seen[fam] = true
		switch fam {
		case review.LangGo:
			hints = append(hints, "for Go: go test -coverprofile=coverage.out ./...")
		case review.LangPython:
			hints = append(hints, "for Python: coverage run -m pytest && coverage lcov -o lcov.info")
		}
	}
	if len(hints) == 0 {
		return " (writing coverage.out or lcov.info at the repository root)"
	}
	return " (" + strings.Join(hints, "; ") + ")"
}
