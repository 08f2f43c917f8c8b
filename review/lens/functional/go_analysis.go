package functional

import (
	"bytes"
	"context"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/appends"
	"golang.org/x/tools/go/analysis/passes/assign"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/bools"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/deepequalerrors"
	"golang.org/x/tools/go/analysis/passes/defers"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/httpresponse"
	"golang.org/x/tools/go/analysis/passes/ifaceassert"
	"golang.org/x/tools/go/analysis/passes/loopclosure"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/nilfunc"
	"golang.org/x/tools/go/analysis/passes/nilness"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/shift"
	"golang.org/x/tools/go/analysis/passes/sigchanyzer"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/stringintconv"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/tests"
	"golang.org/x/tools/go/analysis/passes/timeformat"
	"golang.org/x/tools/go/analysis/passes/unmarshal"
	"golang.org/x/tools/go/analysis/passes/unreachable"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
	"golang.org/x/tools/go/analysis/passes/waitgroup"
	"golang.org/x/tools/go/packages"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/syntax"
)

// GoAnalysis runs go vet's type-aware analyzers over the packages that
// hold changed Go files.
var GoAnalysis = &lens.Rule{
	RuleInfo: review.RuleInfo{
		ID:          "functional/go-analysis",
		Perspective: review.Functional,
		Category:    CatLogic,
		Severity:    review.SeverityMedium,
		Languages:   []review.Language{review.LangGo},
		Depth:       review.DepthComprehensive,
		CrossFile:   true,
		Summary:     "Type-checked analysis finding",
		Doc: "Some defects need type information: a Printf verb that does not match its argument, a mutex " +
			"copied by value, errors.As with a non-pointer target, a nil dereference on a path, an HTTP " +
			"response used before its error is checked, json.Unmarshal into a non-pointer. At depth " +
			"comprehensive the rule type-checks the packages that hold changed Go files and runs the analyzers " +
			"of go vet (printf, copylock, lostcancel, errorsas, httpresponse, unmarshal, ...) plus nilness, and " +
			"reports their diagnostics on changed lines, each in the category its analyzer belongs to. It runs after " +
			"the other rules and only when asked for (--depth comprehensive, depth: comprehensive in the configuration, " +
			"or within analysis.budget there; from .reviewls.yaml only in a repository the user trusted with reviewls " +
			"trust, as loading packages compiles the repository's code; the editor runs it in the background), never " +
			"because comprehensive is the recommended depth; the review says when it was skipped or ran out of time. It never " +
			"runs project code and never uses the network: packages are loaded in the user's Go environment (so the " +
			"build cache of their go build is reused) with GOPROXY=off, GOSUMDB=off, -mod=readonly (or vendor), " +
			"GOWORK=off (unless the user's GOWORK names a file) and GOTOOLCHAIN=local, unsaved edits are passed as " +
			"overlays, and a module that cannot be loaded (a toolchain that is not installed, a module missing from the " +
			"module cache, build errors) yields no findings rather than an error, and the review says why. Facts are not carried across packages, so a printf wrapper declared in another package is " +
			"not recognised; diagnostics already reported by functional/lost-cancel or loop-var-capture are left " +
			"to them.",
		Bad:  "var mu sync.Mutex\ncopy := mu // copies the lock\nfmt.Printf(\"%d items\\n\", name)",
		Good: "p := &mu\nfmt.Printf(\"%s items\\n\", name)",
	},
	Run: runGoAnalysis,
}

// analyzerInfo is how an analyzer's diagnostics are filed.
type analyzerInfo struct {
	category string
	severity review.Severity
	// why says what the defect does, appended to the analyzer's message.
	why string
}

