package orient

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
)

// ExplainRequest names the symbol to explain: a position in a changed file
// (Path, Line, Col: 1-based, byte column; Col 0 when only the line is
// given), or a board item and a symbol name (Item, Symbol).
type ExplainRequest struct {
	Path      string
	Line, Col int
	Item      string
	Symbol    string
}

// Explanation is a Register 1 answer: what a symbol is and what the change
// did to it, with no severity, verdict or recommendation.
type Explanation struct {
	Item   string
	Symbol string // qualified name
	Path   string // where it is defined
	Line   int
	// Change is what the change did to it: added, removed, signature
	// changed, body changed, doc comment changed (and nothing else),
	// unchanged.
	Change   string
	Markdown string
	// FollowOn are symbols worth looking at next.
	FollowOn []string
}

// ErrSymbolNotFound reports a symbol the explainer cannot resolve.
var ErrSymbolNotFound = errors.New("symbol not found")

// resolved is a symbol found for an explanation.
type resolved struct {
	sym     symbol.Symbol
	file    string
	content []byte
	lang    review.Language
	item    *review.BoardItem
	cf      *review.File // the changed file holding it, nil when unchanged
}

// Explain answers "what is this symbol" for a changed file.
func Explain(ctx context.Context, ws Workspace, res *review.Result, req ExplainRequest) (*Explanation, error) {
	r, err := resolve(ctx, ws, res, req)
	if err != nil {
		return nil, err
	}
	cs := res.ChangeSet
	if f := cs.File(r.file); f != nil && f.Reviewed() {
		r.cf = f
	}
	change := symbolChange(ctx, ws, cs, r)
	calls := symbol.Calls(r.content, r.lang, r.sym)
	types := symbol.TypesUsed(r.content, r.lang, r.sym)
	refs, _ := symbol.References(ws.Root(), searchFiles(ws, cs, r.lang), overlayOf(cs), r.sym.Name, &r.sym, 50)
	var callers []symbol.Ref
	for _, ref := range refs {
		if ref.Call {
			callers = append(callers, ref)
		}
	}
	e := &Explanation{
		Item:   itemID(r.item),
		Symbol: r.sym.QualifiedName(),
		Path:   r.file,
		Line:   r.sym.Line,
		Change: changeText(change),
	}
	if change.Kind == symbol.ChangeBody && docChanged(change) && changedIn(r, r.sym) == "" {
		e.Change = "doc comment changed"
	}
	e.FollowOn = followOn(res, r, calls, types)
	e.Markdown = explanationMarkdown(r, change, calls, types, callers, e)
	return e, nil
}

func itemID(it *review.BoardItem) string {
	if it == nil {
		return ""
	}
	return it.ID
}

// resolve finds the symbol of an explain request.
func resolve(ctx context.Context, ws Workspace, res *review.Result, req ExplainRequest) (*resolved, error) {
	cs := res.ChangeSet
	if req.Path != "" {
		f := cs.File(req.Path)
		if f == nil || !f.Reviewed() {
			return nil, fmt.Errorf("%s is not a changed file of this review", req.Path)
		}
		return resolvePosition(ctx, ws, res, f, req.Line, req.Col)
	}
	var item *review.BoardItem
	for i := range res.Board {
		if res.Board[i].ID == req.Item {
			item = &res.Board[i]
		}
	}
	if item == nil {
		var known []string
		for _, it := range res.Board {
			known = append(known, it.ID)
		}
		return nil, &ErrUnknownItem{ID: req.Item, Known: known}
	}
	if req.Symbol == "" {
		return nil, fmt.Errorf("%w: no symbol named (the symbols of %s are %s)", ErrSymbolNotFound, item.ID, strings.Join(item.SelectableSymbols, ", "))
	}
	for _, p := range item.Files {
		f := cs.File(p)
		if f == nil || !f.Reviewed() {
			continue
		}
		if defs := symbol.Find(symbol.Extract(f.Path, f.Content, f.Language), req.Symbol); len(defs) > 0 {
			return &resolved{sym: defs[0], file: f.Path, content: f.Content, lang: f.Language, item: item}, nil
		}
	}
	known := "none"
	if len(item.SelectableSymbols) > 0 {
		known = strings.Join(item.SelectableSymbols, ", ")
	}
	return nil, fmt.Errorf("%w: %q is not defined in the files of %s (its changed symbols: %s)", ErrSymbolNotFound, req.Symbol, item.ID, known)
}

