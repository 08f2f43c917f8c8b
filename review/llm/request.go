package llm

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/reviewls/reviewls/review"
)

// The prompts are data: the system prompt, the user message around the
// files, one file's section, and the schema paragraph of JSON mode. The
// golden requests in testdata/requests show every change to them as a
// diff.
//
//go:embed prompts/*.md
var promptFS embed.FS

var prompts = template.Must(template.New("").Option("missingkey=error").ParseFS(promptFS, "prompts/*.md"))

// answerSchema is the JSON Schema of an answer. The request sends it as
// the response format (or, in JSON mode, inside the prompt) and
// [ParseAnswer] validates answers against it.
//
//go:embed answer.schema.json
var answerSchema []byte

// compactSchema is answerSchema without white space, as requests carry it.
var compactSchema = func() json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, answerSchema); err != nil {
		panic("llm: answer.schema.json: " + err.Error())
	}
	return b.Bytes()
}()

// Change is what the model reviewer reviews: the files of a change and
// what the engine knows around them. It holds no git, LSP or artifact
// knowledge; the engine fills it from its change set, its symbol layer and
// its rule findings.
type Change struct {
	// Files are every file of the change (the change set's files, skipped
	// ones included). Only reviewed files that no exclude glob matches
	// are sent; the others let the validator tell a file outside the
	// change from one that was not sent.
	Files []*review.File
	// Context holds, by path, the code around a file's change.
	Context map[string]*Context
	// Findings are the rule findings already reported on the change; the
	// model is told them so it does not repeat them, and a candidate that
	// does is refuted as a duplicate.
	Findings []*review.Finding
}

