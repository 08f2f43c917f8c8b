package risk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// Hotspot classes (§5.1), as they appear in [review.Hotspot].Classes.
const (
	ClassAuth            = "auth"
	ClassCrypto          = "crypto"
	ClassParsing         = "parsing"
	ClassDeserialization = "deserialization"
	ClassPersistence     = "persistence"
	ClassSecrets         = "secrets"
	ClassNetworking      = "networking"
	ClassConcurrency     = "concurrency"
)

// classNames holds the hotspot class of each of the first numClasses cue
// categories, in canonical order.
var classNames = [numClasses]string{ClassAuth, ClassCrypto, ClassParsing, ClassDeserialization,
	ClassPersistence, ClassSecrets, ClassNetworking, ClassConcurrency}

// Specialist concern classes (§5.2), as they appear in
// [review.SpecialistSignal].Concern, in the order Assess reports them.
const (
	ConcernSecurity      = "security"
	ConcernSupplyChain   = "supply-chain"
	ConcernAI            = "ai"
	ConcernAccessibility = "accessibility"
	ConcernEfficiency    = "efficiency"
	ConcernPrivacy       = "privacy"
)

// File risk levels of [review.Risk].FileRisk (§7.3).
const (
	RiskHigh   = "High"
	RiskMedium = "Medium"
	RiskLow    = "Low"
)

// Scope-tier thresholds. The protocol sets no universal size threshold
// (§3.2), so these are reviewer-attention heuristics, named so they can be
// argued with.
const (
	// trivialMaxFiles and trivialMaxLines bound a TRIVIAL change: one file
	// and a handful of lines is a glance, not a review.
	trivialMaxFiles = 1
	trivialMaxLines = 10
	// broadMinLines: past about 400 changed lines a reviewer's defect
	// finding drops sharply (SmartBear/Cisco code review study), so a
	// larger change is BROAD whatever its spread.
	broadMinLines = 400
	// broadMaxAreas: more than three top-level areas (cmd, review, lsp, …)
	// means several subsystems move together.
	broadMaxAreas = 3
	// broadMinFiles: from 20 files the protocol stops analysing file by file
	// and groups by directory (§2.6).
	broadMinFiles = 20
	// spreadMinLines: behaviour-changing lines past which a change is a
	// "broad behavioural spread" depth trigger on size alone; §2.6 switches
	// to commit-by-commit review past 2000 combined lines.
	spreadMinLines = 2000
)

// maxNamed is how many paths an evidence sentence names before it
// summarises the rest as "and N more".
const maxNamed = 5

// Options tunes [Assess].
type Options struct {
	// Root is the work tree, used to look for coverage profiles and
	// sibling test files (bounded stats only). Empty means the change
	// set's Root.
	Root string
	// Coverage, when non-empty, lists coverage profile paths (relative to
	// Root or absolute) to consider; otherwise Assess looks for
	// coverage.out, cover.out, coverage.txt (Go cover profiles) and
	// lcov.info, coverage/lcov.info (LCOV) at the root. A listed profile
	// that is missing or unreadable is named in the coverage evidence.
	Coverage []string
}

// analysis is the per-change state of one Assess call.
type analysis struct {
	root   string
	files  []*fileFacts
	byPath map[string]*fileFacts
	cov    *coverageResult
	rb     rollbackMarkers
}