// goAnalyzers are the analyzers the rule runs, with their categories and
// severities: High where the defect panics, races or silently corrupts.
var goAnalyzers = map[*analysis.Analyzer]analyzerInfo{
	printf.Analyzer:           {CatLogic, review.SeverityMedium, "the output is garbled (%!d(string=...)) or the call reads arguments that are not there"},
	copylock.Analyzer:         {CatConcurrency, review.SeverityHigh, "the copy has its own lock state, so the original is no longer protected"},
	lostcancel.Analyzer:       {CatConcurrency, review.SeverityMedium, "the context and its timer leak until the parent is cancelled"},
	errorsas.Analyzer:         {CatErrors, review.SeverityHigh, "errors.As panics at run time"},
	httpresponse.Analyzer:     {CatErrors, review.SeverityHigh, "the response is nil when the request fails, so this dereference panics"},
	unmarshal.Analyzer:        {CatContract, review.SeverityHigh, "decoding always fails and the value stays empty"},
	nilness.Analyzer:          {CatEdgeCases, review.SeverityHigh, ""},
	loopclosure.Analyzer:      {CatConcurrency, review.SeverityHigh, "the closure sees the loop variable change under it"},
	atomic.Analyzer:           {CatConcurrency, review.SeverityHigh, "the assignment races with the atomic update it wraps"},
	waitgroup.Analyzer:        {CatConcurrency, review.SeverityHigh, "Wait can return before the goroutine has called Add"},
	unusedresult.Analyzer:     {CatLogic, review.SeverityMedium, "the call has no effect"},
	bools.Analyzer:            {CatLogic, review.SeverityMedium, "the condition does not test what it reads as"},
	stringintconv.Analyzer:    {CatLogic, review.SeverityMedium, "the conversion yields a rune, not decimal digits"},
	structtag.Analyzer:        {CatContract, review.SeverityMedium, "encoders ignore or misread the tag"},
	shift.Analyzer:            {CatLogic, review.SeverityMedium, "the shift always yields zero"},
	sigchanyzer.Analyzer:      {CatConcurrency, review.SeverityMedium, "a signal that arrives while nobody receives is dropped"},
	assign.Analyzer:           {CatLogic, review.SeverityMedium, "the assignment does nothing, which usually hides a typo"},
	defers.Analyzer:           {CatLogic, review.SeverityMedium, "the argument is evaluated when defer runs, not when the function returns"},
	stdmethods.Analyzer:       {CatContract, review.SeverityMedium, "the method does not satisfy the standard interface it imitates"},
	tests.Analyzer:            {CatContract, review.SeverityMedium, "the test, benchmark or example is malformed and does not run as intended"},
	timeformat.Analyzer:       {CatLogic, review.SeverityMedium, "the layout prints the wrong date"},
	unreachable.Analyzer:      {CatLogic, review.SeverityLow, ""},
	nilfunc.Analyzer:          {CatLogic, review.SeverityMedium, "the comparison is constant"},
	ifaceassert.Analyzer:      {CatLogic, review.SeverityMedium, "the assertion can never succeed"},
	appends.Analyzer:          {CatLogic, review.SeverityMedium, "the append adds nothing"},
	testinggoroutine.Analyzer: {CatConcurrency, review.SeverityMedium, "t.Fatal in a goroutine does not stop the test"},
	deepequalerrors.Analyzer:  {CatLogic, review.SeverityMedium, "errors are compared by value instead of with errors.Is"},
}

// goDiag is one analyzer diagnostic on a reviewed file.
type goDiag struct {
	line, col int
	analyzer  *analysis.Analyzer
	message   string
}

// goAnalysisResult holds the diagnostics of one change set, by file path.
type goAnalysisResult struct {
	byFile map[string][]goDiag
	// cut says the context ended before every module was analysed.
	cut bool
}

// goAnalysisMemo holds a change set's analysis; one cut short by its
// context is done again by a later pass that has time.
type goAnalysisMemo struct {
	mu  sync.Mutex
	res *goAnalysisResult
}

var goAnalysisOf review.Memo[*goAnalysisMemo]

