package risk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// defaultProfiles are the coverage profiles looked for at the root when
// Options.Coverage is empty: the names `go test -coverprofile`, codecov and
// the common JavaScript and Python tools write.
var defaultProfiles = []string{"coverage.out", "cover.out", "coverage.txt", "lcov.info", "coverage/lcov.info"}

// maxProfileSize caps the coverage profile read on each assessment: a
// profile of a very large repository can reach tens of MiB, and Assess
// runs on every save, so a bigger one is reported instead of parsed.
const maxProfileSize = 64 << 20

// Coverage thresholds on the changed statements (or lines) of a file. They
// follow the Google testing blog's "Code coverage best practices" (2020):
// 60% is "acceptable", 75% "commendable".
const (
	// coverageWeak: below it the tests barely reach the change, which is
	// weak detection when the file is important logic.
	coverageWeak = 0.60
	// coverageGood: at or above it a change counts as well covered, one of
	// the conditions of a basic recommendation.
	coverageGood = 0.75
)

// Profile formats.
const (
	formatGo   = "Go cover profile"
	formatLCOV = "LCOV"
)

// fileCov is the coverage of one changed file in one profile, in the
// profile's unit (statements for Go, lines for LCOV).
type fileCov struct {
	total, covered               int
	changedTotal, changedCovered int
}

// profile is one parsed coverage profile, reduced to the changed files.
type profile struct {
	name   string // as shown to the user (root-relative when inside the root)
	format string
	mode   string
	mtime  time.Time
	files  map[string]*fileCov // changed path → coverage
	// exts are the file extensions the profile lists, to scope staleness.
	exts map[string]bool
	// stale lists the changed files modified after the profile was written.
	stale []string
}

func (p *profile) unit() string {
	if p.format == formatGo {
		return "statements"
	}
	return "lines"
}

// coverageResult is what the coverage signal learned.
type coverageResult struct {
	profiles []*profile
	// problems are profiles that exist but could not be used.
	problems []string
}

// observed reports whether at least one profile was parsed.
func (c *coverageResult) observed() bool { return len(c.profiles) > 0 }

// stale reports whether any parsed profile is older than a changed file.
func (c *coverageResult) stale() bool {
	for _, p := range c.profiles {
		if len(p.stale) > 0 {
			return true
		}
	}
	return false
}

// of returns the coverage of a changed path in the first profile that
// lists it.
func (c *coverageResult) of(p string) (*fileCov, *profile) {
	for _, pr := range c.profiles {
		if fc := pr.files[p]; fc != nil {
			return fc, pr
		}
	}
	return nil, nil
}

// assessCoverage finds and parses the coverage profiles. It stats the
// candidate paths only, reads each existing profile once, and stats the
// changed files of the profile's languages to detect a stale profile.
func assessCoverage(files []*fileFacts, root string, names []string) *coverageResult {
	res := &coverageResult{}
	explicit := len(names) > 0
	if !explicit {
		if root == "" {
			return res
		}
		names = defaultProfiles
	}
	var res2 *resolver // made for the first profile found: most saves find none
	for _, name := range names {
		full := name
		if !filepath.IsAbs(full) {
			if root == "" {
				res.problems = append(res.problems, fmt.Sprintf("%s: work tree unknown", name))
				continue
			}
			full = filepath.Join(root, filepath.FromSlash(name))
		}
		display := displayName(root, full)
		fi, err := os.Stat(full)
		if err != nil {
			if explicit {
				res.problems = append(res.problems, fmt.Sprintf("%s: %v", display, errors.Unwrap(err)))
			}
			continue
		}
		if !fi.Mode().IsRegular() {
			res.problems = append(res.problems, display+": not a regular file")
			continue
		}
		if fi.Size() > maxProfileSize {
			res.problems = append(res.problems, fmt.Sprintf("%s: %d MiB exceeds the %d MiB cap", display, fi.Size()>>20, maxProfileSize>>20))
			continue
		}
		if res2 == nil {
			res2 = &resolver{root: root, changed: changedLines(files), cache: map[string]string{}}
		}
		p, err := parseProfile(full, res2)
		if err != nil {
			res.problems = append(res.problems, fmt.Sprintf("%s: %v", display, err))
			continue
		}
		p.name, p.mtime = display, fi.ModTime()
		p.stale = staleFiles(files, root, p)
		res.profiles = append(res.profiles, p)
	}
	return res
}