// Assess builds the Tier 0 risk assessment of a change set: the change
// brief, exactly one evidence entry per [review.AllSignals] signal in that
// order, the recommended depth with its reason, the scope tier, hotspots,
// specialist signals and the file risk of every changed path. hist may be
// nil. Assess is deterministic for the same inputs and files on disk, reads
// no file beyond the coverage profiles and the root go.mod, and stats only
// conventional test paths and the changed files.
func Assess(cs *review.ChangeSet, hist *review.History, opts Options) *review.Risk {
	root := opts.Root
	if root == "" && cs != nil {
		root = cs.Root
	}
	a := &analysis{root: root, byPath: map[string]*fileFacts{}}
	sc := &scanner{}
	if cs != nil {
		for _, f := range cs.Files {
			ff := cachedFacts(f, sc)
			a.files = append(a.files, ff)
			a.byPath[ff.path] = ff
		}
	}
	slices.SortFunc(a.files, func(x, y *fileFacts) int { return strings.Compare(x.path, y.path) })
	findTests(a.files, a.byPath, root)
	a.cov = assessCoverage(a.files, root, opts.Coverage)
	a.rb = a.rollback()

	r := &review.Risk{FileRisk: map[string]string{}}
	for _, ff := range a.files {
		ff.risk = fileRisk(ff)
		r.FileRisk[ff.path] = ff.risk
	}
	r.Hotspots = a.hotspots()
	r.Specialist = a.specialists()
	r.Evidence = []review.Evidence{
		a.scopeEvidence(),
		a.criticalityEvidence(),
		historyEvidence(hist, a.files),
		a.testEvidence(),
		a.coverageEvidence(),
		a.rollbackEvidence(),
	}
	for _, e := range r.Evidence {
		if e.Availability == review.Unavailable {
			r.Incomplete = true
		}
	}
	r.Tier = a.tier(r)
	r.RecommendedDepth, r.DepthReason = a.depth(r)
	r.Brief = a.brief(r)
	return r
}

// fileRisk classifies a changed path per §7.3:
//
//   - Low: tests, documentation, dependency manifests and lockfiles,
//     mechanical changes ("cosmetic"), and files that are not source code
//     (configuration, CI, container and build files, markup, prompts),
//     except a secret file (.env, private keys), which is High;
//   - High: source with a High hotspot class (auth, crypto, parsing,
//     deserialization, persistence, secrets) or financial logic, including
//     migrations and schema definitions;
//   - Medium: source with a networking or concurrency hotspot, an API
//     boundary (api/, handlers, routes, middleware, .proto definitions) or
//     core or shared code (core/, common/, shared/, util/);
//   - Low: any other source. Core business logic cannot be told from the
//     path, so an unclassified source file is Low.
func fileRisk(ff *fileFacts) string {
	switch {
	case ff.test || ff.doc || ff.supply == supplyLockfile || ff.supply == supplyManifest:
		return RiskLow
	case !ff.behavioural() && !ff.skipped:
		return RiskLow
	case ff.secretFile, ff.migration, ff.schema:
		return RiskHigh
	case ff.format:
		return RiskMedium
	case !ff.code:
		return RiskLow
	case ff.cats&highClasses != 0 || ff.cats.has(catFinancial):
		return RiskHigh
	case ff.cats.has(catNetworking) || ff.cats.has(catConcurrency) || ff.cats.has(catAPI) || ff.cats.has(catShared):
		return RiskMedium
	}
	return RiskLow
}

// critical reports a behaviour-changing product file on a High path.
func (ff *fileFacts) critical() bool {
	return ff.risk == RiskHigh && ff.shipped() && ff.behavioural()
}

// hotspots lists, per changed path, the hotspot classes its path or added
// lines touch, sorted by path with classes in canonical order. Tests, docs,
// manifests and lockfiles are not hotspots: they do not ship the behaviour.
func (a *analysis) hotspots() []review.Hotspot {
	out := []review.Hotspot{}
	for _, ff := range a.files {
		if ff.cats&hotspotClasses == 0 {
			continue
		}
		h := review.Hotspot{Path: ff.path}
		for c := range numClasses {
			if ff.cats.has(cat(c)) {
				h.Classes = append(h.Classes, classNames[c])
			}
		}
		out = append(out, h)
	}
	return out
}

// why describes the first cue of category c: `migration` (the file kind),
// `"login" in path` or `"password" at line 14`.
func (ff *facts) why(c cat) string {
	for _, h := range ff.hits {
		if h.c == c {
			switch {
			case h.line == kindLine:
				return h.label
			case h.line == 0:
				return fmt.Sprintf("%q in path", h.label)
			}
			return fmt.Sprintf("%q at line %d", h.label, h.line)
		}
	}
	return ""
}