func runGoAnalysis(p *lens.Pass) {
	m := goAnalysisOf.OfSet(p.ChangeSet, func() *goAnalysisMemo { return &goAnalysisMemo{} })
	m.mu.Lock()
	if m.res == nil || m.res.cut && p.Ctx.Err() == nil {
		m.res = analyzeChangeSet(p.Ctx, p.ChangeSet)
	}
	res := m.res
	m.mu.Unlock()
	diags := res.byFile[p.File.Path]
	if len(diags) == 0 {
		return
	}
	covered := syntacticLines(p)
	g := syntax.Go(p.File)
	for _, d := range diags {
		if !p.Changed(d.line) {
			continue
		}
		if (d.analyzer == lostcancel.Analyzer || d.analyzer == loopclosure.Analyzer) && covered[d.line] {
			continue
		}
		info := goAnalyzers[d.analyzer]
		sev := info.severity
		if d.analyzer == nilness.Analyzer && !strings.Contains(d.message, "nil dereference") {
			sev = review.SeverityMedium // impossible or tautological conditions
		}
		msg := d.message
		if info.why != "" {
			msg += ": " + info.why
		}
		p.Report(lens.Report{
			Line: d.line, Col: d.col,
			Title:     vetTitle(d.analyzer.Name, d.message),
			Message:   strings.ToUpper(msg[:1]) + msg[1:] + ".",
			Symbol:    g.EnclosingFunc(d.line),
			Category:  info.category,
			Severity:  sev,
			Suggested: fmt.Sprintf("Fix the code the %s analyzer points at (go vet reports the same); see https://pkg.go.dev/golang.org/x/tools/go/analysis/passes/%s.", d.analyzer.Name, d.analyzer.Name),
		})
	}
}

// vetTitle is the headline of an analyzer's diagnostic: "name: message",
// cut before its last clause that still fits a headline when the whole
// would not (the full text is the finding's message).
func vetTitle(name, message string) string {
	title := name + ": " + message
	if len(title) <= review.HeadlineMax {
		return title
	}
	cut := 0
	for _, sep := range []string{", ", "; ", " (", " to ", " or "} {
		if i := strings.LastIndex(title[:review.HeadlineMax], sep); i > cut {
			cut = i
		}
	}
	if cut <= len(name)+2 {
		return title
	}
	return title[:cut]
}

// syntacticLines returns the lines where the syntactic rules that overlap
// lostcancel and loopclosure already report.
func syntacticLines(p *lens.Pass) map[int]bool {
	lines := map[int]bool{}
	l := lens.New(review.Functional, LostCancel, LoopVarCapture)
	got, _ := l.Check(p.Ctx, p.ChangeSet, []*review.File{p.File}, review.CheckOptions{Depth: review.DepthStandard, Config: p.Config})
	for _, fd := range got {
		if fd.Span.Path == p.File.Path {
			lines[fd.Span.StartLine] = true
		}
	}
	return lines
}

