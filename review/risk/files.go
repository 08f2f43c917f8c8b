package risk

import (
	"path"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// Supply-chain kinds of a file (§5.3 "Supply chain / SSSC").
const (
	supplyManifest = "dependency manifest"
	supplyLockfile = "lockfile"
	supplyDocker   = "container build"
	supplyCI       = "CI workflow"
	supplyBuild    = "build config"
)

// Accessibility surfaces of a file.
const (
	uiMarkup     = "markup"
	uiStylesheet = "stylesheet"
	uiTemplate   = "template"
)

// kindLine is the line of a hit that comes from the kind of the file (a
// migration, a secret file) rather than from a word of its path.
const kindLine = -1

// A numLine is one line of a file with its 1-based number.
type numLine struct {
	n    int
	text string
}

// fileFacts is what Assess learns about one changed file.
type fileFacts struct {
	*facts // shared by every change set that holds the file
	risk   string
	tests  testState
}

// facts are what a changed file says about risk on its own.
type facts struct {
	f    *review.File
	path string
	lang review.Language
	// dir is the directory (the package); area the first path segment, or
	// "." for a file at the root.
	dir, area string

	skipped bool // listed but not reviewed
	// skippedSource is a skipped file that holds source code nobody can
	// read in this review (size cap, unknown encoding): material ambiguity.
	skippedSource bool
	test, doc     bool
	config        bool   // configuration or data (YAML, JSON, TOML, INI, .env)
	code          bool   // a programming language: changed behaviour wants tests
	supply        string // supply-chain kind, "" when none
	ui            string // accessibility surface, "" when none
	prompt        bool   // an LLM prompt file
	migration     bool   // a database migration
	downMigration bool   // a reverse migration
	schema        bool   // a database schema definition
	format        bool   // a wire or persisted data format definition
	secretFile    bool   // a file that stores secrets (.env, private keys)

	// mechanical says why the change cannot alter behaviour ("rename only",
	// "whitespace only", "comments only", "no content change"); it is empty
	// when the change may alter behaviour.
	mechanical string
	// lines counts added plus deleted lines of a reviewed file.
	lines int

	content []string
	added   []numLine
	// hits are the cues found, deduplicated by category and label; cats is
	// their set of categories.
	hits []hit
	cats catSet
	// loopCues are efficiency cues that need a loop around them ("sleep in
	// loop at line 12").
	loopCues []hit
	// piiLogged is the first added line that logs or prints a personal-data
	// field, or 0.
	piiLogged int
}

// behavioural reports whether the file's change may alter behaviour: it is
// reviewed or deleted, is not documentation and is not mechanical.
func (ff *facts) behavioural() bool {
	if ff.f.Status == review.StatusDeleted {
		return !ff.doc
	}
	return !ff.skipped && !ff.doc && ff.mechanical == ""
}

// shipped reports whether the file is product (not a test, not docs).
func (ff *facts) shipped() bool { return !ff.test && !ff.doc }

// factsOf memoises a file's facts on the file.
var factsOf review.Memo[*facts]

// cachedFacts returns f's facts for one analysis: the per-file ones are
// computed once per file and shared (in the language server an unchanged
// file is shared by every later change set, and they depend only on it,
// so nothing after newFacts may change them); the fields set by the
// whole-change analysis (tests, risk) start zero.
func cachedFacts(f *review.File, sc *scanner) *fileFacts {
	return &fileFacts{facts: factsOf.Of(f, func() *facts { return newFacts(f, sc) })}
}

func newFacts(f *review.File, sc *scanner) *facts {
	ff := &facts{f: f, path: f.Path, lang: f.Language}
	if ff.lang == review.LangUnknown {
		ff.lang = review.DetectLanguage(f.Path, f.Content)
	}
	ff.dir = path.Dir(f.Path)
	ff.area = "."
	if i := strings.IndexByte(f.Path, '/'); i > 0 {
		ff.area = f.Path[:i]
	}
	ff.classifyPath()
	ff.skipped = f.Skip != ""
	if ff.skipped {
		ff.skippedSource = ff.code && !ff.test && !generatedOrVendored(f.Path, f.Skip)
	} else {
		ff.lines = f.Added + f.Deleted
	}
	if f.Content != nil {
		ff.content = f.TextLines()
	}
	ff.added = addedLines(f, ff.content)
	deleted := deletedLines(f)
	if !ff.skipped {
		ff.mechanical = mechanicalReason(f, ff.lang, ff.added, deleted)
	}
	ff.scan(sc)
	return ff
}

// classifyPath sets the kinds that follow from the path alone.
func (ff *facts) classifyPath() {
	p := ff.path
	base := path.Base(p)
	lower := strings.ToLower(base)
	ext := strings.ToLower(path.Ext(base))
	ff.test = review.IsTestPath(p)
	ff.supply = supplyKind(p, lower, ff.lang)
	switch ff.lang {
	case review.LangGo, review.LangPython, review.LangJavaScript, review.LangJSX, review.LangTypeScript,
		review.LangTSX, review.LangJava, review.LangRust, review.LangRuby, review.LangC, review.LangCPP,
		review.LangCSharp, review.LangShell, review.LangSQL, review.LangVue, review.LangSvelte:
		ff.code = ff.supply == ""
	}
	ff.prompt = isPrompt(p, lower)
	ff.doc = ff.supply == "" && !ff.code && !ff.prompt && isDoc(lower, ext, ff.lang)
	switch {
	case ff.lang.IsMarkup():
		ff.ui = uiMarkup
	case slices.Contains([]string{".css", ".scss", ".sass", ".less", ".styl"}, ext):
		ff.ui = uiStylesheet
	case slices.Contains([]string{".tmpl", ".gotmpl", ".gohtml", ".hbs", ".handlebars", ".mustache", ".ejs",
		".erb", ".jinja", ".jinja2", ".j2", ".njk", ".twig", ".liquid", ".pug", ".haml", ".cshtml", ".razor"}, ext):
		ff.ui = uiTemplate
	}
	ff.config = ff.supply == "" && !ff.code && !ff.doc && ff.ui == "" && !ff.prompt && isConfig(lower, ext)
	if ff.test || ff.doc {
		return
	}
	ff.migration = isMigration(p, base)
	ff.downMigration = ff.migration && (strings.Contains(lower, ".down.") || strings.Contains(lower, "_down.") ||
		lower == "down.sql")
	switch {
	case slices.Contains([]string{"schema.sql", "structure.sql", "schema.rb", "schema.prisma"}, lower), ext == ".prisma":
		ff.schema = true
	case slices.Contains([]string{".proto", ".avsc", ".avdl", ".thrift", ".fbs", ".capnp"}, ext):
		ff.format = true
	}
}

func supplyKind(p, lower string, lang review.Language) string {
	switch lower {
	case "go.sum", "go.work.sum", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
		"bun.lock", "bun.lockb", "pipfile.lock", "poetry.lock", "uv.lock", "pdm.lock", "cargo.lock", "gemfile.lock",
		"composer.lock", "gradle.lockfile", "packages.lock.json", "mix.lock", "package.resolved", "podfile.lock":
		return supplyLockfile
	case "go.mod", "go.work", "package.json", "pipfile", "pyproject.toml", "setup.py", "setup.cfg",
		"constraints.txt", "cargo.toml", "gemfile", "pom.xml", "build.gradle", "build.gradle.kts",
		"settings.gradle", "settings.gradle.kts", "libs.versions.toml", "composer.json", "packages.config",
		"directory.packages.props", "mix.exs", "package.swift", "podfile", "vcpkg.json", "conanfile.txt",
		"conanfile.py", "environment.yml", "renovate.json", "dependabot.yml", "dependabot.yaml":
		return supplyManifest
	case "docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml", ".dockerignore":
		return supplyDocker
	case ".gitlab-ci.yml", "azure-pipelines.yml", "azure-pipelines.yaml", "jenkinsfile", ".travis.yml",
		"bitbucket-pipelines.yml", ".pre-commit-config.yaml", "action.yml", "action.yaml":
		return supplyCI
	case "makefile", "gnumakefile", "cmakelists.txt", "build", "build.bazel", "workspace", "workspace.bazel",
		"module.bazel", ".bazelrc", "meson.build", "build.rs", ".goreleaser.yml", ".goreleaser.yaml",
		"taskfile.yml", "taskfile.yaml", "justfile", "magefile.go":
		return supplyBuild
	}
	switch {
	case strings.HasSuffix(lower, ".lock") || strings.HasSuffix(lower, ".lockfile"):
		return supplyLockfile
	case strings.HasPrefix(lower, "requirements") && (strings.HasSuffix(lower, ".txt") || strings.HasSuffix(lower, ".in")),
		strings.HasSuffix(lower, ".gemspec"), strings.HasSuffix(lower, ".csproj"), strings.HasSuffix(lower, ".fsproj"):
		return supplyManifest
	case lang == review.LangDockerfile:
		return supplyDocker
	case lang == review.LangActions, strings.HasPrefix(p, ".circleci/"), strings.HasPrefix(p, ".buildkite/"),
		strings.HasPrefix(p, ".azure-pipelines/"), strings.HasPrefix(p, ".github/actions/"):
		return supplyCI
	case lang == review.LangMakefile, strings.HasSuffix(lower, ".bzl"), strings.HasSuffix(lower, ".cmake"),
		strings.HasPrefix(lower, "webpack.config."), strings.HasPrefix(lower, "vite.config."),
		strings.HasPrefix(lower, "rollup.config."):
		return supplyBuild
	}
	return ""
}

func isDoc(lower, ext string, lang review.Language) bool {
	switch lang {
	case review.LangMarkdown, review.LangText:
		return true
	}
	switch ext {
	case ".adoc", ".asciidoc", ".rst", ".txt", ".org":
		return true
	}
	if ext != "" {
		return false
	}
	switch lower {
	case "license", "licence", "copying", "notice", "authors", "contributors", "changelog", "changes",
		"history", "readme", "contributing", "security", "code_of_conduct", "codeowners":
		return true
	}
	return false
}

func isConfig(lower, ext string) bool {
	switch ext {
	case ".yaml", ".yml", ".json", ".jsonc", ".toml", ".ini", ".cfg", ".conf", ".properties", ".env", ".xml":
		return true
	}
	return lower == ".env" || strings.HasPrefix(lower, ".env.") || lower == ".editorconfig" ||
		lower == ".gitignore" || lower == ".gitattributes" || lower == ".npmrc"
}

func isPrompt(p, lower string) bool {
	for _, suf := range []string{".prompt", ".prompty", ".prompt.md", ".prompt.yml", ".prompt.yaml", ".prompt.txt",
		".chatmode.md"} {
		if strings.HasSuffix(lower, suf) {
			return true
		}
	}
	return slices.Contains(strings.Split(path.Dir(p), "/"), "prompts")
}

// isMigration reports a database migration: a file under a migrations/ or
// migration/ directory, Rails's db/migrate/, Alembic's alembic/versions/, a
// Flyway V<n>__name.sql script, or an <name>.up.sql / .down.sql pair.
func isMigration(p, base string) bool {
	segs := strings.Split(path.Dir(p), "/")
	for i, s := range segs {
		switch strings.ToLower(s) {
		case "migrations", "migration":
			return true
		case "migrate":
			if i > 0 && strings.EqualFold(segs[i-1], "db") {
				return true
			}
		case "versions":
			if i > 0 && strings.EqualFold(segs[i-1], "alembic") {
				return true
			}
		}
	}
	lower := strings.ToLower(base)
	if strings.HasSuffix(lower, ".up.sql") || strings.HasSuffix(lower, ".down.sql") {
		return true
	}
	// Flyway: V<version>__<description>.sql (also R__ repeatable scripts).
	if strings.HasSuffix(lower, ".sql") && len(base) > 1 && (base[0] == 'V' || base[0] == 'R') {
		if i := strings.Index(base, "__"); i > 0 {
			v := base[1:i]
			return base[0] == 'R' && v == "" || v != "" && strings.Trim(v, "0123456789._") == ""
		}
	}
	return false
}

// generatedOrVendored reports a skipped path that is machine-written or
// third-party, whose content is not the author's logic.
func generatedOrVendored(p string, skip review.SkipReason) bool {
	switch skip {
	case review.SkipGenerated, review.SkipVendored, review.SkipMinified, review.SkipLockFile, review.SkipSourceMap, review.SkipBinary:
		return true
	}
	lower := strings.ToLower(p)
	for _, w := range []string{"vendor/", "node_modules/", "third_party/", ".pb.go", "_generated.", "zz_generated",
		".gen.", "_gen.", ".min."} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// addedLines returns the changed lines of f with their text: from Lines and
// Content when both are present, else from the '+' lines of the hunks.
func addedLines(f *review.File, content []string) []numLine {
	var out []numLine
	if len(f.Lines) > 0 && content != nil {
		for _, n := range f.ChangedLines() {
			if n >= 1 && n <= len(content) {
				out = append(out, numLine{n, content[n-1]})
			}
		}
		return out
	}
	for _, h := range f.Hunks {
		n := h.NewStart
		for _, l := range h.Lines {
			switch {
			case l == "":
				n++
			case l[0] == '+':
				out = append(out, numLine{n, strings.TrimSuffix(l[1:], "\r")})
				n++
			case l[0] == '-':
			default:
				n++
			}
		}
	}
	return out
}

// deletedLines returns the text of the '-' lines of the hunks of f.
func deletedLines(f *review.File) []string {
	var out []string
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l != "" && l[0] == '-' {
				out = append(out, strings.TrimSuffix(l[1:], "\r"))
			}
		}
	}
	return out
}