// categoryNames names the non-hotspot categories that set a file risk.
var categoryNames = map[cat]string{
	catFinancial: "financial logic",
	catAPI:       "API boundary",
	catShared:    "shared code",
}

// reasons describes why a file has its risk: each category with its first
// cue, e.g. `auth ("login" in path), secrets ("password" at line 14)`.
func (ff *facts) reasons(mask catSet) string {
	var parts []string
	for c := range numCats {
		if !mask.has(c) || !ff.cats.has(c) {
			continue
		}
		name := categoryNames[c]
		if int(c) < numClasses {
			name = classNames[c]
		}
		if name == "" {
			continue
		}
		parts = append(parts, name+" ("+ff.why(c)+")")
	}
	return strings.Join(parts, ", ")
}

const riskCats = hotspotClasses | 1<<catFinancial | 1<<catAPI | 1<<catShared

func (a *analysis) scopeEvidence() review.Evidence {
	var (
		dirs, areas      = map[string]bool{}, map[string]bool{}
		status           = map[review.FileStatus]int{}
		added, deleted   int
		skipped          []string
		tests, docs      int
		mech             []string
		behavioural      int
		behaviouralAreas = map[string]bool{}
		behaviouralLines int
		unreadable       int
	)
	if len(a.files) == 0 {
		return review.Evidence{Signal: review.SignalChangeScope, Availability: review.Observed, Evidence: "no changed files"}
	}
	for _, ff := range a.files {
		dirs[ff.dir] = true
		areas[ff.area] = true
		status[ff.f.Status]++
		if ff.skipped {
			skipped = append(skipped, ff.path+": "+ff.f.Skip.String())
			if ff.skippedSource {
				unreadable++
			}
			continue
		}
		added += ff.f.Added
		deleted += ff.f.Deleted
		switch {
		case ff.test:
			tests++
		case ff.doc:
			docs++
		case ff.mechanical != "":
			mech = append(mech, ff.path+": "+ff.mechanical)
		case ff.behavioural():
			behavioural++
			behaviouralAreas[ff.area] = true
			behaviouralLines += ff.lines
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s across %s (%s)", plural(len(a.files), "file"), plural(len(dirs), "directory"),
		plural(len(areas), "top-level area"), listNames(sortedKeys(areas), maxNamed))
	var st []string
	for _, s := range []review.FileStatus{review.StatusModified, review.StatusAdded, review.StatusUntracked,
		review.StatusDeleted, review.StatusRenamed} {
		if status[s] > 0 {
			st = append(st, fmt.Sprintf("%d %s", status[s], s))
		}
	}
	fmt.Fprintf(&b, ": %s; +%d −%d lines in reviewed files", strings.Join(st, ", "), added, deleted)
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "; %d skipped (%s)", len(skipped), listNames(skipped, maxNamed))
	}
	var kinds []string
	if behavioural > 0 {
		kinds = append(kinds, fmt.Sprintf("%d behaviour-changing (%s in %s)", behavioural,
			plural(behaviouralLines, "line"), plural(len(behaviouralAreas), "area")))
	}
	if tests > 0 {
		kinds = append(kinds, plural(tests, "test file"))
	}
	if docs > 0 {
		kinds = append(kinds, plural(docs, "documentation file"))
	}
	if len(mech) > 0 {
		kinds = append(kinds, fmt.Sprintf("%d mechanical (%s)", len(mech), listNames(mech, maxNamed)))
	}
	if len(kinds) > 0 {
		b.WriteString("; " + strings.Join(kinds, ", "))
	}
	if behavioural == 0 && unreadable == 0 && tests == 0 {
		b.WriteString("; no behaviour change evident")
	}
	return review.Evidence{Signal: review.SignalChangeScope, Availability: review.Observed, Evidence: b.String()}
}