// inChange finds the definition of name used at line of the changed file
// f: in f itself (the nearest one), then in the other changed files of its
// language family.
func inChange(res *review.Result, f *review.File, name string, line int) *resolved {
	if defs := symbol.Find(symbol.Extract(f.Path, f.Content, f.Language), name); len(defs) > 0 {
		return &resolved{sym: nearest(defs, line), file: f.Path, content: f.Content, lang: f.Language, item: itemOfFile(res.Board, f.Path)}
	}
	for _, o := range res.ChangeSet.Reviewed() {
		if o.Path == f.Path || o.Language.Family() != f.Language.Family() {
			continue
		}
		if defs := symbol.Find(symbol.Extract(o.Path, o.Content, o.Language), name); len(defs) > 0 {
			return &resolved{sym: defs[0], file: o.Path, content: o.Content, lang: o.Language, item: itemOfFile(res.Board, o.Path)}
		}
	}
	return nil
}

// DefinedInChange returns the identifier at line:col (1-based, byte
// column) of the changed file path when the change itself defines it —
// the file or another changed file of its language — so that an editor
// offers "Explain" only where the explanation can be written. Keywords,
// locals and names defined elsewhere give "".
func DefinedInChange(res *review.Result, path string, line, col int) string {
	f := res.ChangeSet.File(path)
	if f == nil || !f.Reviewed() {
		return ""
	}
	name := symbol.IdentAt(f.Content, line, col)
	if name == "" || inChange(res, f, name, line) == nil {
		return ""
	}
	return name
}