// mechanicalReason says why a change cannot alter behaviour, or returns "".
// It errs towards "may alter behaviour": a line it cannot classify counts
// as code.
func mechanicalReason(f *review.File, lang review.Language, added []numLine, deleted []string) string {
	if f.Status == review.StatusDeleted {
		return ""
	}
	if len(added) == 0 && len(deleted) == 0 {
		switch f.Status {
		case review.StatusRenamed:
			return "rename only"
		case review.StatusModified:
			if f.Added == 0 && f.Deleted == 0 {
				return "no content change"
			}
		}
		return ""
	}
	if whitespaceOnly(added, deleted) {
		return "whitespace only"
	}
	if commentsOnly(lang, added, deleted) {
		return "comments only"
	}
	return ""
}

// whitespaceOnly reports whether the added and deleted lines are the same
// multiset of lines once all whitespace is removed (blank lines dropped).
func whitespaceOnly(added []numLine, deleted []string) bool {
	// Cheap rejection first: the counts of non-blank lines must agree.
	na, nd := 0, 0
	for _, l := range added {
		if strings.TrimSpace(l.text) != "" {
			na++
		}
	}
	for _, l := range deleted {
		if strings.TrimSpace(l) != "" {
			nd++
		}
	}
	if na != nd {
		return false
	}
	a := make([]string, 0, len(added))
	for _, l := range added {
		if s := stripSpace(l.text); s != "" {
			a = append(a, s)
		}
	}
	d := make([]string, 0, len(deleted))
	for _, l := range deleted {
		if s := stripSpace(l); s != "" {
			d = append(d, s)
		}
	}
	if len(a) != len(d) {
		return false
	}
	slices.Sort(a)
	slices.Sort(d)
	return slices.Equal(a, d)
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', '\v', '\f':
			return -1
		}
		return r
	}, s)
}