// criticalityEvidence is observed: it is derived from the diff (paths and
// added lines) with the §7.3 classes, including "no critical path touched".
func (a *analysis) criticalityEvidence() review.Evidence {
	var high, medium, quiet, config []string
	low := 0
	for _, ff := range a.files {
		switch ff.risk {
		case RiskHigh:
			high = append(high, ff.path+": "+ff.reasons(riskCats&^(1<<catNetworking|1<<catConcurrency|1<<catAPI|1<<catShared)))
		case RiskMedium:
			medium = append(medium, ff.path+": "+ff.reasons(riskCats))
		default:
			low++
			switch {
			case ff.cats&(highClasses|1<<catFinancial) == 0 || !ff.shipped():
			case ff.mechanical != "":
				quiet = append(quiet, ff.path+" ("+ff.mechanical+")")
			case !ff.code:
				config = append(config, ff.path+": "+ff.reasons(highClasses|1<<catFinancial))
			}
		}
	}
	var parts []string
	if len(high) == 0 {
		parts = append(parts, "no critical path touched")
	} else {
		parts = append(parts, "High: "+listNames(high, maxNamed))
	}
	if len(medium) > 0 {
		parts = append(parts, "Medium: "+listNames(medium, maxNamed))
	}
	if low > 0 {
		parts = append(parts, fmt.Sprintf("Low: %s", plural(low, "file")))
	}
	if len(quiet) > 0 {
		parts = append(parts, "critical paths with mechanical changes only: "+listNames(quiet, maxNamed))
	}
	if len(config) > 0 {
		parts = append(parts, "configuration naming critical classes (Low as configuration): "+listNames(config, maxNamed))
	}
	return review.Evidence{Signal: review.SignalPathCriticality, Availability: review.Observed,
		Evidence: strings.Join(parts, "; ") + " (§7.3 classes)"}
}

func (a *analysis) testEvidence() review.Evidence {
	var changed, found, missing, unchecked []string
	need := 0
	for _, ff := range a.files {
		if ff.test && !ff.skipped {
			verb := ""
			if ff.f.Status == review.StatusDeleted {
				verb = " (deleted)"
			}
			changed = append(changed, ff.path+verb)
		}
		switch ff.tests.kind {
		case testFound:
			need++
			found = append(found, ff.path+" → "+ff.tests.by)
		case testMissing:
			need++
			missing = append(missing, ff.path)
		case testUnchecked:
			need++
			unchecked = append(unchecked, ff.path+" ("+ff.tests.by+")")
		}
	}
	var parts []string
	if len(changed) > 0 {
		parts = append(parts, "changed tests: "+listNames(changed, maxNamed))
	} else {
		parts = append(parts, "no test files changed")
	}
	if need == 0 {
		parts = append(parts, "no behaviour-changing source file needs a test")
	} else {
		if len(found) > 0 {
			parts = append(parts, fmt.Sprintf("tests found for %d of %d changed source files (%s)", len(found), need,
				listNames(found, maxNamed)))
		}
		if len(missing) > 0 {
			parts = append(parts, "no test found for "+listNames(missing, maxNamed))
		}
		if len(unchecked) > 0 {
			parts = append(parts, "not checked: "+listNames(unchecked, maxNamed))
		}
	}
	return review.Evidence{Signal: review.SignalTestPresence, Availability: review.Observed,
		Evidence: strings.Join(parts, "; ") + " (presence is not proof of effective tests)"}
}