// analyzeChangeSet loads, per module, the packages that hold reviewed Go
// files and runs the analyzers on them. Failures leave a module out.
func analyzeChangeSet(ctx context.Context, cs *review.ChangeSet) *goAnalysisResult {
	res := &goAnalysisResult{byFile: map[string][]goDiag{}}
	if cs.Root == "" {
		return res
	}
	type module struct {
		dir  string
		pkgs map[string]bool // package directories, relative to the module
		// tests reports a changed test file: only then are test variants
		// loaded, which doubles the work.
		tests bool
	}
	modules := map[string]*module{}
	reviewed := map[string]*review.File{} // absolute path -> file
	for _, f := range cs.Files {
		if f.Language != review.LangGo || !f.Reviewed() {
			continue
		}
		mod := lens.GoModuleOf(cs, f.Path)
		if mod == nil {
			continue
		}
		m := modules[mod.Dir]
		if m == nil {
			m = &module{dir: mod.Dir, pkgs: map[string]bool{}}
			modules[mod.Dir] = m
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(path.Dir(f.Path), mod.Dir), "/")
		if mod.Dir == "." {
			rel = path.Dir(f.Path)
		}
		m.pkgs[rel] = true
		m.tests = m.tests || strings.HasSuffix(f.Path, "_test.go")
		reviewed[filepath.Join(cs.Root, filepath.FromSlash(f.Path))] = f
	}
	if len(modules) == 0 {
		review.AnalysisLoadOf.OfSet(cs, review.NewAnalysisLoad).Set(0, "no changed Go file is in a module (no go.mod above it)")
		return res
	}
	roots := []string{cs.Root}
	if r, err := filepath.EvalSymlinks(cs.Root); err == nil && r != cs.Root {
		roots = append(roots, r)
	}
	relPath := func(abs string) string {
		for _, r := range roots {
			if rel, err := filepath.Rel(r, abs); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
		return ""
	}
	seen := map[string]bool{}
	loaded, why := 0, ""
	for _, m := range modules {
		if ctx.Err() != nil {
			break
		}
		dir := filepath.Join(cs.Root, filepath.FromSlash(m.dir))
		var patterns []string
		for rel := range m.pkgs {
			if rel == "." || rel == "" {
				patterns = append(patterns, ".")
			} else {
				patterns = append(patterns, "./"+rel)
			}
		}
		sort.Strings(patterns)
		pkgs, reason := loadPackages(ctx, dir, patterns, m.tests, reviewed)
		loaded += len(pkgs)
		if why == "" {
			why = reason
		}
		for _, pkg := range pkgs {
			for _, d := range analyzePackage(pkg) {
				pos := pkg.Fset.Position(d.pos)
				rel := relPath(pos.Filename)
				if rel == "" || cs.File(rel) == nil {
					continue
				}
				key := fmt.Sprintf("%s:%d:%d:%s:%s", rel, pos.Line, pos.Column, d.analyzer.Name, d.message)
				if seen[key] {
					continue // a package and its test variant share files
				}
				seen[key] = true
				res.byFile[rel] = append(res.byFile[rel], goDiag{line: pos.Line, col: pos.Column, analyzer: d.analyzer, message: d.message})
			}
		}
	}
	res.cut = ctx.Err() != nil
	review.AnalysisLoadOf.OfSet(cs, review.NewAnalysisLoad).Set(loaded, why)
	for _, ds := range res.byFile {
		sort.Slice(ds, func(i, j int) bool {
			return ds[i].line < ds[j].line || ds[i].line == ds[j].line && ds[i].col < ds[j].col
		})
	}
	return res
}

// loadPackages type-checks the packages matching patterns in the module at
// dir, with the reviewed content of changed files as overlays. It returns
// the well-typed packages that hold a reviewed file; a package and its
// test variant are both kept only when the test variant is missing. When
// there is none, reason says why (see loadFailure).
func loadPackages(ctx context.Context, dir string, patterns []string, tests bool, reviewed map[string]*review.File) (out []*packages.Package, reason string) {
	// Only content that differs from the disk goes into the overlay: with
	// any overlay, go/packages distrusts export data and type-checks every
	// dependency from source, which is ten times slower.
	var overlay map[string][]byte
	for abs, f := range reviewed {
		if disk, err := os.ReadFile(abs); err != nil || !bytes.Equal(disk, f.Content) {
			if overlay == nil {
				overlay = map[string][]byte{}
			}
			overlay[abs] = f.Content
		}
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Context: ctx,
		Dir:     dir,
		Env:     loaderEnv(dir),
		Tests:   tests,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, listFailure(err)
	}
	hasTestVariant := map[string]bool{}
	for _, p := range pkgs {
		if p.ForTest != "" && p.ID != p.PkgPath {
			hasTestVariant[p.PkgPath] = true
		}
	}
	for _, p := range pkgs {
		switch {
		case len(p.Errors) > 0 || p.IllTyped || p.Types == nil || p.TypesInfo == nil:
			if reason == "" {
				reason = loadFailure(p)
			}
			continue
		case strings.HasSuffix(p.ID, ".test"):
			continue // the generated test main
		case p.ForTest == "" && hasTestVariant[p.PkgPath]:
			continue // its test variant holds the same files and more
		}
		for _, f := range p.CompiledGoFiles {
			if reviewed[f] != nil || reviewedUnder(f, reviewed) {
				out = append(out, p)
				break
			}
		}
	}
	if len(out) > 0 {
		return out, ""
	}
	if reason == "" {
		reason = "no changed package was loaded"
	}
	return nil, reason
}

// goVersionRE finds the version a go.mod needs in the go command's error
// under GOTOOLCHAIN=local.
var goVersionRE = regexp.MustCompile(`requires go >= ([0-9][0-9A-Za-z.\-]*)`)

// listFailure says why the go command could not list a module's
// packages.
func listFailure(err error) string {
	msg := err.Error()
	if m := goVersionRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("go.mod needs go%s (not installed; reviewls never downloads toolchains)", m[1])
	}
	if i := strings.Index(msg, "stderr: "); i >= 0 {
		msg = msg[i+len("stderr: "):]
	}
	msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n")
	return "the go command could not list the packages: " + strings.TrimPrefix(msg, "go: ")
}