// nearest returns the definition closest to line (a name may be declared
// several times, e.g. a method on two types).
func nearest(defs []symbol.Symbol, line int) symbol.Symbol {
	best := defs[0]
	for _, d := range defs {
		if d.Line <= line && line <= d.EndLine {
			return d
		}
		if abs(d.Line-line) < abs(best.Line-line) {
			best = d
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// findInRepo looks for a definition of name among the tracked files of the
// language family, reading only files that mention it.
func findInRepo(ctx context.Context, ws Workspace, cs *review.ChangeSet, lang review.Language, name string) *resolved {
	for _, p := range searchFiles(ws, cs, lang) {
		if ctx.Err() != nil {
			return nil
		}
		content, ok := readFile(ws, cs, p)
		if !ok || !strings.Contains(string(content), name) {
			continue
		}
		l := review.DetectLanguage(p, content)
		if defs := symbol.Find(symbol.Extract(p, content, l), name); len(defs) > 0 {
			return &resolved{sym: defs[0], file: p, content: content, lang: l}
		}
	}
	return nil
}

// itemOfFile returns the board item whose files hold path.
func itemOfFile(board []review.BoardItem, path string) *review.BoardItem {
	for i := range board {
		for _, p := range board[i].Files {
			if p == path {
				return &board[i]
			}
		}
	}
	return nil
}

// symbolChange says what the change did to the resolved symbol.
func symbolChange(ctx context.Context, ws Workspace, cs *review.ChangeSet, r *resolved) symbol.Change {
	f := cs.File(r.file)
	if f == nil {
		return symbol.Change{Symbol: r.sym, Kind: symbol.ChangeNone}
	}
	old, err := ws.ReadBase(ctx, f.BasePath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return symbol.Change{Symbol: r.sym, Kind: symbol.ChangeNone}
	}
	oldSyms := symbol.Extract(r.file, old, r.lang)
	newSyms := symbol.Extract(r.file, f.Content, r.lang)
	for _, c := range symbol.Renamed(symbol.Diff(oldSyms, newSyms, f.Content, f.Changed), old, f.Content) {
		if c.Symbol.QualifiedName() == r.sym.QualifiedName() && c.Symbol.Kind == r.sym.Kind {
			return c
		}
	}
	return symbol.Change{Symbol: r.sym, Kind: symbol.ChangeNone}
}

// ChangedSymbols returns the symbols a file's change added, removed or
// changed (changed-symbol lenses, board items, investigations).
func ChangedSymbols(ctx context.Context, ws Workspace, f *review.File) []symbol.Change {
	if f == nil || !f.Reviewed() {
		return nil
	}
	var old []byte
	if f.Status != review.StatusAdded && f.Status != review.StatusUntracked {
		old, _ = ws.ReadBase(ctx, f.BasePath())
	}
	var out []symbol.Change
	for _, c := range symbol.Renamed(symbol.Diff(symbol.OfBase(f, old), symbol.Of(f), f.Content, f.Changed), old, f.Content) {
		if c.Kind != symbol.ChangeNone {
			out = append(out, c)
		}
	}
	return out
}

// followOn picks the symbols worth looking at next: what the symbol calls
// and the types it uses that the change also touched, then the rest.
func followOn(res *review.Result, r *resolved, calls, types []string) []string {
	changed := map[string]bool{}
	for _, it := range res.Board {
		for _, s := range it.SelectableSymbols {
			changed[s] = true
		}
	}
	var first, rest []string
	seen := map[string]bool{r.sym.QualifiedName(): true, r.sym.Name: true}
	for _, n := range append(append([]string{}, calls...), types...) {
		base := n[strings.LastIndexByte(n, '.')+1:]
		if seen[n] || seen[base] {
			continue
		}
		seen[n] = true
		if changed[n] || changed[base] {
			first = append(first, n)
		} else {
			rest = append(rest, n)
		}
	}
	out := append(first, rest...)
	if len(out) > 8 {
		out = out[:8]
	}
	return out
}

// explanationMarkdown renders the explanation (Register 1: facts only).
func explanationMarkdown(r *resolved, change symbol.Change, calls, types []string, callers []symbol.Ref, e *Explanation) string {
	var b strings.Builder
	s := r.sym
	fmt.Fprintf(&b, "# Explanation: `%s`\n\n", s.QualifiedName())
	b.WriteString("A factual account of the symbol and of what the change did to it. It grades nothing.\n\n")
	if e.Item != "" {
		fmt.Fprintf(&b, "- **Board item:** %s\n", e.Item)
	}
	kind := string(s.Kind)
	if s.Container != "" {
		kind += " of `" + s.Container + "`"
	}
	fmt.Fprintf(&b, "- **Kind:** %s\n", kind)
	fmt.Fprintf(&b, "- **Defined in:** [`%s:%d`](%s)\n", r.file, s.Line, mdLink(r.file, s.Line))
	fmt.Fprintf(&b, "- **Change:** %s\n", e.Change)
	switch public, why := s.Public(); {
	case public:
		b.WriteString("- **Visibility:** exported (part of the package's or module's public surface)\n")
	case why != "":
		fmt.Fprintf(&b, "- **Visibility:** not part of the public surface: %s\n", why)
	}
	fmt.Fprintf(&b, "\n```%s\n%s\n```\n", r.lang.Info().Fence, s.Signature)
	if s.Doc != "" {
		fmt.Fprintf(&b, "\n%s\n", quote(s.Doc))
	} else {
		b.WriteString("\nIt has no doc comment.\n")
	}
	if len(s.Fields) > 0 || len(s.Methods) > 0 {
		b.WriteString("\n## Shape\n\n")
		if len(s.Fields) > 0 {
			fmt.Fprintf(&b, "- Fields: %s\n", codeList(s.Fields))
		}
		if len(s.Methods) > 0 {
			fmt.Fprintf(&b, "- Methods: %s\n", codeList(s.Methods))
		}
	}
	b.WriteString("\n## What the change did\n\n")
	switch change.Kind {
	case symbol.ChangeSignature:
		fmt.Fprintf(&b, "The signature changed from\n\n```%s\n%s\n```\n\nto the one above.\n", r.lang.Info().Fence, change.Old.Signature)
	case symbol.ChangeAdded:
		b.WriteString("The change adds it.\n")
	case symbol.ChangeRenamed:
		fmt.Fprintf(&b, "The change renames it from `%s`; the rest of its declaration is unchanged", change.Old.QualifiedName())
		if docChanged(change) {
			b.WriteString(", its doc comment aside")
		}
		b.WriteString(".\n")
	case symbol.ChangeRemoved:
		b.WriteString("The change removes it.\n")
	case symbol.ChangeBody:
		body, doc := changedIn(r, s), docChanged(change)
		switch {
		case doc && body == "":
			b.WriteString("Its signature and body are unchanged; only its doc comment changed.\n")
		case doc:
			fmt.Fprintf(&b, "Its signature is unchanged; its doc comment changed, and its body (lines %s).\n", body)
		case body == "":
			b.WriteString("Its signature is unchanged; its body changed.\n")
		default:
			fmt.Fprintf(&b, "Its signature is unchanged; its body changed (lines %s).\n", body)
		}
		if doc && change.Old.Doc != "" {
			fmt.Fprintf(&b, "\nThe doc comment read:\n\n%s\n", quote(change.Old.Doc))
		} else if doc {
			b.WriteString("\nIt had no doc comment before.\n")
		}
	default:
		b.WriteString("The change does not touch it; it is defined outside the changed lines.\n")
	}
	b.WriteString("\n## Code\n\n")
	fmt.Fprintf(&b, "[`%s:%d-%d`](%s)\n\n```%s\n%s```\n", r.file, s.Line, s.EndLine, mdLink(r.file, s.Line), r.lang.Info().Fence, excerpt(r.content, s.Line, s.EndLine, 40))
	b.WriteString("\n## Follow-on symbols\n\n")
	fmt.Fprintf(&b, "- Calls: %s\n", orNone(codeList(limitList(calls, 15))))
	var by []string
	for _, c := range callers {
		by = append(by, fmt.Sprintf("[`%s:%d`](%s)", c.Path, c.Line, mdLink(c.Path, c.Line)))
	}
	fmt.Fprintf(&b, "- Called from: %s\n", orNone(strings.Join(limitList(by, 15), ", ")))
	fmt.Fprintf(&b, "- Types used: %s\n", orNone(codeList(limitList(types, 15))))
	if len(e.FollowOn) > 0 {
		fmt.Fprintf(&b, "- Worth inspecting next: %s\n", codeList(e.FollowOn))
	}
	return b.String()
}

// changeText names the kind of a change, a rename with the old name.
func changeText(c symbol.Change) string {
	switch c.Kind {
	case "":
		return string(symbol.ChangeNone)
	case symbol.ChangeRenamed:
		return "renamed from " + c.Old.QualifiedName()
	}
	return string(c.Kind)
}

// docChanged reports a change to the symbol's doc comment.
func docChanged(c symbol.Change) bool { return c.Old != nil && c.Old.Doc != c.Symbol.Doc }

// changedIn lists the changed lines inside the symbol, compactly.
func changedIn(r *resolved, s symbol.Symbol) string {
	var lines []int
	for n := s.Line; n <= s.EndLine; n++ {
		if r.changed(n) {
			lines = append(lines, n)
		}
	}
	return ranges(lines)
}

// changed reports whether line n of the resolved symbol's file changed.
func (r *resolved) changed(n int) bool { return r.cf != nil && r.cf.Changed(n) }

// ranges renders sorted line numbers as "3-5, 9" ("" for none).
func ranges(lines []int) string {
	if len(lines) == 0 {
		return ""
	}
	var parts []string
	start, prev := lines[0], lines[0]
	flush := func() {
		if start == prev {
			parts = append(parts, fmt.Sprint(start))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", start, prev))
		}
	}
	for _, n := range lines[1:] {
		if n == prev+1 {
			prev = n
			continue
		}
		flush()
		start, prev = n, n
	}
	flush()
	return strings.Join(parts, ", ")
}

// excerpt returns lines [from, to] of content with line numbers, at most
// max lines (then an ellipsis).
func excerpt(content []byte, from, to, max int) string {
	lines := strings.Split(string(content), "\n")
	var b strings.Builder
	for n := from; n <= to && n <= len(lines); n++ {
		if n-from >= max {
			fmt.Fprintf(&b, "… (%d more lines)\n", to-n+1)
			break
		}
		fmt.Fprintf(&b, "%4d  %s\n", n, strings.TrimSuffix(lines[n-1], "\r"))
	}
	return b.String()
}

// mdLink links a repo-relative file line from an artifact in the review
// folder (.copilot-tracking/reviews/code-reviews/<branch>/<sub>/).
func mdLink(path string, line int) string {
	return fmt.Sprintf("../../../../../%s#L%d", path, line)
}

func quote(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n> ")
}

func codeList(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return "`" + strings.Join(s, "`, `") + "`"
}

func limitList(s []string, n int) []string {
	if len(s) > n {
		return append(append([]string{}, s[:n]...), fmt.Sprintf("… %d more", len(s)-n))
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none found"
	}
	return s
}
