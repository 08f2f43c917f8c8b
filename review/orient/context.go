package orient

import (
	"bytes"
	"context"
	"path"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
	"github.com/reviewls/reviewls/review/syntax"
)

// Relation says how a context symbol relates to a change.
type Relation string

// The relations of a [ContextSymbol].
const (
	// Enclosing: the function holds changed lines.
	Enclosing Relation = "enclosing"
	// Callee: the changed code calls it.
	Callee Relation = "callee"
	// Caller: it calls a function the change changed.
	Caller Relation = "caller"
)

// ContextSymbol is a function shown beside a change to someone reviewing
// it without the repository at hand (the model reviewer): its
// declaration, how it relates to the change, and its text.
type ContextSymbol struct {
	Symbol   symbol.Symbol
	Relation Relation
	// Body is the declaration's text, lines Line to EndLine of its file.
	Body string
}

// ContextLimits bound what [ChangeContext] finds: each kind of related
// symbol, and the repository searches it may make (each reads the
// language's tracked files that mention a name).
type ContextLimits struct {
	Callees, Callers, Searches int
}

// DefaultContextLimits: a handful of each is what a request has room for
// beside its hunks, and four searches keep the lookup to a fraction of a
// second on a large repository.
var DefaultContextLimits = ContextLimits{Callees: 6, Callers: 4, Searches: 4}

// ChangeContext returns the code around the change of f, a reviewed file
// of cs whose symbol changes are changes: the functions of f that hold
// its changed lines (enclosing, in line order), and the functions the
// changed code calls and the callers of the functions it changed, found
// in f, the other changed files and the repository (related: callees,
// then callers, most relevant first). It reads the repository through ws
// and is best effort: what it cannot find or read is left out.
func ChangeContext(ctx context.Context, ws Workspace, cs *review.ChangeSet, f *review.File, changes []symbol.Change, lim ContextLimits) (enclosing, related []ContextSymbol) {
	if f == nil || !f.Reviewed() {
		return nil, nil
	}
	syms := symbol.Of(f)
	for _, s := range syms {
		if isFunction(s.Kind) && touched(f, s) {
			enclosing = append(enclosing, ContextSymbol{Symbol: s, Relation: Enclosing, Body: bodyOf(f.Content, s)})
		}
	}
	c := &contextFinder{ctx: ctx, ws: ws, cs: cs, f: f, lim: lim, seen: map[string]bool{}, contents: map[string][]byte{}, syms: map[string][]symbol.Symbol{}}
	for _, e := range enclosing {
		c.seen[key(e.Symbol)] = true
	}
	var callees, callers []ContextSymbol
	for _, e := range enclosing {
		for _, name := range symbol.Calls(f.Content, f.Language, e.Symbol) {
			if len(callees) >= lim.Callees || ctx.Err() != nil {
				break
			}
			if d, ok := c.definition(name); ok {
				callees = append(callees, d)
			}
		}
	}
	for _, ch := range changes {
		s := ch.Symbol
		if len(callers) >= lim.Callers || c.searches >= lim.Searches || ctx.Err() != nil {
			break
		}
		if ch.Kind == symbol.ChangeRemoved || ch.Kind == symbol.ChangeAdded || !isFunction(s.Kind) {
			continue
		}
		callers = append(callers, c.callers(s, lim.Callers-len(callers))...)
	}
	return enclosing, append(callees, callers...)
}

// contextFinder holds the state of one ChangeContext.
type contextFinder struct {
	ctx      context.Context
	ws       Workspace
	cs       *review.ChangeSet
	f        *review.File
	lim      ContextLimits
	searches int
	// seen are the symbols already shown, by file and qualified name.
	seen map[string]bool
	// near lists the files looked in first (nearFiles); contents and
	// syms hold what was read of the others, by path.
	near     []string
	contents map[string][]byte
	syms     map[string][]symbol.Symbol
}

func key(s symbol.Symbol) string { return s.Path + "\x00" + s.QualifiedName() }

// definition finds the function a call names ("f", "pkg.F", "x.Method":
// its last element): in the file, then the files of its directory, then
// the other changed files, then the repository, within the search budget.
func (c *contextFinder) definition(call string) (ContextSymbol, bool) {
	name := call[strings.LastIndexAny(call, ".:>")+1:]
	if name == "" {
		return ContextSymbol{}, false
	}
	for _, p := range c.nearFiles() {
		if d, ok := c.defined(p, name); ok {
			return d, d.Body != ""
		}
	}
	if c.searches >= c.lim.Searches || c.ctx.Err() != nil {
		return ContextSymbol{}, false
	}
	c.searches++
	if r := findInRepo(c.ctx, c.ws, c.cs, c.f.Language, name); r != nil && isFunction(r.sym.Kind) {
		return c.shown(r.sym, Callee, r.content)
	}
	return ContextSymbol{}, false
}

