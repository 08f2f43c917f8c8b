package review

import (
	"fmt"
	"sync"
	"time"
)

// AnalysisMode says when a run performs the type-aware analysis: the
// whole-package rules of comprehensive depth (functional/go-analysis),
// which load and type-check the changed Go packages and can take from a
// second to minutes (a cold Go build cache compiles every dependency).
type AnalysisMode int

const (
	// AnalysisAuto runs it within the run when the depth used is
	// comprehensive and was chosen (by the request, the review loop or
	// the configuration's depth), or when the configuration sets an
	// analysis budget; otherwise the run skips it and says why. A
	// recommended depth alone never runs it.
	AnalysisAuto AnalysisMode = iota
	// AnalysisDefer never runs it within the run: when it applies, the
	// result's analysis is pending and the caller runs it afterwards
	// (the language server's background phase).
	AnalysisDefer
)

// AnalysisState is what became of the type-aware analysis in a run.
type AnalysisState string

// The analysis states. The empty state means the analysis does not
// apply: no reviewed Go file, or a depth below comprehensive chosen.
const (
	AnalysisRan      AnalysisState = "ran"
	AnalysisSkipped  AnalysisState = "skipped"
	AnalysisTimedOut AnalysisState = "timed_out"
	AnalysisPending  AnalysisState = "pending"
)

// Analysis records the type-aware analysis of a run. It is a fact about
// the run, not a finding.
type Analysis struct {
	State AnalysisState
	// Reason says why it was skipped, or what to do about a timeout, in
	// a few words.
	Reason string
	// NotRequested says it was skipped only because nobody asked for it:
	// the depth is comprehensive, but only recommended; asking for
	// comprehensive depth runs it.
	NotRequested bool
	// Blocked says a skipped analysis lacked a capability (an installed
	// toolchain, a module in the module cache, packages that load), not
	// a request or the user's trust.
	Blocked bool
	// Budget bounds the analysis when it runs.
	Budget time.Duration
}

// String is the one line the outputs show: "type-aware analysis
// skipped: not requested (use --depth comprehensive)"; empty when the
// analysis does not apply.
func (a Analysis) String() string {
	if a.State == "" {
		return ""
	}
	state := string(a.State)
	if a.State == AnalysisTimedOut {
		state = "timed out after " + a.Budget.String()
	}
	if a.Reason == "" {
		return "type-aware analysis " + state
	}
	return fmt.Sprintf("type-aware analysis %s: %s", state, a.Reason)
}

// AnalysisLoad is what the type-aware analysis of a change set could
// load: how many packages it analysed and, when it analysed none, why
// (an uninstalled toolchain, a module missing from the module cache, a
// package that does not type-check). The whole-package rules set it
// through [AnalysisLoadOf]; the engine reads it, so that an analysis that
// analysed nothing says so and why instead of "ran". It is safe for
// concurrent use.
type AnalysisLoad struct {
	mu       sync.Mutex
	set      bool
	packages int
	reason   string
}

// AnalysisLoadOf holds a change set's [AnalysisLoad].
var AnalysisLoadOf Memo[*AnalysisLoad]

// NewAnalysisLoad returns an empty AnalysisLoad, for AnalysisLoadOf.
func NewAnalysisLoad() *AnalysisLoad { return &AnalysisLoad{} }

// Set records the latest analysis: packages analysed, and why none was
// when packages is 0.
func (l *AnalysisLoad) Set(packages int, reason string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.set, l.packages, l.reason = true, packages, reason
}

// Get returns what Set recorded; ok is false when nothing was.
func (l *AnalysisLoad) Get() (packages int, reason string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.packages, l.reason, l.set
}