// commentsOnly reports whether every non-blank added and deleted line is a
// comment of the language, and at least one is.
func commentsOnly(lang review.Language, added []numLine, deleted []string) bool {
	if commentSyntax(lang) == 0 {
		return false
	}
	seen := false
	check := func(l string) bool {
		t := strings.TrimSpace(l)
		if t == "" {
			return true
		}
		seen = true
		return isComment(lang, t)
	}
	for _, l := range added {
		if !check(l.text) {
			return false
		}
	}
	for _, l := range deleted {
		if !check(l) {
			return false
		}
	}
	return seen
}

type commentKind uint8

const (
	slashComments commentKind = 1 << iota // "//" and "/* */"
	hashComments                          // "#"
	dashComments                          // "--"
	htmlComments                          // "<!-- -->" on one line
)

// commentSyntax returns the whole-line comment forms of lang, from its
// row of the language table (none for an unknown language).
func commentSyntax(lang review.Language) commentKind {
	if lang == review.LangUnknown {
		return 0
	}
	var k commentKind
	c := lang.Info().Comments
	switch c.Line {
	case "//":
		k |= slashComments
	case "#":
		k |= hashComments
	case "--":
		k |= dashComments
	}
	switch c.BlockStart {
	case "/*":
		k |= slashComments
	case "<!--":
		k |= htmlComments
	}
	return k
}

