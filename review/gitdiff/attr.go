package gitdiff

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/internal/regular"
)

// Attributes follow git's attr.c. The files, from the highest precedence
// to the lowest: $GIT_COMMON_DIR/info/attributes, the .gitattributes of
// the path's own directory, those of its parent directories up to the
// root, core.attributesFile (default $XDG_CONFIG_HOME/git/attributes),
// /etc/gitattributes (unless GIT_ATTR_NOSYSTEM is set) and the built-in
// "[attr]binary -diff -merge -text". Within a file the last matching line
// wins. For each attribute the line of highest precedence that names it
// decides, and a macro set on a line expands there, into attributes that
// are still undecided. Patterns match as in .gitignore files, except that
// a negative pattern is ignored and a pattern ending in "/" matches no
// file. Macros may be defined only in the root .gitattributes and the
// files outside the work tree. An in-tree .gitattributes that is not a
// regular file (a symbolic link, say), or is missing, is read from the
// index, as git does when it checks files in.

// attrKind is the state of an attribute for a path.
type attrKind uint8

const (
	attrUnspecified attrKind = iota // no line decided it, or "!name"
	attrSet                         // "name"
	attrUnset                       // "-name"
	attrString                      // "name=value"
)

// attrValue is the value of an attribute for a path.
type attrValue struct {
	kind  attrKind
	value string // for attrString
}

func (v attrValue) is(s string) bool { return v.kind == attrString && v.value == s }

// attrAssign is one "name", "-name", "!name" or "name=value" of a line.
type attrAssign struct {
	name string
	val  attrValue
}

// attrLine is one pattern line of an attributes file.
type attrLine struct {
	pat    ignorePattern
	states []attrAssign
}

// attrMacro is one "[attr]name ..." definition.
type attrMacro struct {
	name   string
	states []attrAssign
}

// attrFile holds the lines of one attributes file.
type attrFile struct {
	lines  []attrLine
	macros []attrMacro
}

// maxAttrLine is git's ATTR_MAX_LINE_LENGTH: longer lines are ignored.
const maxAttrLine = 2048

// builtinAttributes is git's built-in attributes file.
const builtinAttributes = "[attr]binary -diff -merge -text\n"

// parseAttributes parses an attributes file found in directory base (""
// or "dir/"); macroOK allows macro definitions. Lines git rejects (a
// negative pattern, an invalid attribute name, an over-long line) are
// dropped, as git drops them with a warning.
func parseAttributes(data []byte, base string, macroOK bool) *attrFile {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	f := &attrFile{}
	for len(data) > 0 {
		var raw []byte
		raw, data, _ = bytes.Cut(data, []byte("\n"))
		if len(raw) >= maxAttrLine {
			continue
		}
		line := strings.TrimLeft(string(raw), attrBlank)
		if line == "" || line[0] == '#' {
			continue
		}
		var pattern, rest string
		if q, r, ok := unquoteC(line); ok {
			pattern, rest = q, r
		} else {
			n := strings.IndexAny(line, attrBlank)
			if n < 0 {
				n = len(line)
			}
			pattern, rest = line[:n], line[n:]
		}
		states, ok := parseAttrStates(rest)
		if !ok {
			continue
		}
		if name, isMacro := strings.CutPrefix(pattern, "[attr]"); isMacro && name != "" {
			if macroOK && validAttrName(name) {
				f.macros = append(f.macros, attrMacro{name: name, states: states})
			}
			continue
		}
		if strings.HasPrefix(pattern, "!") {
			continue // "Negative patterns are ignored in git attributes"
		}
		p, ok := newPattern(pattern, base)
		if !ok {
			continue
		}
		f.lines = append(f.lines, attrLine{pat: p, states: states})
	}
	return f
}

// attrBlank is the white space separating the fields of a line.
const attrBlank = " \t\r\n"

// parseAttrStates parses the attribute fields of a line.
func parseAttrStates(s string) ([]attrAssign, bool) {
	var out []attrAssign
	for _, field := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(attrBlank, r) }) {
		var a attrAssign
		switch {
		case field[0] == '-':
			a = attrAssign{name: field[1:], val: attrValue{kind: attrUnset}}
		case field[0] == '!':
			a = attrAssign{name: field[1:], val: attrValue{kind: attrUnspecified}}
		default:
			name, value, ok := strings.Cut(field, "=")
			a.name = name
			if ok {
				a.val = attrValue{kind: attrString, value: value}
			} else {
				a.val = attrValue{kind: attrSet}
			}
		}
		if !validAttrName(a.name) || strings.HasPrefix(a.name, "builtin_") {
			return nil, false
		}
		out = append(out, a)
	}
	return out, true
}

// validAttrName reports whether name is a valid attribute name: letters,
// digits, '-', '.' and '_', not starting with '-'.
func validAttrName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '-' || c == '.' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// unquoteC unquotes a C-style quoted string at the start of s (git's
// unquote_c_style), returning it and what follows the closing quote.
func unquoteC(s string) (string, string, bool) {
	if s == "" || s[0] != '"' {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			return b.String(), s[i+1:], true
		case '\\':
			i++
			if i >= len(s) {
				return "", "", false
			}
			switch c = s[i]; c {
			case 'a':
				c = '\a'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'v':
				c = '\v'
			case '\\', '"':
			case '0', '1', '2', '3':
				if i+2 >= len(s) || s[i+1] < '0' || s[i+1] > '7' || s[i+2] < '0' || s[i+2] > '7' {
					return "", "", false
				}
				c = (c-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0')
				i += 2
			default:
				return "", "", false
			}
		}
		b.WriteByte(c)
	}
	return "", "", false
}

