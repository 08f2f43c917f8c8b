package orient

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/symbol"
	"github.com/reviewls/reviewls/review/syntax"
)

// maxLineIdents bounds the identifiers of one line that are looked up in
// the change, and maxRepoIdents those also searched for in the whole
// repository (each such search reads the language's tracked files).
const (
	maxLineIdents = 8
	maxRepoIdents = 3
)

// resolvePosition finds the symbol of FILE:LINE[:COL] in the changed file
// f, the way an editor's hover does:
//
//  1. with a column on an identifier (not a keyword): that identifier;
//  2. the symbol declared on the line (func, method, type, var, const;
//     def, class; function, class, const x =, method), or the one a doc
//     comment or decorator on the line belongs to;
//  3. the first identifier used on the line, at or after the column, that
//     the change or the repository defines (keywords, comments and string
//     literals skipped);
//  4. the declaration that encloses the line.
//
// col 0 means no column was given.
func resolvePosition(ctx context.Context, ws Workspace, res *review.Result, f *review.File, line, col int) (*resolved, error) {
	cs := res.ChangeSet
	byName := func(name string, repo bool) *resolved {
		if r := inChange(res, f, name, line); r != nil {
			return r
		}
		if !repo {
			return nil
		}
		if r := findInRepo(ctx, ws, cs, f.Language, name); r != nil {
			r.item = itemOfFile(res.Board, f.Path)
			return r
		}
		return nil
	}
	at := func(s symbol.Symbol) *resolved {
		return &resolved{sym: s, file: f.Path, content: f.Content, lang: f.Language, item: itemOfFile(res.Board, f.Path)}
	}
	if col > 0 {
		if name := symbol.IdentAt(f.Content, line, col); name != "" && !keywords[name] {
			if r := byName(name, true); r != nil {
				return r, nil
			}
			return nil, fmt.Errorf("%w: %q at %s:%d:%d has no definition in the repository", ErrSymbolNotFound, name, f.Path, line, col)
		}
	}
	syms := symbol.Extract(f.Path, f.Content, f.Language)
	if s := declaredOn(syms, f.Content, line, col); s != nil {
		return at(*s), nil
	}
	for i, name := range lineIdents(f, line, max(col, 1)) {
		if i >= maxLineIdents {
			break
		}
		if r := byName(name, i < maxRepoIdents); r != nil {
			return r, nil
		}
	}
	if s := symbol.Enclosing(syms, line); s != nil {
		return at(*s), nil
	}
	return nil, fmt.Errorf("%w: nothing is declared or used at %s:%d, and no declaration encloses the line", ErrSymbolNotFound, f.Path, line)
}

// declaredOn returns the symbol declared on line, or documented or
// decorated by the comment or decorator lines that start at line; nil if
// none. Of several declared on the line (a struct and its field), the one
// whose name is at or after col wins, else the outermost.
func declaredOn(syms []symbol.Symbol, content []byte, line, col int) *symbol.Symbol {
	lines := strings.Split(string(content), "\n")
	for n := line; n <= len(lines); n++ {
		var best *symbol.Symbol
		for i := range syms {
			s := &syms[i]
			if s.Line != n {
				continue
			}
			switch {
			case best == nil:
				best = s
			case n == line && col > 1 && s.NameCol >= col && (best.NameCol < col || s.NameCol < best.NameCol):
				best = s
			case (n != line || col <= 1 || best.NameCol < col) && s.EndLine-s.Line > best.EndLine-best.Line:
				best = s
			}
		}
		if best != nil {
			return best
		}
		// Only doc comment and decorator lines lead to the declaration
		// below them.
		if t := strings.TrimSpace(lines[n-1]); !leadsToDecl(t) {
			return nil
		}
	}
	return nil
}

// leadsToDecl reports a comment or decorator line, which belongs to the
// declaration after it.
func leadsToDecl(t string) bool {
	for _, p := range []string{"//", "/*", "*", "#", "@"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// lineIdents returns the identifiers of line that end at or after the
// byte column col, in order, without keywords: the tokens of the file's
// language (syntax.TokensOf, so comments and strings, multi-line ones
// included, are never read as names).
func lineIdents(f *review.File, line, col int) []string {
	toks := syntax.TokensOf(f)
	if toks == nil || line < 1 || line > len(toks.LineStart) {
		return nil
	}
	start := int(toks.LineStart[line-1])
	lineEnd := len(toks.Src)
	if line < len(toks.LineStart) {
		lineEnd = int(toks.LineStart[line])
	}
	if t := strings.TrimSpace(string(toks.Src[start:lineEnd])); strings.HasPrefix(t, "package ") || strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") {
		// The names of package clauses and imports are not symbols of
		// the repository.
		return nil
	}
	var out []string
	seen := map[string]bool{}
	first := sort.Search(len(toks.Toks), func(i int) bool { return int(toks.Toks[i].Line) >= line })
	for _, t := range toks.Toks[first:] {
		if int(t.Line) > line {
			break
		}
		if t.Kind != syntax.TokIdent || int(t.End)-start < col {
			continue
		}
		word := string(toks.Src[t.Off:t.End])
		if !keywords[word] && !seen[word] {
			seen[word] = true
			out = append(out, word)
		}
	}
	return out
}

// keywords are the reserved words (and the receivers self and this) of
// Go, Python, JavaScript and TypeScript: never the symbol a line is
// about.
var keywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var
		nil true false iota
		and as assert async await class def del elif except finally from global in is lambda nonlocal not or pass raise try while with yield None True False self cls
		catch debugger delete do export extends function instanceof let new of static super this throw typeof void null undefined
		abstract declare enum implements keyof namespace private protected public readonly satisfies`) {
		m[w] = true
	}
	return m
}()
