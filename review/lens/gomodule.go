package lens

import (
	"bufio"
	"bytes"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// GoModule is a go.mod file found above a Go file.
type GoModule struct {
	// Dir is the slash-separated, repo-relative directory of go.mod ("."
	// at the root).
	Dir string
	// Path is the module path.
	Path string
	// GoVersion is the go directive ("1.21", "1.22.3"), or "" when absent.
	GoVersion string
}

// GoMinor returns the minor number of the go directive (21 for "1.21.3"),
// or -1 when the directive is absent or malformed.
func (m *GoModule) GoMinor() int {
	if m == nil {
		return -1
	}
	rest, ok := strings.CutPrefix(m.GoVersion, "1.")
	if !ok {
		return -1
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	n, err := strconv.Atoi(rest[:digits])
	if err != nil {
		return -1
	}
	return n
}

// goModSearchDepth bounds the directories climbed to find a go.mod: deeper
// trees are unheard of, and the bound keeps a pathological path cheap.
const goModSearchDepth = 32

var goModulesOf review.Memo[*goModCache]

// goModCache memoises the go.mod lookup of each directory of a change set.
type goModCache struct {
	mu   sync.Mutex
	dirs map[string]*GoModule // guarded by mu; nil values mean "none"
}

// GoModuleOf returns the module whose go.mod is nearest above the
// repo-relative file path, or nil when there is none inside the work tree
// (the search never climbs above cs.Root). A go.mod under review is read
// from the change set, so an edit to its go directive is seen before it is
// saved; others are read from disk. Lookups are memoised per directory for
// the change set.
func GoModuleOf(cs *review.ChangeSet, file string) *GoModule {
	if cs == nil {
		return nil
	}
	c := goModulesOf.OfSet(cs, func() *goModCache { return &goModCache{dirs: map[string]*GoModule{}} })
	dir := path.Dir(file)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lookupLocked(cs, dir, 0)
}

func (c *goModCache) lookupLocked(cs *review.ChangeSet, dir string, depth int) *GoModule {
	if m, ok := c.dirs[dir]; ok {
		return m
	}
	var m *GoModule
	if content, ok := readGoMod(cs, dir); ok {
		m = ParseGoMod(content)
		m.Dir = dir
	} else if dir != "." && dir != "/" && dir != "" && depth < goModSearchDepth {
		m = c.lookupLocked(cs, path.Dir(dir), depth+1)
	}
	c.dirs[dir] = m
	return m
}

// readGoMod returns the content of dir/go.mod from the change set, or
// from disk under cs.Root.
func readGoMod(cs *review.ChangeSet, dir string) ([]byte, bool) {
	p := path.Join(dir, "go.mod")
	if f := cs.File(p); f != nil {
		if f.Status == review.StatusDeleted {
			return nil, false
		}
		if f.Content != nil {
			return f.Content, true
		}
	}
	if cs.Root == "" {
		return nil, false
	}
	b, err := regular.ReadFile(filepath.Join(cs.Root, filepath.FromSlash(p)))
	return b, err == nil
}

// ParseGoMod reads the module path and go directive of a go.mod file. It
// is a line scan, not a full parser: enough for rules that only need these
// two directives.
func ParseGoMod(content []byte) *GoModule {
	m := &GoModule{}
	sc := bufio.NewScanner(bytes.NewReader(content))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		switch f := strings.Fields(line); {
		case len(f) == 2 && f[0] == "module":
			m.Path = strings.Trim(f[1], `"`)
		case len(f) == 2 && f[0] == "go":
			m.GoVersion = f[1]
		}
	}
	return m
}
