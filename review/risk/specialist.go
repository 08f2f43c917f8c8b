package risk

import (
	"slices"

	"github.com/reviewls/reviewls/review"
)

// specialists tags the specialist concern classes whose signals fire
// (§5.2, §5.3), in the order security, supply-chain, ai, accessibility,
// efficiency, privacy; a concern with no signal is left out. Tests and
// documentation raise no concern.
//
//   - security: a file with an auth, crypto, secrets, parsing or
//     deserialization hotspot; signals are the classes.
//   - supply-chain: dependency manifests and lockfiles (even skipped ones),
//     container builds, CI workflows and build config; signals are the kinds.
//   - ai: LLM or model SDKs in added lines or manifests, and prompt files;
//     signals are what matched.
//   - accessibility: markup, stylesheets and templates.
//   - efficiency: a sleep or a database call inside a loop (N+1), polling,
//     cron or batch jobs.
//   - privacy: personal-data fields in added lines, and such a field in a
//     log or print call.
func (a *analysis) specialists() []review.SpecialistSignal {
	type acc struct{ signals, files []string }
	by := map[string]*acc{}
	add := func(concern, signal, file string) {
		s := by[concern]
		if s == nil {
			s = &acc{}
			by[concern] = s
		}
		if !slices.Contains(s.signals, signal) {
			s.signals = append(s.signals, signal)
		}
		if !slices.Contains(s.files, file) {
			s.files = append(s.files, file)
		}
	}
	for _, ff := range a.files {
		if ff.test || ff.doc && !ff.prompt {
			continue
		}
		for c := range numClasses {
			if securityClasses.has(cat(c)) && ff.cats.has(cat(c)) {
				add(ConcernSecurity, classNames[c], ff.path)
			}
		}
		if ff.supply != "" {
			add(ConcernSupplyChain, ff.supply, ff.path)
		}
		if ff.ui != "" {
			add(ConcernAccessibility, ff.ui, ff.path)
		}
		for _, h := range ff.hits {
			switch h.c {
			case catAI:
				add(ConcernAI, h.label, ff.path)
			case catPolling:
				add(ConcernEfficiency, "polling", ff.path)
			case catSchedule:
				add(ConcernEfficiency, "cron or batch job", ff.path)
			case catPII:
				add(ConcernPrivacy, "personal data: "+h.label, ff.path)
			}
		}
		if ff.piiLogged > 0 {
			add(ConcernPrivacy, "personal data in a log call", ff.path)
		}
		for _, h := range ff.loopCues {
			add(ConcernEfficiency, h.label, ff.path)
		}
	}
	out := []review.SpecialistSignal{}
	for _, concern := range []string{ConcernSecurity, ConcernSupplyChain, ConcernAI, ConcernAccessibility,
		ConcernEfficiency, ConcernPrivacy} {
		if s := by[concern]; s != nil {
			slices.Sort(s.signals)
			slices.Sort(s.files)
			out = append(out, review.SpecialistSignal{Concern: concern, Signals: s.signals, Files: s.files})
		}
	}
	return out
}