// file returns the changed file at path, or nil.
func (c *Change) file(path string) *review.File {
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// Context is the code around one file's change that the request shows
// beside its hunks.
type Context struct {
	// Enclosing are the functions of the file that hold its hunks, with
	// new-side lines; a hunk's heading names the one holding it, and its
	// body is sent when the budget allows.
	Enclosing []Symbol
	// Related are the functions the change calls or changes and their
	// callers, anywhere in the repository, most relevant first: their
	// signatures are sent when the budget allows, their bodies when it
	// allows more.
	Related []Symbol
}

// Relation says how a related symbol relates to the change.
type Relation string

// The relations of a [Symbol] to the change.
const (
	// RelEnclosing: the symbol holds a hunk.
	RelEnclosing Relation = "enclosing"
	// RelCallee: the change calls it.
	RelCallee Relation = "callee"
	// RelCaller: it calls a symbol the change changed.
	RelCaller Relation = "caller"
)

// Symbol is a function (or method, type, ...) shown as context.
type Symbol struct {
	// Name is the symbol's name as people write it ("(*Server).Handle").
	Name     string
	Relation Relation
	// Path is the repo-relative path of its file.
	Path string
	// Line and EndLine are its first and last lines (1-based; the new
	// side for a changed file).
	Line, EndLine int
	// Signature is its declaration line(s) without the body.
	Signature string
	// Body is its whole text from Line on, signature included; "" when
	// unknown.
	Body string
}

// BuildOptions configure [Build].
type BuildOptions struct {
	// Model is the model's name, part of every request.
	Model string
	// MaxFindings is the most findings the model may report per request
	// (the system prompt says so; validation caps the whole change).
	MaxFindings int
	// Budget is the most prompt tokens one request may hold: the model's
	// context less the answer's reserve.
	Budget int
	// AnswerTokens is the answer's reserve, sent as max_tokens.
	AnswerTokens int
	// MaxRequests is the most requests a change may take; the files past
	// it are refused as over budget. 0 means no limit.
	MaxRequests int
	// Exclude are doublestar globs of repo-relative paths never sent.
	Exclude []string
	// Redactor redacts every text of a request: the run's redactor, with
	// its detector. Required: a request never leaves unredacted.
	Redactor *review.Redactor
	// Secrets, when set, is the language-aware secret detector
	// (review/secret.Values): it reads each file's new content,
	// its removed lines and each context symbol as the code of its path,
	// and the values it finds are redacted too.
	Secrets func(path, text string) []string
}

// Validate reports the first problem of o.
func (o *BuildOptions) Validate() error {
	switch {
	case o.Model == "":
		return errors.New("build model request: no model name")
	case o.MaxFindings < 1:
		return fmt.Errorf("build model request: max findings %d is not positive", o.MaxFindings)
	case o.Redactor == nil:
		return errors.New("build model request: no redactor")
	case o.AnswerTokens < 1:
		return fmt.Errorf("build model request: answer tokens %d is not positive", o.AnswerTokens)
	}
	for _, g := range o.Exclude {
		if !doublestar.ValidatePattern(g) {
			return fmt.Errorf("build model request: invalid exclude glob %q", g)
		}
	}
	return nil
}

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat-completions request of the model reviewer: the
// system prompt and a user message holding one file's change (or part of
// it) or several small files. Key identifies it: a hash of its canonical
// JSON (model, temperature, max_tokens, messages, answer schema), so an
// unchanged file's request has the same key run after run.
type Request struct {
	Key   string
	Model string
	// Files are the paths whose change the request shows, in path order.
	Files []string
	// Part and Parts number the requests of a file sent in parts; both
	// are 0 for a whole file.
	Part, Parts int
	// Messages are the system prompt and the user message, redacted.
	Messages  []Message
	MaxTokens int
	// Tokens is the estimated size of the prompt in tokens.
	Tokens int
}

// Refusal is part of a change that no request carries: it could not fit
// the budget. Its candidates are unverified (over budget).
type Refusal struct {
	Files []string `json:"files"`
	// Why says what did not fit and the budget.
	Why string `json:"why"`
}

// NotSent is a changed file that is never sent, and why.
type NotSent struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Plan is the requests that review a change.
type Plan struct {
	Requests []*Request
	Refused  []Refusal
	NotSent  []NotSent
}

// canonical is the JSON a request's key hashes: every byte the model's
// answer depends on. Field order is fixed by the struct.
type canonical struct {
	Model       string          `json:"model"`
	Temperature float64         `json:"temperature"`
	MaxTokens   int             `json:"max_tokens"`
	Messages    []Message       `json:"messages"`
	Schema      json.RawMessage `json:"schema"`
}

// requestKey returns the key of a request: the first 16 hex digits of a
// SHA-256 over its canonical JSON.
func requestKey(model string, maxTokens int, msgs []Message) string {
	b, err := json.Marshal(canonical{Model: model, MaxTokens: maxTokens, Messages: msgs, Schema: compactSchema})
	if err != nil {
		panic("llm: marshal request: " + err.Error()) // strings and a valid raw message always marshal
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:16]
}

// bytesPerToken is the estimate of how many bytes of code one token
// holds. Tokenizers of code models average three to four; three errs on
// the side of a smaller request, which a server never refuses for size.
const bytesPerToken = 3

// tokens estimates the tokens of s.
func tokens(s string) int { return (len(s) + bytesPerToken - 1) / bytesPerToken }

// maxFindingLines is the most rule findings one request lists: past it
// the list only counts the rest, so a file with hundreds of findings
// still leaves room for its code.
const maxFindingLines = 40

// Build turns a change into requests. It is pure: the same change and
// options give the same requests, in the same order, with the same keys.
// Each reviewed file that no exclude glob matches becomes one request at
// the richest level of context that fits the budget (enclosing and
// related bodies, then related signatures, then nothing beyond the hunks);
// a file whose hunks alone do not fit is split into parts at line
// boundaries; a line that alone does not fit is refused. Small files
// (a quarter of the budget or less) share a request, in path order, up to
// half the budget. Every text is redacted first.
func Build(ch Change, o BuildOptions) (*Plan, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	b := &builder{o: o, plan: &Plan{}}
	b.system = systemPrompt(o.MaxFindings)
	b.room = o.Budget - tokens(b.system)
	if b.room < minRoom {
		return nil, fmt.Errorf("build model request: a budget of %d tokens leaves %d for the change, under the %d a request needs", o.Budget, b.room, minRoom)
	}
	files := slices.Clone(ch.Files)
	slices.SortFunc(files, func(x, y *review.File) int { return strings.Compare(x.Path, y.Path) })
	b.withheld = map[string]bool{}
	var sent []*review.File
	for _, f := range files {
		if why := notSent(f, o.Exclude); why != "" {
			b.plan.NotSent = append(b.plan.NotSent, NotSent{Path: f.Path, Why: why})
			b.withheld[f.Path] = true
			continue
		}
		sent = append(sent, f)
	}
	var units []unit
	for _, f := range sent {
		units = append(units, b.file(f, ch.Context[f.Path], ch.Findings)...)
	}
	b.batch(units)
	if o.MaxRequests > 0 && len(b.plan.Requests) > o.MaxRequests {
		n := len(b.plan.Requests)
		for _, r := range b.plan.Requests[o.MaxRequests:] {
			b.plan.Refused = append(b.plan.Refused, Refusal{Files: r.Files,
				Why: fmt.Sprintf("the change needs %d requests, over the limit of %d", n, o.MaxRequests)})
		}
		b.plan.Requests = b.plan.Requests[:o.MaxRequests]
	}
	return b.plan, nil
}

// minRoom is the fewest tokens a user message needs: a file heading, a
// hunk heading and a few lines of code.
const minRoom = 128

// Sendable reports whether a review sends f with the exclude globs: a
// reviewed file with changed lines that none of them matches. Only such a
// file needs its [Context].
func Sendable(f *review.File, exclude []string) bool { return notSent(f, exclude) == "" }

// notSent returns why f is never sent, or "".
func notSent(f *review.File, exclude []string) string {
	switch {
	case f.Skip != "":
		return "skipped: " + string(f.Skip)
	case f.Status == review.StatusDeleted:
		return "deleted"
	case !f.Reviewed():
		return "no reviewed content"
	case len(f.Hunks) == 0 && len(f.Lines) == 0: // hunksOf(f) is empty
		return "no changed lines"
	}
	for _, g := range exclude {
		if excluded(f.Path, []string{g}) {
			return "excluded by " + g
		}
	}
	return ""
}

// systemPrompt renders the system prompt.
func systemPrompt(maxFindings int) string {
	return strings.TrimSpace(render("system.md", struct{ MaxFindings int }{maxFindings})) + "\n"
}

// jsonModePrompt is what JSON mode appends to the system prompt: the
// answer's schema, since the server does not take it as the response
// format.
var jsonModePrompt = render("json-mode.md", struct{ Schema string }{string(bytes.TrimSpace(answerSchema))})

func render(name string, data any) string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		panic("llm: prompt " + name + ": " + err.Error()) // the templates and their data are fixed
	}
	return b.String()
}