// isComment reports whether the trimmed line t is a whole-line comment.
// Comments that act as code are not comments here: Go directives
// (//go:build, // +build, //export, //line), shebangs, Python encoding
// lines, Ruby magic comments and Dockerfile parser directives.
func isComment(lang review.Language, t string) bool {
	k := commentSyntax(lang)
	switch {
	case k&slashComments != 0:
		if strings.HasPrefix(t, "//") {
			if lang == review.LangGo {
				for _, d := range []string{"//go:", "// +build", "//export ", "//line ", "//extern "} {
					if strings.HasPrefix(t, d) {
						return false
					}
				}
			}
			return true
		}
		// Block comment lines: "/* …", "* …" (Javadoc style) and "*/".
		if strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*/") || t == "*" || strings.HasPrefix(t, "* ") {
			return true
		}
	}
	switch {
	case k&hashComments != 0:
		if !strings.HasPrefix(t, "#") || strings.HasPrefix(t, "#!") {
			return false
		}
		low := strings.ToLower(t)
		for _, d := range []string{"coding:", "coding=", "frozen_string_literal", "syntax=", "escape=", "check="} {
			if strings.Contains(low, d) {
				return false
			}
		}
		return true
	case k&dashComments != 0:
		// A goose or sql-migrate annotation steers the migration tool.
		return strings.HasPrefix(t, "--") && !strings.Contains(t, "+goose") && !strings.Contains(t, "+migrate")
	case k&htmlComments != 0:
		return strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->")
	}
	return false
}