// changedLines maps the reviewed, not deleted, non-documentation files to
// their added line numbers.
func changedLines(files []*fileFacts) map[string][]int {
	changed := map[string][]int{}
	for _, ff := range files {
		if ff.skipped || ff.f.Status == review.StatusDeleted || ff.doc {
			continue
		}
		lines := make([]int, len(ff.added))
		for i, l := range ff.added {
			lines[i] = l.n
		}
		changed[ff.path] = lines
	}
	return changed
}

func displayName(root, full string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, full); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return full
}

// staleFiles returns the changed, non-deleted source files in the scope of
// profile p (its languages) whose modification time is after the
// profile's.
func staleFiles(files []*fileFacts, root string, p *profile) []string {
	if root == "" {
		return nil
	}
	var out []string
	for _, ff := range files {
		if !ff.code || ff.skipped || ff.f.Status == review.StatusDeleted {
			continue
		}
		if p.format == formatGo && ff.lang != review.LangGo ||
			p.format == formatLCOV && !p.exts[path.Ext(ff.path)] && p.files[ff.path] == nil {
			continue
		}
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(ff.path)))
		if err == nil && fi.ModTime().After(p.mtime) {
			out = append(out, ff.path)
		}
	}
	return out
}

// resolver maps the file names of a profile to changed paths.
type resolver struct {
	root    string
	module  string // Go module path of root/go.mod, read on first need
	modRead bool
	changed map[string][]int // changed path → changed line numbers
	cache   map[string]string
}

// resolve returns the changed path a profile file name denotes, or "". It
// tries, in order: an absolute path under the root; the root module's
// import path ("github.com/x/y/pkg/a.go" → "pkg/a.go"); the name itself;
// and the longest changed path in a directory that the name ends with (a
// nested module, an LCOV report written elsewhere).
func (r *resolver) resolve(name string, goProfile bool) string {
	if v, ok := r.cache[name]; ok {
		return v
	}
	v := r.resolveUncached(name, goProfile)
	r.cache[name] = v
	return v
}

func (r *resolver) resolveUncached(name string, goProfile bool) string {
	n := filepath.ToSlash(name)
	if goProfile && strings.HasPrefix(n, "_/") { // a Go package outside any module
		n = n[1:]
	}
	if r.root != "" && (filepath.IsAbs(name) || strings.HasPrefix(n, "/")) {
		if rel, err := filepath.Rel(r.root, filepath.FromSlash(n)); err == nil && !strings.HasPrefix(rel, "..") {
			n = filepath.ToSlash(rel)
		}
	}
	if goProfile {
		if !r.modRead {
			r.modRead = true
			r.module = modulePath(r.root)
		}
		if r.module != "" && strings.HasPrefix(n, r.module+"/") {
			n = n[len(r.module)+1:]
		}
	}
	n = path.Clean(n)
	if _, ok := r.changed[n]; ok {
		return n
	}
	found := ""
	for c := range r.changed {
		// A root file ("a.go") is too short a suffix to trust: another
		// module's a.go would match it. Of several matches the longest is
		// the most specific (two distinct suffixes never have one length).
		if strings.Contains(c, "/") && strings.HasSuffix(n, "/"+c) && len(c) > len(found) {
			found = c
		}
	}
	return found
}