// builder holds the state of one [Build].
type builder struct {
	o      BuildOptions
	plan   *Plan
	system string
	// room is the token budget of a user message.
	room int
	// withheld are the changed files never sent: no context symbol of
	// theirs is sent either.
	withheld map[string]bool
}

// unit is one file's share of a request: a whole file, or a part of one.
type unit struct {
	files    []string
	sections []string
	findings []string
	part     int
	parts    int
	tokens   int
	// small reports a whole file that may share a request.
	small bool
}

// Levels of context, richest first.
const (
	levelBodies     = iota // enclosing bodies, related bodies
	levelSignatures        // enclosing bodies, related signatures
	levelRelated           // related signatures
	levelHunks             // nothing beyond the hunks
)

// file returns the units of one file: one when it fits, its parts when it
// does not; the lines that cannot fit are refused.
func (b *builder) file(f *review.File, ctx *Context, all []*review.Finding) []unit {
	v := b.view(f, ctx)
	findings := findingLines(f.Path, all)
	for i, l := range findings {
		findings[i] = v.red.String(l) // a title may quote the file's code
	}
	for level := levelBodies; level <= levelHunks; level++ {
		sec := v.section(level, v.hunks, 0, 0)
		u := unit{files: []string{f.Path}, sections: []string{sec}, findings: findings}
		if u.tokens = tokens(userMessage(u.sections, u.findings, 1)); u.tokens <= b.room {
			u.small = u.tokens <= b.room/4
			return []unit{u}
		}
	}
	return b.split(v, findings)
}