// scan collects the path and added-line cues of the file. Tests and docs
// carry no cues (they do not ship), except that a prompt file is an AI
// cue; lockfiles carry none; dependency manifests carry AI SDK cues only.
func (ff *facts) scan(sc *scanner) {
	switch {
	case ff.test:
		return
	case ff.prompt:
		ff.addHit(hit{catAI, "prompt file", kindLine})
	}
	if ff.doc || ff.supply == supplyLockfile {
		ff.dedupe()
		return
	}
	lineScope := inCode
	if ff.supply == supplyManifest {
		lineScope = inManifest
	} else {
		for _, h := range sc.scanPath(ff.path) {
			ff.addHit(h)
		}
		ff.pathKinds()
	}
	for _, l := range ff.added {
		t := strings.TrimSpace(l.text)
		if t == "" {
			continue
		}
		if ff.migration && (strings.Contains(t, "+goose Down") || strings.Contains(t, "+migrate Down")) {
			ff.addHit(hit{catDown, "down migration", l.n})
		}
		if isComment(ff.lang, t) {
			continue
		}
		hits := sc.scanLine(nil, l.text, l.n, lineScope, ff.lang)
		var pii, logged bool
		for _, h := range hits {
			pii = pii || h.c == catPII
			logged = logged || h.c == catLogging
		}
		if pii && logged && ff.piiLogged == 0 {
			ff.piiLogged = l.n
		}
		var sleep, query bool
		for _, h := range hits {
			ff.addHit(h)
			sleep = sleep || h.c == catSleep
			query = query || h.c == catPersistence
		}
		if lineScope == inCode && (sleep || query) && enclosingLoop(ff.content, l.n) > 0 {
			if sleep {
				ff.loopCues = append(ff.loopCues, hit{catSleep, "sleep in loop", l.n})
			}
			if query {
				ff.loopCues = append(ff.loopCues, hit{catPersistence, "query in loop", l.n})
			}
		}
	}
	ff.dedupe()
}

