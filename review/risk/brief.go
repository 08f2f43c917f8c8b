package risk

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
)

// maxPrimaryModules is how many directories the brief names as primary
// modules: the brief is a glance, and three directories hold the bulk of
// most changes.
const maxPrimaryModules = 3

// brief writes the change brief: facts only, no judgement.
func (a *analysis) brief(r *review.Risk) review.ChangeBrief {
	return review.ChangeBrief{
		Intent:         a.intent(),
		PrimaryModules: a.primaryModules(),
		RiskAreas:      a.riskAreas(),
		TestNotes:      a.testNotes(),
		RolloutNotes:   a.rolloutNotes(),
	}
}

// statusVerbs orders the verbs of the intent sentence.
var statusVerbs = []struct {
	verb     string
	statuses []review.FileStatus
}{
	{"modifies", []review.FileStatus{review.StatusModified}},
	{"adds", []review.FileStatus{review.StatusAdded, review.StatusUntracked}},
	{"deletes", []review.FileStatus{review.StatusDeleted}},
	{"renames", []review.FileStatus{review.StatusRenamed}},
}

// intent states what the change does to which files, e.g. "Modifies 3 Go
// files in review/gitdiff and adds 1 test."
func (a *analysis) intent() string {
	if len(a.files) == 0 {
		return "No changes."
	}
	var product, tests []*fileFacts
	var skipped []string
	for _, ff := range a.files {
		switch {
		case ff.skipped:
			skipped = append(skipped, ff.path)
		case ff.test:
			tests = append(tests, ff)
		default:
			product = append(product, ff)
		}
	}
	var clauses []string
	if len(product) > 0 {
		clauses = append(clauses, verbPhrases(product, false)+location(product))
	}
	if len(tests) > 0 {
		s := verbPhrases(tests, true)
		if len(product) == 0 {
			s += location(tests)
		}
		clauses = append(clauses, s)
	}
	s := strings.Join(clauses, " and ")
	if len(skipped) > 0 {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("lists %s without reviewing it (%s)", plural(len(skipped), "file"), listNames(skipped, maxNamed))
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// verbPhrases renders "modifies 3 Go files, adds 1 file and deletes 2 YAML
// files" (or "… tests").
func verbPhrases(files []*fileFacts, tests bool) string {
	var parts []string
	for _, sv := range statusVerbs {
		var group []*fileFacts
		for _, ff := range files {
			if slices.Contains(sv.statuses, ff.f.Status) {
				group = append(group, ff)
			}
		}
		if len(group) == 0 {
			continue
		}
		noun := "file"
		if tests {
			noun = "test"
		} else if lang := commonLang(group); lang != "" {
			noun = lang + " file"
		}
		parts = append(parts, sv.verb+" "+plural(len(group), noun))
	}
	switch len(parts) {
	case 0:
		return "changes " + plural(len(files), "file")
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func commonLang(files []*fileFacts) string {
	name := langName(files[0].lang)
	for _, ff := range files[1:] {
		if langName(ff.lang) != name {
			return ""
		}
	}
	return name
}

// location says where files live: " in dir", " at the repository root",
// " under area/" or " across N directories".
func location(files []*fileFacts) string {
	dirs := map[string]bool{}
	areas := map[string]bool{}
	for _, ff := range files {
		dirs[ff.dir] = true
		areas[ff.area] = true
	}
	switch {
	case len(dirs) == 1 && files[0].dir == ".":
		return " at the repository root"
	case len(dirs) == 1:
		return " in " + files[0].dir
	case len(areas) == 1 && files[0].area != ".":
		return " under " + files[0].area + "/"
	}
	return " across " + plural(len(dirs), "directory")
}

// primaryModules names the directories with the most changed lines (then
// the most files, then by name).
func (a *analysis) primaryModules() []string {
	type mod struct {
		dir          string
		lines, files int
	}
	byDir := map[string]*mod{}
	for _, ff := range a.files {
		if ff.skipped {
			continue
		}
		m := byDir[ff.dir]
		if m == nil {
			m = &mod{dir: ff.dir}
			byDir[ff.dir] = m
		}
		m.lines += ff.lines
		m.files++
	}
	mods := make([]*mod, 0, len(byDir))
	for _, m := range byDir {
		mods = append(mods, m)
	}
	slices.SortFunc(mods, func(x, y *mod) int {
		return cmp.Or(y.lines-x.lines, y.files-x.files, cmp.Compare(x.dir, y.dir))
	})
	out := []string{}
	for _, m := range mods[:min(len(mods), maxPrimaryModules)] {
		out = append(out, m.dir)
	}
	return out
}

// riskAreas names the hotspot classes the change touches, with the number
// of files, in canonical order, plus financial logic.
func (a *analysis) riskAreas() []string {
	counts := map[cat]int{}
	for _, ff := range a.files {
		for c := range numClasses {
			if ff.cats.has(cat(c)) {
				counts[cat(c)]++
			}
		}
		if ff.cats.has(catFinancial) && ff.shipped() {
			counts[catFinancial]++
		}
	}
	out := []string{}
	for c := range numClasses {
		if n := counts[cat(c)]; n > 0 {
			out = append(out, fmt.Sprintf("%s (%s)", classNames[c], plural(n, "file")))
		}
	}
	if n := counts[catFinancial]; n > 0 {
		out = append(out, fmt.Sprintf("financial logic (%s)", plural(n, "file")))
	}
	return out
}

// testNotes summarises the test and coverage evidence in a sentence or two.
func (a *analysis) testNotes() string {
	var changed, missing []string
	need, found := 0, 0
	for _, ff := range a.files {
		if ff.test {
			changed = append(changed, ff.path)
		}
		switch ff.tests.kind {
		case testFound:
			need++
			found++
		case testMissing:
			need++
			missing = append(missing, ff.path)
		case testUnchecked:
			need++
		}
	}
	var parts []string
	if len(changed) > 0 {
		parts = append(parts, "Changes "+plural(len(changed), "test file")+" ("+listNames(changed, maxNamed)+").")
	}
	if need > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d behaviour-changing source files have a test by convention.", found, need))
	}
	if len(missing) > 0 {
		parts = append(parts, "No test found for "+listNames(missing, maxNamed)+".")
	}
	if a.cov.observed() {
		var t fileCov
		for _, ff := range a.files {
			if fc, _ := a.cov.of(ff.path); fc != nil {
				t.changedTotal += fc.changedTotal
				t.changedCovered += fc.changedCovered
			}
		}
		if t.changedTotal > 0 {
			s := fmt.Sprintf("Coverage profile covers %s of the changed code", percent(t.changedCovered, t.changedTotal))
			if a.cov.stale() {
				s += " (profile older than the change)"
			}
			parts = append(parts, s+".")
		}
	}
	if len(parts) == 0 {
		return "No tests involved: no behaviour-changing source file."
	}
	return strings.Join(parts, " ")
}

// rolloutNotes names migrations, schema and format changes, configuration,
// dependency manifests, build and CI files, and feature flags.
func (a *analysis) rolloutNotes() string {
	groups := map[string][]string{}
	var order []string
	add := func(k, p string) {
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	m := a.rb
	for _, h := range m.hard {
		add("hard to reverse", h)
	}
	for _, f := range m.formats {
		add("data format definitions", f)
	}
	for _, ff := range a.files {
		switch {
		case ff.test || ff.doc:
		case ff.supply == supplyManifest || ff.supply == supplyLockfile:
			add("dependencies", ff.path)
		case ff.supply != "":
			add(ff.supply, ff.path)
		case ff.config:
			add("configuration", ff.path)
		}
	}
	for _, r := range m.reversals {
		add("reversal", r)
	}
	if len(order) == 0 {
		return "No migrations, configuration, dependency manifests or feature flags in the change."
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = k + ": " + listNames(groups[k], maxNamed)
	}
	return strings.ToUpper(parts[0][:1]) + strings.Join(parts, "; ")[1:] + "."
}

// plural renders "1 file", "2 files", "3 directories".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	switch {
	case strings.HasSuffix(noun, "y") && !strings.HasSuffix(noun, "ey"):
		noun = noun[:len(noun)-1] + "ies"
	default:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}

// listNames joins names, naming at most limit and summarising the rest.
func listNames(names []string, limit int) string {
	if len(names) <= limit {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:limit], ", ") + fmt.Sprintf(" and %d more", len(names)-limit)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func pathExt(p string) string { return path.Ext(p) }

// langName returns the display name of a language, or "" when unknown.
func langName(lang review.Language) string { return lang.Info().Name }