// split sends a file's hunks in parts, each as large as fits, cutting a
// hunk between lines where it must.
func (b *builder) split(v *fileView, findings []string) []unit {
	// What a part costs besides its lines: the message, the file's
	// heading and findings, a hunk heading and fences, and the part's
	// note with two-digit numbers.
	none := v.section(levelHunks, nil, 99, 99)
	fixed := len(userMessage([]string{none}, findings, 1))
	perHunk := len(v.section(levelHunks, []hunkView{{heading: "Lines 000000-000000, in " + v.longestSignature()}}, 99, 99)) - len(none)
	room := b.room*bytesPerToken - fixed
	var parts [][]hunkView
	var cur []hunkView
	var over []string // the lines that alone do not fit
	used := 0
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, cur)
			cur, used = nil, 0
		}
	}
	for _, h := range v.hunks {
		for len(h.lines) > 0 {
			if perHunk+len(h.lines[0].text) > room {
				// One line alone is over the budget.
				over = append(over, h.lines[0].where())
				h.lines = h.lines[1:]
				continue
			}
			if used > 0 && used+perHunk+len(h.lines[0].text) > room {
				flush()
			}
			// Take the longest run of lines that fits what is left, up
			// to a line that fits no part.
			n, size := 0, 0
			for n < len(h.lines) && used+perHunk+size+len(h.lines[n].text) <= room {
				size += len(h.lines[n].text)
				n++
			}
			cur = append(cur, v.sub(h, h.lines[:n]))
			used += perHunk + size
			h.lines = h.lines[n:]
		}
	}
	flush()
	if len(over) > 0 {
		b.plan.Refused = append(b.plan.Refused, Refusal{Files: []string{v.f.Path},
			Why: fmt.Sprintf("%s: %s alone over the request budget of %d tokens", v.f.Path, listed(over, 5), b.o.Budget)})
	}
	var out []unit
	for i, p := range parts {
		sec := v.section(levelHunks, p, i+1, len(parts))
		u := unit{files: []string{v.f.Path}, sections: []string{sec}, findings: findings, part: i + 1, parts: len(parts)}
		u.tokens = tokens(userMessage(u.sections, u.findings, 1))
		out = append(out, u)
	}
	if len(parts) == 1 {
		// Everything but refused lines fit at once: not parts after all.
		out[0].sections[0] = v.section(levelHunks, parts[0], 0, 0)
		out[0].part, out[0].parts = 0, 0
	}
	return out
}

// batch turns units into requests: small whole files share one while
// their message stays within half the budget.
func (b *builder) batch(units []unit) {
	for i := 0; i < len(units); {
		u := units[i]
		i++
		if u.small {
			for i < len(units) && units[i].small {
				next := unit{files: append(slices.Clone(u.files), units[i].files...),
					sections: append(slices.Clone(u.sections), units[i].sections...),
					findings: append(slices.Clone(u.findings), units[i].findings...)}
				next.tokens = tokens(userMessage(next.sections, next.findings, len(next.files)))
				if next.tokens > b.room/2 {
					break
				}
				u = next
				i++
			}
		}
		b.request(u)
	}
}

