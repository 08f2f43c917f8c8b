package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"log"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A fixCommit is what draw knows of a commit: its message and the files it
// changes.
type fixCommit struct {
	SHA, Subject, Message string
	Files                 []fileChange
}

// fileChange is one changed file and its added plus deleted lines (-1 for
// a binary file).
type fileChange struct {
	Path  string
	Lines int
}

// fixWords are the words of a message that say a commit fixes a bug.
var fixWords = regexp.MustCompile(`(?i)\b(fix(e[sd]|ing)?|bug(s|fix(es)?)?|hotfix(es)?|regression|crash(e[sd]|ing)?|panic(s|ked|king)?|wrong(ly)?|incorrect(ly)?|broken)\b`)

// codeExt are the extensions of the source files a fix must change.
var codeExt = map[string]bool{
	".go": true, ".py": true,
	".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".mts": true, ".cts": true, ".tsx": true,
}

// language names the language of a source path for the tables, "" for
// none of them.
func language(p string) string {
	switch ext := path.Ext(p); {
	case ext == ".go":
		return "Go"
	case ext == ".py":
		return "Python"
	case codeExt[ext]:
		return "JS/TS"
	}
	return ""
}

// isTestPath reports whether p is a test, a test fixture or a test helper
// by the conventions of Go, Python and JS/TS projects.
func isTestPath(p string) bool {
	base := path.Base(p)
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "test", "tests", "testdata", "testing", "__tests__", "integration", "integration-cli", "fixtures", "e2e":
			return true
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") || strings.HasSuffix(stem, "_test") ||
		base == "conftest.py" || strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
}

// Bounds of an eligible fix: the source files it changes and their
// changed lines, tests included; other files (changelogs, docs) do not
// count.
const (
	maxFixFiles = 5
	maxFixLines = 80
)

// eligible reports whether c is a fix the bug-fix corpus may draw: its
// message says it fixes something, it is no dependency bump, and it
// changes 1–5 source files (vendored ones aside) of at most 80 lines in
// all, at least one of them no test.
func eligible(c fixCommit) bool {
	if !fixWords.MatchString(c.Message) || bump.MatchString(c.Subject) {
		return false
	}
	files, lines, code := 0, 0, false
	for _, f := range c.Files {
		if !codeExt[path.Ext(f.Path)] || strings.Contains(f.Path, "vendor/") || strings.Contains(f.Path, "node_modules/") {
			continue
		}
		if f.Lines < 0 {
			return false
		}
		files++
		lines += f.Lines
		code = code || !isTestPath(f.Path)
	}
	return code && files >= 1 && files <= maxFixFiles && lines <= maxFixLines
}

// drawRank is a commit's place in the draw of seed: the draw orders the
// eligible commits by the SHA-256 of the seed and the commit, so the
// order depends on nothing else (not the order git walks the history, nor
// commits added to it later).
func drawRank(seed int64, sha string) string {
	h := sha256.Sum256([]byte(strconv.FormatInt(seed, 10) + ":" + sha))
	return fmt.Sprintf("%x", h)
}

// drawOrder returns the commits in the order of the draw of seed.
func drawOrder(seed int64, cs []fixCommit) []fixCommit {
	out := slices.Clone(cs)
	rank := make(map[string]string, len(out))
	for _, c := range out {
		rank[c.SHA] = drawRank(seed, c.SHA)
	}
	slices.SortFunc(out, func(a, b fixCommit) int { return strings.Compare(rank[a.SHA], rank[b.SHA]) })
	return out
}

// parseLog reads the output of git log --format=%x1e%H%x1f%s%x1f%B%x1f
// --numstat --no-renames.
func parseLog(out []byte) []fixCommit {
	var cs []fixCommit
	for _, rec := range bytes.Split(out, []byte{0x1e}) {
		f := strings.SplitN(string(rec), "\x1f", 4)
		if len(f) != 4 {
			continue
		}
		c := fixCommit{SHA: f[0], Subject: f[1], Message: f[2]}
		for _, l := range strings.Split(f[3], "\n") {
			n := strings.SplitN(l, "\t", 3)
			if len(n) != 3 {
				continue
			}
			lines := -1
			if a, err := strconv.Atoi(n[0]); err == nil {
				d, _ := strconv.Atoi(n[1])
				lines = a + d
			}
			c.Files = append(c.Files, fileChange{Path: n[2], Lines: lines})
		}
		cs = append(cs, c)
	}
	return cs
}

// draw prints, for each repository, how many of its non-merge commits up
// to -until are eligible fixes and the first -n of them in the order of
// the seed's draw. eval/bugfixes.tsv keeps, for each project in turn, the
// drawn fixes that a reading shows to be real behavioural bug fixes with
// the defect on a known line, and names the others it rejected.
func draw(args []string) {
	fs := flag.NewFlagSet("draw", flag.ExitOnError)
	mirrors := fs.String("mirrors", "/work/.mirror", "directory of fetched snapshots (owner+name/repo)")
	seed := fs.Int64("seed", 27, "the draw's seed")
	until := fs.String("until", "", "only commits made up to this date (keeps the draw when a snapshot grows)")
	n := fs.Int("n", 20, "commits to print per repository")
	fs.Parse(args)
	if fs.NArg() == 0 {
		log.Fatal("usage: replay draw [-seed N] [-until DATE] [-n N] owner/name...")
	}
	for _, repo := range fs.Args() {
		dir := filepath.Join(*mirrors, strings.ReplaceAll(repo, "/", "+"), "repo")
		logArgs := []string{"log", "--no-merges", "--no-renames", "--numstat", "--format=%x1e%H%x1f%s%x1f%B%x1f"}
		if *until != "" {
			logArgs = append(logArgs, "--until="+*until)
		}
		// Only the source files: a snapshot lacks the blobs of its largest
		// files, which git log --numstat would stop at.
		logArgs = append(logArgs, "--", ":(exclude)*vendor/*", ":(exclude)*node_modules/*")
		for _, ext := range slices.Sorted(maps.Keys(codeExt)) {
			logArgs = append(logArgs, "*"+ext)
		}
		out, err := gitOut(dir, logArgs...)
		if err != nil {
			log.Fatalf("%s: %v", repo, err)
		}
		all := parseLog(out)
		var fixes []fixCommit
		for _, c := range all {
			if eligible(c) {
				fixes = append(fixes, c)
			}
		}
		fmt.Printf("# %s: %d eligible of %d non-merge commits that change source\n", repo, len(fixes), len(all))
		for i, c := range drawOrder(*seed, fixes) {
			if i == *n {
				break
			}
			fmt.Printf("%s\t%s\t%d\t%s\n", repo, c.SHA, i+1, c.Subject)
		}
	}
}