// nearFiles returns the files a definition is looked for in before the
// repository, in order: f, the other files of its directory in its
// language family, then the other changed files of that family. They are
// listed once per [ChangeContext].
func (c *contextFinder) nearFiles() []string {
	if c.near != nil {
		return c.near
	}
	var near, changed []string
	dir := path.Dir(c.f.Path)
	for _, o := range c.cs.Reviewed() {
		if o.Path == c.f.Path || o.Language.Family() != c.f.Language.Family() {
			continue
		}
		if path.Dir(o.Path) == dir {
			near = append(near, o.Path)
		} else {
			changed = append(changed, o.Path)
		}
	}
	tracked, _ := c.ws.TrackedFiles()
	for _, p := range tracked {
		if path.Dir(p) == dir && p != c.f.Path && c.cs.File(p) == nil && review.DetectLanguage(p, nil).Family() == c.f.Language.Family() {
			near = append(near, p)
		}
	}
	c.near = append(append([]string{c.f.Path}, near...), changed...)
	return c.near
}

// read returns the content of the file at p, read once per
// [ChangeContext]; false when it cannot be read.
func (c *contextFinder) read(p string) ([]byte, bool) {
	content, ok := c.contents[p]
	if !ok {
		content, _ = readFile(c.ws, c.cs, p)
		c.contents[p] = content
	}
	return content, content != nil
}

// symbols returns the symbols of the file at p, whose content is
// content: a changed file's are those every stage shares, another's are
// extracted once per [ChangeContext].
func (c *contextFinder) symbols(p string, content []byte) []symbol.Symbol {
	if f := c.cs.File(p); f != nil && f.Reviewed() {
		return symbol.Of(f)
	}
	syms, ok := c.syms[p]
	if !ok {
		syms = symbol.Extract(p, content, review.DetectLanguage(p, content))
		c.syms[p] = syms
	}
	return syms
}

// defined returns the function name declares in the file at p, if any; a
// symbol already shown is found but has no body.
func (c *contextFinder) defined(p, name string) (ContextSymbol, bool) {
	content, ok := c.read(p)
	if !ok || !bytes.Contains(content, []byte(name)) {
		return ContextSymbol{}, false
	}
	for _, s := range symbol.Find(c.symbols(p, content), name) {
		if isFunction(s.Kind) {
			d, _ := c.shown(s, Callee, content)
			return d, true
		}
	}
	return ContextSymbol{}, false
}

// shown returns the context symbol of s in content, the first time only.
func (c *contextFinder) shown(s symbol.Symbol, rel Relation, content []byte) (ContextSymbol, bool) {
	if c.seen[key(s)] {
		return ContextSymbol{}, false
	}
	c.seen[key(s)] = true
	return ContextSymbol{Symbol: s, Relation: rel, Body: bodyOf(content, s)}, true
}

// maxCallerRefs bounds the uses of a changed function read for its
// callers; searchSlice is how many files a search reads between two looks
// at the context, a few milliseconds' work.
const (
	maxCallerRefs = 50
	searchSlice   = 256
)

// callers returns up to n functions that call s, outside the symbol
// itself, non-test files first.
func (c *contextFinder) callers(s symbol.Symbol, n int) []ContextSymbol {
	c.searches++
	// In slices of files, so that a cancelled review stops the search.
	var refs []symbol.Ref
	paths, overlay := searchFiles(c.ws, c.cs, c.f.Language), overlayOf(c.cs)
	for len(paths) > 0 && len(refs) < maxCallerRefs && c.ctx.Err() == nil {
		n := min(len(paths), searchSlice)
		found, _ := symbol.References(c.ws.Root(), paths[:n], overlay, s.Name, &s, maxCallerRefs-len(refs))
		refs, paths = append(refs, found...), paths[n:]
	}
	slices.SortStableFunc(refs, func(a, b symbol.Ref) int {
		switch {
		case a.InTest == b.InTest:
			return 0
		case b.InTest:
			return -1
		}
		return 1
	})
	var out []ContextSymbol
	for _, r := range refs {
		if len(out) >= n || c.ctx.Err() != nil {
			break
		}
		if !r.Call {
			continue
		}
		content, ok := c.read(r.Path)
		if !ok {
			continue
		}
		holder, ok := holding(c.symbols(r.Path, content), r.Line)
		if !ok {
			continue
		}
		if d, ok := c.shown(holder, Caller, content); ok {
			out = append(out, d)
		}
	}
	return out
}

// holding returns the innermost function of syms that holds line.
func holding(syms []symbol.Symbol, line int) (symbol.Symbol, bool) {
	var best symbol.Symbol
	found := false
	for _, s := range syms {
		if isFunction(s.Kind) && s.Line <= line && line <= max(s.EndLine, s.Line) && (!found || s.Line >= best.Line) {
			best, found = s, true
		}
	}
	return best, found
}

// isFunction reports the kinds of symbol that hold code that runs.
func isFunction(k symbol.Kind) bool { return k == symbol.KindFunction || k == symbol.KindMethod }

// touched reports whether the change added or removed lines within s.
func touched(f *review.File, s symbol.Symbol) bool {
	for n := s.Line; n <= max(s.EndLine, s.Line); n++ {
		if f.Changed(n) || f.RemovedBefore(n) && n > s.Line {
			return true
		}
	}
	return false
}

// bodyOf returns lines Line to EndLine of content.
func bodyOf(content []byte, s symbol.Symbol) string {
	starts := syntax.LineStarts(content)
	if s.Line < 1 || s.Line > len(starts) {
		return ""
	}
	from := int(starts[s.Line-1])
	to := len(content)
	if end := max(s.EndLine, s.Line); end < len(starts) {
		to = int(starts[end])
	}
	return string(content[from:to])
}