func (a *analysis) coverageEvidence() review.Evidence {
	e := review.Evidence{Signal: review.SignalCoverage}
	cov := a.cov
	if !cov.observed() {
		e.Availability = review.Unavailable
		e.Evidence = "no coverage profile (coverage.out, lcov.info) found"
		if len(cov.problems) > 0 {
			e.Evidence = "no usable coverage profile: " + strings.Join(cov.problems, "; ")
		} else if a.root == "" {
			e.Evidence = "no coverage profile: work tree unknown"
		}
		return e
	}
	e.Availability = review.Observed
	var parts []string
	for _, p := range cov.profiles {
		var s strings.Builder
		fmt.Fprintf(&s, "%s (%s", p.name, p.format)
		if p.mode != "" {
			fmt.Fprintf(&s, ", mode %s", p.mode)
		}
		s.WriteString("): ")
		var t fileCov
		var listed []string
		for _, ff := range a.files {
			if fc := p.files[ff.path]; fc != nil {
				listed = append(listed, ff.path)
				t.total += fc.total
				t.covered += fc.covered
				t.changedTotal += fc.changedTotal
				t.changedCovered += fc.changedCovered
			}
		}
		if len(listed) == 0 {
			s.WriteString("lists none of the changed files")
		} else {
			if t.changedTotal > 0 {
				fmt.Fprintf(&s, "%d of %d %s on changed lines covered (%s)", t.changedCovered, t.changedTotal,
					p.unit(), percent(t.changedCovered, t.changedTotal))
			} else {
				fmt.Fprintf(&s, "no %s on changed lines", p.unit())
			}
			fmt.Fprintf(&s, " in %s; whole files %s", plural(len(listed), "changed file"), percent(t.covered, t.total))
			var low []string
			for _, path := range listed {
				fc := p.files[path]
				if fc.changedTotal > 0 && ratio(fc.changedCovered, fc.changedTotal) < coverageWeak {
					low = append(low, fmt.Sprintf("%s %s", path, percent(fc.changedCovered, fc.changedTotal)))
				}
			}
			if len(low) > 0 {
				fmt.Fprintf(&s, "; below %s: %s", percent(int(coverageWeak*100), 100), listNames(low, maxNamed))
			}
		}
		var absent []string
		for _, ff := range a.files {
			if ff.code && ff.shipped() && ff.behavioural() && ff.f.Status != review.StatusDeleted &&
				p.files[ff.path] == nil && inScope(p, ff) {
				absent = append(absent, ff.path)
			}
		}
		if len(absent) > 0 {
			fmt.Fprintf(&s, "; not in the profile: %s", listNames(absent, maxNamed))
		}
		if len(p.stale) > 0 {
			fmt.Fprintf(&s, "; the profile is older than %s (%s), so its numbers may be stale",
				plural(len(p.stale), "changed file"), listNames(p.stale, maxNamed))
		}
		parts = append(parts, s.String())
	}
	if len(cov.problems) > 0 {
		parts = append(parts, "unusable: "+strings.Join(cov.problems, "; "))
	}
	e.Evidence = strings.Join(parts, "; ") + " (coverage is not proof of defect detection)"
	return e
}

func inScope(p *profile, ff *fileFacts) bool {
	if p.format == formatGo {
		return ff.lang == review.LangGo
	}
	return p.exts[pathExt(ff.path)]
}

// rollbackMarkers are the rollback cues of the change.
type rollbackMarkers struct {
	hard      []string // observed hard-to-reverse markers
	formats   []string // data format definitions (qualitative)
	reversals []string // observed reversal evidence
}

// rollback collects the rollback cues of behaviour-changing product files:
// migrations, schema definitions and destructive schema statements are
// hard to reverse (observed); data format definitions (.proto, .avsc, …)
// may be (qualitative: judged from the file kind); feature flags and down
// migrations are reversal evidence (observed).
func (a *analysis) rollback() rollbackMarkers {
	var m rollbackMarkers
	for _, ff := range a.files {
		if !ff.shipped() || !ff.behavioural() {
			continue
		}
		switch {
		case ff.downMigration:
			m.reversals = append(m.reversals, "down migration "+ff.path)
		case ff.migration:
			what := "migration"
			if ff.f.Status == review.StatusDeleted {
				what = "deleted migration"
			}
			m.hard = append(m.hard, ff.path+" ("+what+")")
		case ff.schema:
			m.hard = append(m.hard, ff.path+" (schema definition)")
		case ff.format:
			m.formats = append(m.formats, ff.path)
		}
		for _, h := range ff.hits {
			switch {
			case h.c == catDDL && !ff.downMigration: // a down migration drops what its up migration made
				m.hard = append(m.hard, fmt.Sprintf("%s line %d (%s)", ff.path, h.line, h.label))
			case h.c == catFlag && h.line > 0:
				m.reversals = append(m.reversals, fmt.Sprintf("feature flag at %s line %d (%q)", ff.path, h.line, h.label))
			case h.c == catDown && h.line > 0 && !ff.downMigration:
				m.reversals = append(m.reversals, fmt.Sprintf("down migration in %s line %d", ff.path, h.line))
			}
		}
	}
	return m
}