// request adds the request of a unit.
func (b *builder) request(u unit) {
	user := b.o.Redactor.String(userMessage(u.sections, u.findings, len(u.files)))
	msgs := []Message{{Role: "system", Content: b.system}, {Role: "user", Content: user}}
	b.plan.Requests = append(b.plan.Requests, &Request{
		Key:       requestKey(b.o.Model, b.o.AnswerTokens, msgs),
		Model:     b.o.Model,
		Files:     u.files,
		Part:      u.part,
		Parts:     u.parts,
		Messages:  msgs,
		MaxTokens: b.o.AnswerTokens,
		Tokens:    tokens(b.system) + tokens(user),
	})
}

// userMessage renders the user message around file sections.
func userMessage(sections, findings []string, files int) string {
	if len(findings) > maxFindingLines {
		findings = append(slices.Clone(findings[:maxFindingLines]), fmt.Sprintf("and %d more", len(findings)-maxFindingLines))
	}
	return strings.TrimSpace(render("request.md", struct {
		FileCount int
		Findings  []string
		Files     []string
	}{files, findings, sections})) + "\n"
}

// findingLines renders the rule findings of path, in line order.
func findingLines(path string, all []*review.Finding) []string {
	var fs []*review.Finding
	for _, f := range all {
		if f.Span.Path == path {
			fs = append(fs, f)
		}
	}
	slices.SortStableFunc(fs, func(x, y *review.Finding) int {
		return cmp.Or(cmp.Compare(x.Span.StartLine, y.Span.StartLine), strings.Compare(x.RuleID, y.RuleID))
	})
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s:%s %s: %s", f.Span.Path, f.Span.Lines(), f.RuleID, oneLine(f.TitleLine()))
	}
	return out
}

// oneLine collapses white space, line breaks included.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fileView is one file made ready to render: its hunks as numbered lines
// and its context, all redacted.
type fileView struct {
	f         *review.File
	red       *review.Redactor
	hunks     []hunkView
	enclosing []Symbol
	related   []Symbol
}

// hunkView is a hunk, or a run of its lines, rendered line by line.
type hunkView struct {
	heading string
	lines   []numbered
}

// numbered is one rendered diff line and its new-side number (0 for a
// removed line).
type numbered struct {
	n      int
	before int // for a removed line, the new line it stood before
	text   string
}