// modulePath reads the module path from root/go.mod, or returns "".
func modulePath(root string) string {
	if root == "" {
		return ""
	}
	f, err := regular.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// parseProfile parses a Go cover profile or an LCOV report, keeping the
// data of changed files only.
func parseProfile(name string, r *resolver) (*profile, error) {
	f, err := regular.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var first []byte
	for sc.Scan() {
		if first = bytes.TrimSpace(sc.Bytes()); len(first) > 0 {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(first, []byte("mode:")):
		p := &profile{format: formatGo, mode: strings.TrimSpace(string(first[len("mode:"):]))}
		return p, parseGo(sc, r, p)
	case bytes.HasPrefix(first, []byte("TN:")) || bytes.HasPrefix(first, []byte("SF:")):
		p := &profile{format: formatLCOV}
		return p, parseLCOV(sc, first, r, p)
	case len(first) == 0:
		return nil, errors.New("empty file")
	}
	return nil, errors.New("neither a Go cover profile (mode: …) nor an LCOV report (SF:/DA:)")
}

type goBlock struct {
	startLine, startCol, endLine, endCol int
}

// parseGo reads the blocks of a Go cover profile:
// "name.go:startLine.startCol,endLine.endCol numStmts count".
func parseGo(sc *bufio.Scanner, r *resolver, p *profile) error {
	type blockData struct{ stmts, count int }
	blocks := map[string]map[goBlock]*blockData{}
	var lastName []byte
	cur := ""
	lineNo := 1
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		colon := bytes.LastIndexByte(line, ':')
		if colon <= 0 {
			return fmt.Errorf("line %d: malformed block", lineNo)
		}
		if !bytes.Equal(line[:colon], lastName) {
			lastName = append(lastName[:0], line[:colon]...)
			cur = r.resolve(string(lastName), true)
		}
		if cur == "" {
			continue
		}
		nums, ok := parseInts(line[colon+1:], 6)
		if !ok {
			return fmt.Errorf("line %d: malformed block", lineNo)
		}
		b := goBlock{nums[0], nums[1], nums[2], nums[3]}
		m := blocks[cur]
		if m == nil {
			m = map[goBlock]*blockData{}
			blocks[cur] = m
		}
		if d := m[b]; d != nil {
			d.count += nums[5] // merged profiles list a block once per test binary
		} else {
			m[b] = &blockData{nums[4], nums[5]}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	p.exts = map[string]bool{".go": true}
	p.files = map[string]*fileCov{}
	for file, m := range blocks {
		fc := &fileCov{}
		lines := r.changed[file]
		for b, d := range m {
			fc.total += d.stmts
			if d.count > 0 {
				fc.covered += d.stmts
			}
			i := sort.SearchInts(lines, b.startLine)
			if i < len(lines) && lines[i] <= b.endLine {
				fc.changedTotal += d.stmts
				if d.count > 0 {
					fc.changedCovered += d.stmts
				}
			}
		}
		p.files[file] = fc
	}
	return nil
}

// parseLCOV reads the SF: and DA: records of an LCOV report.
func parseLCOV(sc *bufio.Scanner, first []byte, r *resolver, p *profile) error {
	hits := map[string]map[int]int{}
	p.exts = map[string]bool{}
	cur := ""
	handle := func(line []byte) {
		switch {
		case bytes.HasPrefix(line, []byte("SF:")):
			name := string(bytes.TrimSpace(line[3:]))
			p.exts[path.Ext(name)] = true
			cur = r.resolve(name, false)
		case bytes.HasPrefix(line, []byte("DA:")) && cur != "":
			nums, ok := parseInts(line[3:], 2)
			if !ok {
				return
			}
			m := hits[cur]
			if m == nil {
				m = map[int]int{}
				hits[cur] = m
			}
			m[nums[0]] += nums[1]
		case bytes.Equal(line, []byte("end_of_record")):
			cur = ""
		}
	}
	handle(first)
	for sc.Scan() {
		handle(bytes.TrimSpace(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		return err
	}
	p.files = map[string]*fileCov{}
	for file, m := range hits {
		fc := &fileCov{}
		lines := r.changed[file]
		for n, h := range m {
			fc.total++
			if h > 0 {
				fc.covered++
			}
			if _, ok := slices.BinarySearch(lines, n); ok {
				fc.changedTotal++
				if h > 0 {
					fc.changedCovered++
				}
			}
		}
		p.files[file] = fc
	}
	return nil
}

// parseInts reads want non-negative decimal integers separated by any
// single non-digit bytes (".", ",", " "), ignoring what follows them.
func parseInts(b []byte, want int) ([]int, bool) {
	out := make([]int, 0, want)
	i := 0
	for len(out) < want {
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		v := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			v = v*10 + int(b[i]-'0')
			if v > 1<<40 {
				return nil, false
			}
			i++
		}
		out = append(out, v)
		if len(out) < want {
			if i >= len(b) {
				return nil, false
			}
			i++ // separator
		}
	}
	return out, true
}