// pathKinds adds the cues that follow from the kind of the file.
func (ff *facts) pathKinds() {
	lower := strings.ToLower(path.Base(ff.path))
	ext := path.Ext(lower)
	switch {
	case ff.migration:
		ff.addHit(hit{catPersistence, "migration", kindLine})
	case ff.schema:
		ff.addHit(hit{catPersistence, "schema definition", kindLine})
	case ff.format:
		ff.addHit(hit{catAPI, "data format definition", kindLine})
	}
	if ff.downMigration {
		ff.addHit(hit{catDown, "down migration", kindLine})
	}
	secretFile := isSecretFile(lower, ext)
	if secretFile {
		ff.secretFile = true
		ff.addHit(hit{catSecrets, "secret file", kindLine})
	}
}

// isSecretFile reports a file that stores secrets by its name: private keys
// and keystores, SSH keys, credential files and .env files (but not
// .env.example and other templates).
func isSecretFile(lower, ext string) bool {
	switch ext {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore":
		return true
	}
	switch lower {
	case "id_rsa", "id_ecdsa", "id_ed25519", ".netrc", ".pypirc", ".htpasswd", "credentials", ".env":
		return true
	}
	if !strings.HasPrefix(lower, ".env.") {
		return false
	}
	for _, w := range []string{"example", "sample", "template", "dist"} {
		if strings.Contains(lower, w) {
			return false
		}
	}
	return true
}

func (ff *facts) addHit(h hit) {
	ff.hits = append(ff.hits, h)
	ff.cats.add(h.c)
}

// dedupe keeps the first hit of each category and label, ordered by
// category, then line, then label.
func (ff *facts) dedupe() {
	slices.SortStableFunc(ff.hits, func(a, b hit) int {
		if a.c != b.c {
			return int(a.c) - int(b.c)
		}
		if a.line != b.line {
			return a.line - b.line
		}
		return strings.Compare(a.label, b.label)
	})
	out := ff.hits[:0]
	seen := map[hit]bool{}
	for _, h := range ff.hits {
		k := hit{h.c, h.label, 0}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, h)
	}
	ff.hits = out
}

// loopWalk bounds how far enclosingLoop looks up: a loop header more than
// a screenful above the cue is not the reader's context any more, and the
// bound keeps the walk linear in the changed lines.
const loopWalk = 40

// enclosingLoop returns the line number of the loop header that encloses
// line n, judged by indentation: walking up, each line indented less than
// the current block opens an enclosing block; the first such line that
// starts a loop (for, while, loop, until, .forEach) is returned, or 0.
func enclosingLoop(content []string, n int) int {
	if n < 1 || n > len(content) {
		return 0
	}
	cur := syntax.IndentWidth(content[n-1])
	for i := n - 2; i >= 0 && i >= n-1-loopWalk && cur > 0; i-- {
		l := content[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := syntax.IndentWidth(l)
		if ind >= cur {
			continue
		}
		cur = ind
		if isLoopHeader(strings.TrimSpace(l)) {
			return i + 1
		}
	}
	return 0
}

func isLoopHeader(t string) bool {
	for _, kw := range []string{"for ", "for(", "for {", "while ", "while(", "loop {", "until ", "do {", "do:"} {
		if strings.HasPrefix(t, kw) || t == strings.TrimSpace(kw) {
			return true
		}
	}
	return strings.Contains(t, ".forEach(") || strings.Contains(t, ".each do") || strings.Contains(t, ".each {")
}