// pathAttrs holds the attributes reviewls acts on, for one path.
type pathAttrs struct {
	text, crlf, eol, filter, diff, ident, encoding attrValue
}

func (p *pathAttrs) set(name string, v attrValue) {
	switch name {
	case "text":
		p.text = v
	case "crlf":
		p.crlf = v
	case "eol":
		p.eol = v
	case "filter":
		p.filter = v
	case "diff":
		p.diff = v
	case "ident":
		p.ident = v
	case "working-tree-encoding":
		p.encoding = v
	}
}

// attributes answers which attributes apply to the paths of one work tree.
// The files outside the work tree and the root .gitattributes are read
// when it is made, the others when a path below their directory is first
// looked up. It is safe for concurrent use.
type attributes struct {
	root string
	// outer are the files outside the work tree and the root one, from
	// the lowest precedence: built-in, system, global, root.
	outer []*attrFile
	info  *attrFile
	// macros are the macro definitions in effect, the one of highest
	// precedence for each name.
	macros map[string][]attrAssign
	// fromIndex reads a tracked file from the index, for an in-tree
	// .gitattributes missing from the work tree; nil reads nothing.
	fromIndex func(rel string) []byte

	mu   sync.Mutex
	dirs map[string]*attrFile // directory below the root -> its .gitattributes
}

// newAttributes reads the attribute files of the work tree at root whose
// common git directory is commonDir.
func newAttributes(cfg *gitConfig, root, commonDir string, fromIndex func(string) []byte) *attributes {
	a := &attributes{root: root, fromIndex: fromIndex, dirs: map[string]*attrFile{}}
	a.outer = append(a.outer, parseAttributes([]byte(builtinAttributes), "", true))
	if os.Getenv("GIT_ATTR_NOSYSTEM") == "" {
		a.outer = append(a.outer, parseAttributes(readIgnoreFile("/etc/gitattributes", false), "", true))
	}
	if p := cfg.attributesFile(); p != "" {
		a.outer = append(a.outer, parseAttributes(readIgnoreFile(p, false), "", true))
	}
	a.outer = append(a.outer, parseAttributes(a.readInTree(""), "", true))
	a.info = parseAttributes(readIgnoreFile(filepath.Join(commonDir, "info", "attributes"), false), "", true)

	a.macros = map[string][]attrAssign{}
	for _, f := range append(a.outer, a.info) {
		for _, m := range f.macros {
			a.macros[m.name] = m.states // later files take precedence
		}
	}
	return a
}

// empty reports whether no attributes file outside the subdirectories of
// the work tree has a pattern line.
func (a *attributes) empty() bool {
	if len(a.info.lines) > 0 {
		return false
	}
	for _, f := range a.outer {
		if len(f.lines) > 0 {
			return false
		}
	}
	return true
}

// readInTree reads the .gitattributes of directory dir ("" for the root):
// the regular file in the work tree, or else the index's.
func (a *attributes) readInTree(dir string) []byte {
	rel := ".gitattributes"
	if dir != "" {
		rel = dir + "/" + rel
	}
	abs := filepath.Join(a.root, filepath.FromSlash(rel))
	if fi, err := os.Lstat(abs); err == nil && fi.Mode().IsRegular() {
		if b, err := regular.ReadFile(abs); err == nil {
			return b
		}
	}
	if a.fromIndex != nil {
		return a.fromIndex(rel)
	}
	return nil
}

// dir returns the .gitattributes of directory dir (below the root).
func (a *attributes) dir(dir string) *attrFile {
	a.mu.Lock()
	f, ok := a.dirs[dir]
	a.mu.Unlock()
	if ok {
		return f
	}
	f = parseAttributes(a.readInTree(dir), dir+"/", false)
	a.mu.Lock()
	a.dirs[dir] = f
	a.mu.Unlock()
	return f
}

// lookup returns the attributes of the file at the repo-relative path rel.
func (a *attributes) lookup(rel string) pathAttrs {
	// The files in order of precedence, highest first.
	files := make([]*attrFile, 0, 8)
	files = append(files, a.info)
	for d := rel; ; {
		i := strings.LastIndexByte(d, '/')
		if i < 0 {
			break
		}
		d = d[:i]
		files = append(files, a.dir(d))
	}
	for i := len(a.outer) - 1; i >= 0; i-- {
		files = append(files, a.outer[i])
	}

	var res pathAttrs
	var decided []string
	var fill func(states []attrAssign)
	fill = func(states []attrAssign) {
		for i := len(states) - 1; i >= 0; i-- {
			s := &states[i]
			if slices.Contains(decided, s.name) {
				continue
			}
			decided = append(decided, s.name)
			res.set(s.name, s.val)
			if m, ok := a.macros[s.name]; ok && s.val.kind == attrSet {
				fill(m)
			}
		}
	}
	basename := rel[strings.LastIndexByte(rel, '/')+1:]
	for _, f := range files {
		for i := len(f.lines) - 1; i >= 0; i-- {
			l := &f.lines[i]
			if l.pat.mustBeDir {
				continue // attributes are looked up for files only
			}
			if l.pat.matches(rel, basename) {
				fill(l.states)
			}
		}
	}
	return res
}
