package gitdiff

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/internal/regular"
)

// Ignore rules follow git's dir.c: patterns are parsed like
// parse_path_pattern and matched like match_basename and match_pathname,
// with wildmatch. go-git's plumbing/format/gitignore is not used: it
// splits every path into components on each match, which costs an
// allocation per file in the hot loop of a scan, and it differs from git
// in corner cases of "**" and anchoring.

// ignorePattern is one pattern line of an ignore file.
type ignorePattern struct {
	text string // without '!' and the trailing '/'
	// base is the directory of the .gitignore holding the pattern, with a
	// trailing slash, or "" for the root, info/exclude and excludesFile.
	base      string
	negative  bool // "!pattern" re-includes
	mustBeDir bool // "pattern/" matches directories only
	noDir     bool // no slash: matches the base name at any depth
	endsWith  bool // "*literal": a suffix test
	// nowildcard is the length of the literal prefix of text.
	nowildcard int
}

// ignoreFrame holds the patterns of one ignore file and links to the frame
// of lower precedence: a directory's .gitignore links to its parent
// directory's, the root .gitignore to info/exclude, and that to
// core.excludesFile. Frames are immutable once built, so one frame is
// shared by every directory below it.
type ignoreFrame struct {
	parent   *ignoreFrame
	patterns []ignorePattern
}

// push returns the frame for the ignore file data found in directory base
// ("" or "dir/"), or f itself when the file holds no patterns.
func (f *ignoreFrame) push(data []byte, base string) *ignoreFrame {
	ps := parseIgnore(data, base)
	if len(ps) == 0 {
		return f
	}
	return &ignoreFrame{parent: f, patterns: ps}
}

// excluded reports whether the repo-relative path (a directory if isDir) is
// ignored: the last matching pattern of the most specific file decides.
// It does not look at the path's parent directories: the walk never enters
// an ignored directory, and everything below one is ignored.
func (f *ignoreFrame) excluded(path string, isDir bool) bool {
	basename := path[strings.LastIndexByte(path, '/')+1:]
	for ; f != nil; f = f.parent {
		for i := len(f.patterns) - 1; i >= 0; i-- {
			p := &f.patterns[i]
			if p.mustBeDir && !isDir {
				continue
			}
			if p.matches(path, basename) {
				return !p.negative
			}
		}
	}
	return false
}

// matches reports whether the pattern matches the repo-relative path,
// whose last component is basename.
func (p *ignorePattern) matches(path, basename string) bool {
	if p.noDir {
		return p.matchBasename(basename)
	}
	return p.matchPathname(path)
}

func (p *ignorePattern) matchBasename(name string) bool {
	switch {
	case p.nowildcard == len(p.text):
		return name == p.text
	case p.endsWith:
		return strings.HasSuffix(name, p.text[1:])
	}
	return wildmatch(p.text, name, false)
}

func (p *ignorePattern) matchPathname(path string) bool {
	pat, prefix := p.text, p.nowildcard
	if pat[0] == '/' {
		pat = pat[1:]
		prefix--
	}
	if len(path) <= len(p.base) || !strings.HasPrefix(path, p.base) {
		return false
	}
	name := path[len(p.base):]
	if prefix > 0 {
		if prefix > len(name) || name[:prefix] != pat[:prefix] {
			return false
		}
		pat, name = pat[prefix:], name[prefix:]
		if pat == "" {
			return name == ""
		}
	}
	return wildmatch(pat, name, true)
}

// parseIgnore parses the lines of an ignore file found in directory base.
func parseIgnore(data []byte, base string) []ignorePattern {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 BOM
	var out []ignorePattern
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		s := trimTrailingSpaces(string(line))
		negative := strings.HasPrefix(s, "!")
		if negative {
			s = s[1:]
		}
		p, ok := newPattern(s, base)
		if !ok {
			continue
		}
		p.negative = negative
		out = append(out, p)
	}
	return out
}