// loadFailure says why package p, or a package it imports, did not load:
// a module that is not in the module cache (the analysis never downloads
// one), a go.sum without its entry, or errors in the package. Error
// messages are not quoted: they may cite the code.
func loadFailure(p *packages.Package) string {
	reason := ""
	packages.Visit([]*packages.Package{p}, func(q *packages.Package) bool { return reason == "" }, func(q *packages.Package) {
		for _, e := range q.Errors {
			switch {
			case reason != "":
			case strings.Contains(e.Msg, "module lookup disabled by GOPROXY=off"):
				reason = fmt.Sprintf("the module of %s is not in the module cache (run 'go mod download'; reviewls never downloads modules)", q.PkgPath)
			case strings.Contains(e.Msg, "missing go.sum entry"):
				reason = fmt.Sprintf("go.sum has no entry for the module of %s (run 'go mod download')", q.PkgPath)
			}
		}
	})
	if reason == "" {
		reason = fmt.Sprintf("%s does not type-check (run 'go vet' to see why)", p.PkgPath)
	}
	return reason
}

// loaderEnv is the environment of the go command that loads packages:
// the user's own, so that export data their go build or go vet left in
// the build cache is reused — its keys cover CGO_ENABLED and GOFLAGS'
// -tags and the like (forcing CGO_ENABLED=0 made package net, and every
// package that imports it, nearly all of moby, a different build to
// compile again) — with what keeps loading local and read-only: no
// network (no module proxy, checksum database or version control), no
// toolchain switch, no go.work but one the user's GOWORK names, and never
// -mod=mod, which writes go.mod.
func loaderEnv(dir string) []string {
	var flags []string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if !strings.HasPrefix(strings.TrimLeft(f, "-"), "mod=") {
			flags = append(flags, f)
		}
	}
	mod := "-mod=readonly"
	if _, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil {
		mod = "-mod=vendor"
	}
	flags = append(flags, mod, "-buildvcs=false")
	work := "off"
	if w := os.Getenv("GOWORK"); filepath.IsAbs(w) {
		work = w // the user's own workspace file, never the repository's
	}
	return append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOVCS=*:off", "GOFLAGS="+strings.Join(flags, " "), "GOWORK="+work, "GOTOOLCHAIN=local")
}

// reviewedUnder matches a file path reported by go list against reviewed
// files when the two differ only by symbolic links.
func reviewedUnder(f string, reviewed map[string]*review.File) bool {
	r, err := filepath.EvalSymlinks(f)
	if err != nil {
		return false
	}
	for abs := range reviewed {
		if a, err := filepath.EvalSymlinks(abs); err == nil && a == r {
			return true
		}
	}
	return false
}

