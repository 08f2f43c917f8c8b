// Command secrets compares reviewls's secret detector with gitleaks's
// maintained rule set (github.com/zricethezav/gitleaks/v8, its detect and
// config packages): recall on a corpus of credentials in the formats
// providers issue, written into typical source lines; detections on real
// code, every file of a tree (a corpus of public repositories, where each
// detection is a false positive or a real leak to read); and gitleaks's
// start-up (building the detector). It is its own module so that the
// product does not depend on gitleaks unless it adopts it.
//
// Usage (by hand; CI never runs it):
//
//	cd eval/secrets && go run . [-tree /tmp/corpus] [-show 20]
//
// The credentials are random strings in each provider's published format,
// made afresh on each run: none is real.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zricethezav/gitleaks/v8/detect"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/secret"
)

func main() {
	tree := flag.String("tree", "", "a tree of real code to count detections on (every file is read)")
	show := flag.Int("show", 20, "how many detections on real code to print per detector")
	flag.Parse()

	start := time.Now()
	gl, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("gitleaks detector built in %s (%d rules)\n\n", time.Since(start).Round(time.Millisecond), len(gl.Config.Rules))

	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	ours, theirs, either, total := 0, 0, 0, 0
	byKind := map[string][2]int{}
	var kinds []string
	for _, s := range samples(r) {
		for _, c := range contexts {
			path, text := c(s)
			total++
			o := containsSecret(secret.Values(path, text), s.value)
			t := false
			for _, f := range gl.Detect(detect.Fragment{Raw: text, FilePath: path}) {
				if matches(f.Secret, s.value) {
					t = true
				}
			}
			if o || t {
				either++
			}
			k := byKind[s.kind]
			if _, seen := byKind[s.kind]; !seen {
				kinds = append(kinds, s.kind)
			}
			if o {
				ours++
				k[0]++
			}
			if t {
				theirs++
				k[1]++
			}
			byKind[s.kind] = k
		}
	}
	fmt.Printf("| kind | samples | reviewls | gitleaks |\n|---|---|---|---|\n")
	for _, k := range kinds {
		fmt.Printf("| %s | %d | %d | %d |\n", k, len(contexts), byKind[k][0], byKind[k][1])
	}
	fmt.Printf("| **all** | %d | **%d (%.0f%%)** | **%d (%.0f%%)** |\n\n", total, ours, pct(ours, total), theirs, pct(theirs, total))
	fmt.Printf("either detector: %d (%.0f%%)\n\n", either, pct(either, total))

	if *tree == "" {
		return
	}
	var files, bytes int
	var ourHits, theirHits []string
	var ourTime, theirTime time.Duration
	filepath.WalkDir(*tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil || strings.IndexByte(string(data[:min(len(data), 8000)]), 0) >= 0 {
			return nil
		}
		rel, _ := filepath.Rel(*tree, p)
		rel = filepath.ToSlash(rel)
		if review.IsTestPath(rel) {
			return nil // both tools' users exclude tests and fixtures the same way
		}
		files++
		bytes += len(data)
		t0 := time.Now()
		for _, s := range secret.Values(rel, string(data)) {
			ourHits = append(ourHits, rel+": "+redact(s))
		}
		t1 := time.Now()
		for _, f := range gl.Detect(detect.Fragment{Raw: string(data), FilePath: rel}) {
			theirHits = append(theirHits, fmt.Sprintf("%s:%d: %s %s", rel, f.StartLine, f.RuleID, redact(f.Secret)))
		}
		ourTime += t1.Sub(t0)
		theirTime += time.Since(t1)
		return nil
	})
	fmt.Printf("real code: %d files (tests and fixtures left out), %d MB\n\n", files, bytes>>20)
	fmt.Printf("| detector | detections | time |\n|---|---|---|\n| reviewls | %d | %s |\n| gitleaks | %d | %s |\n\n",
		len(ourHits), ourTime.Round(time.Millisecond), len(theirHits), theirTime.Round(time.Millisecond))
	for _, l := range [][]string{ourHits, theirHits} {
		sort.Strings(l)
	}
	fmt.Println("reviewls detections:")
	for _, h := range ourHits[:min(*show, len(ourHits))] {
		fmt.Println("  " + h)
	}
	fmt.Println("gitleaks detections:")
	for _, h := range theirHits[:min(*show, len(theirHits))] {
		fmt.Println("  " + h)
	}
	byRule := map[string]int{}
	for _, h := range theirHits {
		f := strings.Fields(h)
		byRule[f[1]]++
	}
	fmt.Println("gitleaks detections by rule:")
	var rules []string
	for k := range byRule {
		rules = append(rules, k)
	}
	sort.Slice(rules, func(i, j int) bool { return byRule[rules[i]] > byRule[rules[j]] })
	for _, k := range rules {
		fmt.Printf("  %5d %s\n", byRule[k], k)
	}
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }

func containsSecret(found []string, v string) bool {
	for _, f := range found {
		if matches(f, v) {
			return true
		}
	}
	return false
}

// matches reports a detected value that is the sample, holds it, or is
// most of it or a whole line of it (a private key's body).
func matches(found, v string) bool {
	return strings.Contains(found, v) || found != "" && strings.Contains(v, found) && (len(found) >= len(v)/2 || len(found) >= 40)
}

// redact keeps a prefix and the length, as the product does.
func redact(s string) string {
	return fmt.Sprintf("%s… (%d chars)", s[:min(4, len(s))], len(s))
}