// newPattern parses the pattern s (without a leading "!") of a file in
// directory base, as git's parse_path_pattern does; false for an empty
// pattern.
func newPattern(s, base string) (ignorePattern, bool) {
	p := ignorePattern{base: base}
	if strings.HasSuffix(s, "/") {
		p.mustBeDir = true
		s = s[:len(s)-1]
	}
	if s == "" {
		return p, false
	}
	p.text = s
	p.noDir = !strings.Contains(s, "/")
	p.nowildcard = strings.IndexAny(s, "*?[\\")
	if p.nowildcard < 0 {
		p.nowildcard = len(s)
	}
	p.endsWith = s[0] == '*' && !strings.ContainsAny(s[1:], "*?[\\")
	return p, true
}

// trimTrailingSpaces removes unescaped trailing spaces, as git does (tabs
// are kept).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// readIgnoreFile reads an ignore file; a missing file is empty. git does
// not follow a symbolic link for an in-tree .gitignore, and neither does
// this.
func readIgnoreFile(path string, noFollow bool) []byte {
	if noFollow {
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
			return nil
		}
	}
	b, err := regular.ReadFile(path)
	if err != nil {
		return nil
	}
	return b
}

// baseFrame returns the frame of the repository-wide ignore files:
// core.excludesFile (lowest precedence) and $GIT_COMMON_DIR/info/exclude.
func baseFrame(cfg *gitConfig, commonDir string) *ignoreFrame {
	var f *ignoreFrame
	if p := cfg.excludesFile(); p != "" {
		f = f.push(readIgnoreFile(p, false), "")
	}
	return f.push(readIgnoreFile(filepath.Join(commonDir, "info", "exclude"), false), "")
}

// dirFrame returns the frame in effect inside directory dir (repo-relative,
// "" for the root), whose parent's frame is parent: parent plus dir's own
// .gitignore.
func dirFrame(root, dir string, parent *ignoreFrame) *ignoreFrame {
	base := ""
	if dir != "" {
		base = dir + "/"
	}
	data := readIgnoreFile(filepath.Join(root, filepath.FromSlash(base), ".gitignore"), true)
	return parent.push(data, base)
}

// Matcher answers whether paths of the work tree are ignored, with the same
// rules as a scan (.gitignore at every level, info/exclude,
// core.excludesFile, Options.Ignore and reviewls's own folder). The
// language server's watcher uses it to never watch ignored directories. It
// reads each directory's .gitignore once; it is safe for concurrent use.
// Create a new one after an ignore file changes.
type Matcher struct {
	root   string
	filter pathFilter
	base   *ignoreFrame

	mu     sync.Mutex
	frames map[string]*ignoreFrame // directory -> frame in effect inside it
}

// Matcher returns an ignore matcher for the repository's current ignore
// files.
func (r *Repo) Matcher() (*Matcher, error) {
	cfg, err := loadConfig(r.gitDir, r.commonDir)
	if err != nil {
		return nil, err
	}
	return &Matcher{
		root:   r.root,
		filter: r.pathFilter(),
		base:   baseFrame(cfg, r.commonDir),
		frames: map[string]*ignoreFrame{},
	}, nil
}

// Ignored reports whether the repo-relative, slash-separated path (a
// directory if isDir) is left out of reviews, either itself or because a
// parent directory is.
func (m *Matcher) Ignored(rel string, isDir bool) bool {
	rel = strings.Trim(rel, "/")
	if rel == "" || rel == "." {
		return false
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		dir := i < len(parts)-1 || isDir
		if parts[i] == ".git" || m.filter.excluded(p) {
			return true
		}
		if m.frame(strings.Join(parts[:i], "/")).excluded(p, dir) {
			return true
		}
	}
	return false
}

// frame returns the ignore frame in effect inside directory dir.
func (m *Matcher) frame(dir string) *ignoreFrame {
	m.mu.Lock()
	f, ok := m.frames[dir]
	m.mu.Unlock()
	if ok {
		return f
	}
	var parent *ignoreFrame
	switch up := path.Dir(dir); {
	case dir == "":
		parent = m.base
	case up == ".":
		parent = m.frame("")
	default:
		parent = m.frame(up)
	}
	f = dirFrame(m.root, dir, parent)
	m.mu.Lock()
	m.frames[dir] = f
	m.mu.Unlock()
	return f
}