// listed joins up to max items in words: "a", "a and b", "a, b and 3 more".
func listed(items []string, max int) string {
	if len(items) > max {
		items = append(items[:max:max], fmt.Sprintf("%d more", len(items)-max))
	}
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// where names the line for a refusal.
func (l numbered) where() string {
	if l.n == 0 {
		return fmt.Sprintf("the line removed before line %d", l.before)
	}
	return fmt.Sprintf("line %d", l.n)
}

// view prepares a file: its redactor knows the secrets the
// language-aware detector finds in its content, its removed lines and its
// context.
func (b *builder) view(f *review.File, ctx *Context) *fileView {
	v := &fileView{f: f, red: fileRedactor(b.o.Redactor, b.o.Secrets, f, ctx)}
	if ctx != nil {
		v.enclosing = sortedSymbols(b.sendable(ctx.Enclosing), false)
		v.related = sortedSymbols(b.sendable(ctx.Related), true)
	}
	width := len(strconv.Itoa(maxNewLine(f)))
	for _, h := range hunksOf(f) {
		hv := hunkView{}
		at := h.NewStart
		for _, l := range h.Lines {
			if l == "" {
				continue
			}
			text := strings.TrimSuffix(l[1:], "\r")
			switch l[0] {
			case '+', ' ':
				hv.lines = append(hv.lines, numbered{n: at, text: diffLine(fmt.Sprint(at), width, l[0], text)})
				at++
			case '-':
				hv.lines = append(hv.lines, numbered{before: at, text: diffLine("", width, '-', text)})
			}
		}
		if len(hv.lines) > 0 {
			v.hunks = append(v.hunks, v.sub(hv, hv.lines))
		}
	}
	return v
}

// diffLine renders one line of a hunk: its new-side number (right
// aligned), its marker and its text, without trailing blanks.
func diffLine(num string, width int, mark byte, text string) string {
	return strings.TrimRight(fmt.Sprintf("%*s %c %s", width, num, mark, text), " ") + "\n"
}

// fileRedactor returns the redactor of one file's texts: red, knowing
// also what the language-aware detector finds in the file's new content,
// its removed lines and its context symbols.
func fileRedactor(red *review.Redactor, detect func(path, text string) []string, f *review.File, ctx *Context) *review.Redactor {
	if detect == nil {
		return red
	}
	secrets := detect(f.Path, string(f.Content))
	var removed strings.Builder
	f.EachRemoved(func(_ int, text string) { removed.WriteString(text + "\n") })
	secrets = append(secrets, detect(f.BasePath(), removed.String())...)
	if ctx != nil {
		for _, s := range append(slices.Clone(ctx.Enclosing), ctx.Related...) {
			secrets = append(secrets, detect(s.Path, s.Signature+"\n"+s.Body)...)
		}
	}
	return red.With(secrets...)
}

// sendable returns the symbols whose file may be sent: none of an
// excluded path or of a changed file that is not sent.
func (b *builder) sendable(syms []Symbol) []Symbol {
	var out []Symbol
	for _, s := range syms {
		if !excluded(s.Path, b.o.Exclude) && !b.withheld[s.Path] {
			out = append(out, s)
		}
	}
	return out
}

// excluded reports whether an exclude glob matches path.
func excluded(path string, exclude []string) bool {
	for _, g := range exclude {
		if ok, _ := doublestar.Match(g, path); ok {
			return true
		}
	}
	return false
}

// maxNewLine returns the highest new-side line number of f's hunks.
func maxNewLine(f *review.File) int {
	n := 1
	for _, h := range hunksOf(f) {
		n = max(n, h.NewStart+h.NewLines)
	}
	return n
}

// hunksOf returns f's hunks; a file with changed lines but no hunks (an
// untracked file made by [review.UntrackedFile]) is one hunk of its
// whole content.
func hunksOf(f *review.File) []review.Hunk {
	if len(f.Hunks) > 0 || len(f.Lines) == 0 {
		return f.Hunks
	}
	lines := f.TextLines()
	h := review.Hunk{NewStart: 1, NewLines: len(lines)}
	for i, l := range lines {
		mark := " "
		if f.Changed(i + 1) {
			mark = "+"
		}
		h.Lines = append(h.Lines, mark+l)
	}
	return []review.Hunk{h}
}

// sortedSymbols returns syms in a fixed order: enclosing ones by line,
// related ones by relation (callees, then callers) keeping the engine's
// order of relevance within a relation.
func sortedSymbols(syms []Symbol, related bool) []Symbol {
	out := slices.Clone(syms)
	if related {
		slices.SortStableFunc(out, func(x, y Symbol) int { return cmp.Compare(relOrder(x.Relation), relOrder(y.Relation)) })
		return out
	}
	slices.SortStableFunc(out, func(x, y Symbol) int { return cmp.Compare(x.Line, y.Line) })
	return out
}

func relOrder(r Relation) int {
	switch r {
	case RelCallee:
		return 0
	case RelCaller:
		return 1
	}
	return 2
}

// sub returns the hunk view of a run of lines of h, with its heading.
func (v *fileView) sub(h hunkView, lines []numbered) hunkView {
	first, last := 0, 0
	for _, l := range lines {
		if l.n > 0 {
			if first == 0 {
				first = l.n
			}
			last = l.n
		}
	}
	var heading string
	switch {
	case first == 0:
		heading = fmt.Sprintf("Lines removed before line %d", lines[0].before)
		first, last = lines[0].before, lines[0].before
	case first == last:
		heading = fmt.Sprintf("Line %d", first)
	default:
		heading = fmt.Sprintf("Lines %d-%d", first, last)
	}
	if s := innermost(v.enclosing, first, last); s != nil {
		heading += ", in " + oneLine(s.Signature)
	}
	return hunkView{heading: heading, lines: lines}
}

// innermost returns the innermost symbol of syms (the one that starts
// last) that overlaps lines from-to, or nil.
func innermost(syms []Symbol, from, to int) *Symbol {
	var best *Symbol
	for i := range syms {
		s := &syms[i]
		if s.Line <= to && max(s.EndLine, s.Line) >= from && (best == nil || s.Line >= best.Line) {
			best = s
		}
	}
	return best
}

// longestSignature returns the longest enclosing signature, for the cost
// of a hunk heading.
func (v *fileView) longestSignature() string {
	long := ""
	for _, s := range v.enclosing {
		if sig := oneLine(s.Signature); len(sig) > len(long) {
			long = sig
		}
	}
	return long
}

// block is a fenced block of a rendered section.
type block struct {
	Heading, Fence, Info, Text string
}

// section renders the file's section at a level of context, with the
// given hunks; part and parts number a part (0 for a whole file).
func (v *fileView) section(level int, hunks []hunkView, part, parts int) string {
	info := v.f.Language.Info()
	lang := info.Name
	if lang == "" {
		lang = "unknown"
	}
	data := struct {
		Path, Language, Status, OldPath string
		Part, Parts                     int
		Hunks, Enclosing, Related       []block
	}{Path: v.f.Path, Language: lang, Status: string(v.f.Status), Part: part, Parts: parts}
	if v.f.Status == review.StatusRenamed {
		data.OldPath = v.f.OldPath
	}
	for _, h := range hunks {
		var text strings.Builder
		for _, l := range h.lines {
			text.WriteString(l.text)
		}
		data.Hunks = append(data.Hunks, fenced(h.heading, "", text.String()))
	}
	if level <= levelSignatures {
		for _, s := range v.enclosing {
			if s.Body == "" || !v.overlaps(s, hunks) {
				continue
			}
			data.Enclosing = append(data.Enclosing, fenced(fmt.Sprintf("`%s`, lines %d-%d:", s.Name, s.Line, max(s.EndLine, s.Line)), info.Fence, numberLines(s.Body, s.Line)))
		}
	}
	if level <= levelRelated {
		for _, s := range v.related {
			text := s.Signature
			if level == levelBodies && s.Body != "" {
				text = s.Body
			}
			if strings.TrimSpace(text) == "" {
				continue
			}
			heading := fmt.Sprintf("`%s`, %s, at %s:%d:", s.Name, relationWords(s.Relation), s.Path, s.Line)
			fence := review.DetectLanguage(s.Path, nil).Info().Fence
			data.Related = append(data.Related, fenced(heading, fence, ensureNewline(text)))
		}
	}
	return v.red.String(strings.TrimSpace(render("file.md", data)))
}

// overlaps reports whether s holds a line of one of hunks.
func (v *fileView) overlaps(s Symbol, hunks []hunkView) bool {
	for _, h := range hunks {
		for _, l := range h.lines {
			n := l.n
			if n == 0 {
				n = l.before
			}
			if n >= s.Line && n <= max(s.EndLine, s.Line) {
				return true
			}
		}
	}
	return false
}

func relationWords(r Relation) string {
	switch r {
	case RelCallee:
		return "called by the change"
	case RelCaller:
		return "a caller of changed code"
	case RelEnclosing:
		return "holding changed lines"
	}
	return string(r)
}

// fenced returns a block whose fence is longer than any run of backticks
// in text, so code never closes it.
func fenced(heading, info, text string) block {
	run, longest := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return block{Heading: heading, Fence: strings.Repeat("`", max(3, longest+1)), Info: info, Text: text}
}

// numberLines prefixes each line of text with its number, from first.
func numberLines(text string, first int) string {
	lines := review.SplitLines([]byte(text))
	width := len(strconv.Itoa(first + len(lines)))
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(strings.TrimRight(fmt.Sprintf("%*d   %s", width, first+i, l), " ") + "\n")
	}
	return b.String()
}

func ensureNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