// rawDiag is a diagnostic before its position is resolved.
type rawDiag struct {
	pos      token.Pos
	analyzer *analysis.Analyzer
	message  string
}

type objectFactKey struct {
	obj types.Object
	typ reflect.Type
}

type packageFactKey struct {
	pkg *types.Package
	typ reflect.Type
}

// analyzePackage runs every analyzer of goAnalyzers, and what they
// require, on one package. Facts are kept within the package: facts about
// other packages are not computed, which costs some precision (printf
// wrappers of other packages) and saves type-checking every dependency
// from source. A failing or panicking analyzer is skipped.
func analyzePackage(pkg *packages.Package) []rawDiag {
	var diags []rawDiag
	results := map[*analysis.Analyzer]any{}
	failed := map[*analysis.Analyzer]bool{}
	objFacts := map[objectFactKey]analysis.Fact{}
	pkgFacts := map[packageFactKey]analysis.Fact{}
	module := &analysis.Module{}
	if pkg.Module != nil {
		module.Path, module.Version, module.GoVersion = pkg.Module.Path, pkg.Module.Version, pkg.Module.GoVersion
	}
	var run func(a *analysis.Analyzer) bool
	run = func(a *analysis.Analyzer) bool {
		if _, ok := results[a]; ok {
			return true
		}
		if failed[a] {
			return false
		}
		inputs := map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			if !run(req) {
				failed[a] = true
				return false
			}
			inputs[req] = results[req]
		}
		_, report := goAnalyzers[a]
		pass := &analysis.Pass{
			Analyzer:   a,
			Fset:       pkg.Fset,
			Files:      pkg.Syntax,
			OtherFiles: pkg.OtherFiles,
			Pkg:        pkg.Types,
			TypesInfo:  pkg.TypesInfo,
			TypesSizes: pkg.TypesSizes,
			Module:     module,
			ResultOf:   inputs,
			Report: func(d analysis.Diagnostic) {
				if report {
					diags = append(diags, rawDiag{d.Pos, a, d.Message})
				}
			},
			ReadFile: func(name string) ([]byte, error) { return nil, fmt.Errorf("%s: reading files is not supported", name) },
			ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
				f, ok := objFacts[objectFactKey{obj, reflect.TypeOf(fact)}]
				if ok {
					reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(f).Elem())
				}
				return ok
			},
			ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
				objFacts[objectFactKey{obj, reflect.TypeOf(fact)}] = fact
			},
			ImportPackageFact: func(p *types.Package, fact analysis.Fact) bool {
				f, ok := pkgFacts[packageFactKey{p, reflect.TypeOf(fact)}]
				if ok {
					reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(f).Elem())
				}
				return ok
			},
			ExportPackageFact: func(fact analysis.Fact) {
				pkgFacts[packageFactKey{pkg.Types, reflect.TypeOf(fact)}] = fact
			},
			AllObjectFacts: func() []analysis.ObjectFact {
				var out []analysis.ObjectFact
				for k, f := range objFacts {
					out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
				}
				return out
			},
			AllPackageFacts: func() []analysis.PackageFact {
				var out []analysis.PackageFact
				for k, f := range pkgFacts {
					out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
				}
				return out
			},
		}
		res, err := runAnalyzerSafe(a, pass)
		if err != nil {
			failed[a] = true
			return false
		}
		results[a] = res
		return true
	}
	names := make([]*analysis.Analyzer, 0, len(goAnalyzers))
	for a := range goAnalyzers {
		names = append(names, a)
	}
	sort.Slice(names, func(i, j int) bool { return names[i].Name < names[j].Name })
	for _, a := range names {
		run(a)
	}
	return diags
}

// runAnalyzerSafe runs one analyzer, turning a panic into an error: an
// analyzer bug must not take the review down.
func runAnalyzerSafe(a *analysis.Analyzer, pass *analysis.Pass) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("analyzer %s panicked: %v", a.Name, r)
		}
	}()
	return a.Run(pass)
}