// rollbackEvidence is observed when the change shows hard-to-reverse
// markers or reversal evidence, and qualitative otherwise: "reverts with
// the change" is then a judgement from the file kinds. Irreversible
// configuration (data retention, key rotation) is not detected.
func (a *analysis) rollbackEvidence() review.Evidence {
	m := a.rb
	e := review.Evidence{Signal: review.SignalRollback, Availability: review.Qualitative}
	var parts []string
	if len(m.hard) > 0 {
		parts = append(parts, "hard to reverse: "+listNames(m.hard, maxNamed))
	}
	if len(m.reversals) > 0 {
		parts = append(parts, "reversal evidence: "+listNames(m.reversals, maxNamed))
	}
	if len(parts) > 0 {
		e.Availability = review.Observed
	} else {
		parts = append(parts, "no migrations, schema changes, destructive schema statements or feature flags in the change; "+
			"judged from the file kinds ("+a.kindSummary()+") to revert with the change")
	}
	if len(m.formats) > 0 {
		parts = append(parts, "changes data format definitions ("+listNames(m.formats, maxNamed)+
			"): data written in the new format may outlive a revert (judged from the file kind)")
	}
	e.Evidence = strings.Join(parts, "; ")
	return e
}

// kindSummary counts the files by kind: "3 source, 1 test, 1 config".
func (a *analysis) kindSummary() string {
	counts := map[string]int{}
	var order []string
	for _, ff := range a.files {
		k := "other"
		switch {
		case ff.test:
			k = "test"
		case ff.doc:
			k = "docs"
		case ff.supply != "":
			k = ff.supply
		case ff.code:
			k = "source"
		case ff.config:
			k = "config"
		case ff.ui != "":
			k = ff.ui
		}
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	slices.Sort(order)
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return strings.Join(parts, ", ")
}

// tier derives the scope tier, first match wins:
//
//   - HIGH_RISK: a behaviour-changing product file on a High path (auth,
//     crypto, parsing, deserialization, persistence, secrets, financial) or
//     an observed hard-to-reverse marker;
//   - TRIVIAL: no hotspot, no supply-chain file, no unreadable source, no
//     rollback marker, and either no behaviour change at all (docs,
//     comments, whitespace, renames) or at most trivialMaxFiles file with
//     at most trivialMaxLines changed lines;
//   - BROAD: more than broadMaxAreas top-level areas (docs aside), more
//     than broadMinLines changed lines, broadMinFiles files or more, or a
//     dependency manifest or lockfile change (every importer is affected);
//   - LOCAL: the rest.
func (a *analysis) tier(r *review.Risk) review.ScopeTier {
	m := a.rb
	for _, ff := range a.files {
		if ff.critical() {
			return review.TierHighRisk
		}
	}
	if len(m.hard) > 0 {
		return review.TierHighRisk
	}
	areas := map[string]bool{}
	lines, behavioural, supply, dependency, unreadable := 0, 0, false, false, false
	for _, ff := range a.files {
		if !ff.doc {
			areas[ff.area] = true
		}
		lines += ff.lines
		if ff.behavioural() {
			behavioural++
		}
		supply = supply || ff.supply != ""
		dependency = dependency || ff.supply == supplyManifest || ff.supply == supplyLockfile
		unreadable = unreadable || ff.skippedSource
	}
	if len(r.Hotspots) == 0 && !supply && !unreadable && len(m.formats) == 0 && len(m.reversals) == 0 &&
		(behavioural == 0 || len(a.files) <= trivialMaxFiles && lines <= trivialMaxLines) {
		return review.TierTrivial
	}
	if len(areas) > broadMaxAreas || lines > broadMinLines || len(a.files) >= broadMinFiles || dependency {
		return review.TierBroad
	}
	return review.TierLocal
}

// A trigger is one comprehensive trigger of §3.4 with the entry that backs
// it.
type trigger struct {
	observed bool
	text     string
}

// triggers returns the comprehensive triggers of the change:
//
//   - critical path: a behaviour-changing product file on a High path
//     (path-criticality, observed);
//   - broad behavioural spread: behaviour-changing product files in more
//     than broadMaxAreas top-level areas, or more than spreadMinLines
//     behaviour-changing lines (change-scope, observed);
//   - weak detection for important logic: a behaviour-changing High or
//     Medium source file with no test by convention (test-presence,
//     observed), or whose changed code a fresh coverage profile covers
//     below coverageWeak (coverage, observed);
//   - hard rollback: a migration, schema definition or destructive schema
//     statement (rollback, observed), or a data format definition
//     (rollback, qualitative);
//   - material ambiguity: a source file listed but not reviewed, such as
//     one over the size cap (change-scope, observed).
func (a *analysis) triggers() []trigger {
	var out []trigger
	var critical, weak, unreadable []string
	areas := map[string]bool{}
	lines := 0
	fresh := a.cov.observed() && !a.cov.stale()
	for _, ff := range a.files {
		if ff.critical() {
			critical = append(critical, ff.path+" ("+ff.reasons(highClasses|1<<catFinancial)+")")
		}
		if ff.shipped() && ff.behavioural() && !ff.skipped {
			areas[ff.area] = true
			lines += ff.lines
		}
		if ff.skippedSource {
			unreadable = append(unreadable, ff.path+": "+ff.f.Skip.String())
		}
		if ff.code && ff.shipped() && ff.behavioural() && (ff.risk == RiskHigh || ff.risk == RiskMedium) {
			switch fc, _ := a.cov.of(ff.path); {
			case ff.tests.kind == testMissing:
				weak = append(weak, ff.path+" ("+ff.risk+", no test found)")
			case fresh && fc != nil && fc.changedTotal > 0 && ratio(fc.changedCovered, fc.changedTotal) < coverageWeak:
				weak = append(weak, fmt.Sprintf("%s (%s, changed code %s covered)", ff.path, ff.risk,
					percent(fc.changedCovered, fc.changedTotal)))
			}
		}
	}
	if len(critical) > 0 {
		out = append(out, trigger{true, "critical path: " + listNames(critical, maxNamed)})
	}
	if len(areas) > broadMaxAreas {
		out = append(out, trigger{true, fmt.Sprintf("broad behavioural spread: %s (%s)",
			plural(len(areas), "top-level area"), listNames(sortedKeys(areas), maxNamed))})
	} else if lines > spreadMinLines {
		out = append(out, trigger{true, fmt.Sprintf("broad behavioural spread: %s change behaviour", plural(lines, "line"))})
	}
	if len(weak) > 0 {
		out = append(out, trigger{true, "weak detection for important logic: " + listNames(weak, maxNamed)})
	}
	m := a.rb
	if len(m.hard) > 0 {
		out = append(out, trigger{true, "hard rollback: " + listNames(m.hard, maxNamed)})
	}
	if len(unreadable) > 0 {
		out = append(out, trigger{true, "material ambiguity: source not reviewed (" + listNames(unreadable, maxNamed) + ")"})
	}
	if len(m.formats) > 0 {
		out = append(out, trigger{false, "possibly hard rollback: data format definitions change (" +
			listNames(m.formats, maxNamed) + ")"})
	}
	return out
}

// depth derives the recommended depth in the deterministic order of §3.4:
//
//  1. any trigger backed by an observed entry → comprehensive;
//  2. evidence incomplete (an entry unavailable: history or coverage) or
//     inconclusive (a coverage profile older than the changed files) →
//     standard; missing evidence never escalates by itself;
//  3. any trigger backed by a qualitative entry → comprehensive;
//  4. every entry available and showing a narrow (TRIVIAL or LOCAL),
//     reversible (no rollback marker), tested (every behaviour-changing
//     source file has a test; coverage of each at least coverageGood) and
//     non-critical (no High file) change → basic;
//  5. otherwise → standard.
func (a *analysis) depth(r *review.Risk) (review.Depth, string) {
	var observed, qualitative []string
	for _, t := range a.triggers() {
		if t.observed {
			observed = append(observed, t.text)
		} else {
			qualitative = append(qualitative, t.text)
		}
	}
	if len(observed) > 0 {
		return review.DepthComprehensive, "comprehensive: " + strings.Join(append(observed, qualitative...), "; ")
	}
	var missing []string
	for _, e := range r.Evidence {
		if e.Availability == review.Unavailable {
			missing = append(missing, string(e.Signal))
		}
	}
	if len(missing) > 0 || a.cov.stale() {
		why := ""
		if len(missing) > 0 {
			why = "evidence is incomplete (" + strings.Join(missing, " and ") + " unavailable)"
		} else {
			why = "coverage is inconclusive (the profile is older than changed files)"
		}
		reason := "standard: " + why + " and no observed evidence calls for comprehensive; missing evidence alone never escalates"
		if len(qualitative) > 0 {
			reason += "; qualitative cue to confirm: " + strings.Join(qualitative, "; ")
		}
		return review.DepthStandard, reason
	}
	if len(qualitative) > 0 {
		return review.DepthComprehensive, "comprehensive: " + strings.Join(qualitative, "; ")
	}
	notBasic := a.notBasic(r)
	if len(notBasic) == 0 {
		return review.DepthBasic, "basic: every signal is available and shows a narrow (" + string(r.Tier) +
			"), reversible, tested change that touches no critical path"
	}
	return review.DepthStandard, "standard: no comprehensive trigger, but not basic: " + strings.Join(notBasic, "; ")
}

// notBasic lists what keeps a change with complete evidence from basic.
func (a *analysis) notBasic(r *review.Risk) []string {
	var out []string
	if r.Tier != review.TierTrivial && r.Tier != review.TierLocal {
		out = append(out, "scope is "+string(r.Tier))
	}
	m := a.rb
	if len(m.reversals) > 0 {
		out = append(out, "rollback involves "+listNames(m.reversals, maxNamed))
	}
	var untested, uncovered []string
	for _, ff := range a.files {
		switch ff.tests.kind {
		case testMissing:
			untested = append(untested, ff.path)
		case testUnchecked:
			untested = append(untested, ff.path+" (not checked)")
		}
		if ff.code && ff.shipped() && ff.behavioural() && ff.f.Status != review.StatusDeleted {
			fc, p := a.cov.of(ff.path)
			switch {
			case fc == nil:
				uncovered = append(uncovered, ff.path+" (not in a coverage profile)")
			case fc.changedTotal > 0 && ratio(fc.changedCovered, fc.changedTotal) < coverageGood:
				uncovered = append(uncovered, fmt.Sprintf("%s (%s of changed %s)", ff.path,
					percent(fc.changedCovered, fc.changedTotal), p.unit()))
			}
		}
	}
	if len(untested) > 0 {
		out = append(out, "no test for "+listNames(untested, maxNamed))
	}
	if len(uncovered) > 0 {
		out = append(out, fmt.Sprintf("coverage below %s: %s", percent(int(coverageGood*100), 100),
			listNames(uncovered, maxNamed)))
	}
	return out
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}

func percent(n, d int) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d%%", n*100/d)
}
