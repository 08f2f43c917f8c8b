// Command replay measures reviewls on real commits of public projects.
//
// Each listed commit is replayed as an uncommitted change on its parent —
// the parent checked out on a branch, the commit's diff applied to the work
// tree — and reviewed by the reviewls binary with default flags, the way a
// developer would see it before committing. The findings are counted per
// commit and per rule and printed as markdown tables, the review-level
// notes (no verdict weight) by kind after them, then the decisions: how
// many reviews gave each recommendation; every finding and note is
// also written, with its source line, to a JSON-lines file for a hand
// audit.
//
// The repositories come from snapshots brought with the search tool's fetch
// (bare git directories under -mirrors, named owner+name/repo); nothing of
// their code is kept in this project, only the list of commits
// (eval/commits.tsv). CI and go test never run this.
//
// Usage:
//
//	go run ./eval/replay run  [-list eval/commits.tsv] [-mirrors /work/.mirror] [-reviewls PATH] [-audit FILE] [-- review flags]
//	go run ./eval/replay defects [-list eval/defects.tsv] [-mirrors /work/.mirror] [-reviewls PATH] [-- review flags]
//	go run ./eval/replay bugfixes [-list eval/bugfixes.tsv] [-mirrors /work/.mirror] [-reviewls PATH] [-- review flags]
//	go run ./eval/replay pick [-mirrors DIR] [-n 10] [-first-parent=false] owner/name
//	go run ./eval/replay draw [-mirrors DIR] [-seed 27] [-until DATE] [-n 20] owner/name...
//
// defects measures recall on real defects: each listed fix commit is
// replayed reversed — the fix checked out, the diff back to its parent
// applied — so the change under review re-introduces the defect the fix
// removed, and the review must report it (perspective, file, line ± 1 and
// severity; see eval/defects.tsv). It and bugfixes count the decisions of
// those reviews too.
//
// bugfixes measures recall on an unselected sample of real bug fixes
// (eval/bugfixes.tsv, drawn with draw): each is replayed reversed as
// defects does, and a bug is caught by any finding, a rule's or the model
// reviewer's, on its file within one line of it. It prints recall per
// project and per language, the findings that caught nothing, and the sum
// of the model review ledgers when the reviews wrote them. Review flags
// after -- reach the binary: with the model reviewer's flags the review
// writes its artifact folder, where the ledger is (model-review.json).
//
// pick prints non-merge commits of a repository that a reviewer would meet
// in daily work — 1–15 files, at most 300 changed lines, at least one
// source file, not a dependency bump — spread evenly over the newest 200
// such commits, as commits.tsv lines.
//
// draw prints the eligible bug fixes of each repository in the order of a
// seeded draw (see eligible and drawRank), for eval/bugfixes.tsv.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal("usage: replay run|defects|bugfixes|pick|draw [flags]")
	}
	switch os.Args[1] {
	case "run":
		run(os.Args[2:])
	case "pick":
		pick(os.Args[2:])
	case "defects":
		defects(os.Args[2:])
	case "bugfixes":
		bugfixes(os.Args[2:])
	case "draw":
		draw(os.Args[2:])
	default:
		log.Fatalf("unknown subcommand %q (run, defects, bugfixes, pick or draw)", os.Args[1])
	}
}

// commit is one line of the list: the repository, the commit and the stack
// it stands for.
type commit struct {
	Repo, SHA, Stack, Subject string
}

func readList(path string) ([]commit, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []commit
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: want repo<TAB>sha<TAB>stack[<TAB>subject]", path, n+1)
		}
		c := commit{Repo: f[0], SHA: f[1], Stack: f[2]}
		if len(f) > 3 {
			c.Subject = f[3]
		}
		out = append(out, c)
	}
	return out, nil
}

// finding is what the audit file records of one finding.
type finding struct {
	Repo, SHA   string
	Rule        string `json:"rule_id"`
	Severity    string `json:"severity"`
	File        string `json:"file"`
	Lines       string `json:"lines"`
	Title       string `json:"title"`
	Problem     string `json:"problem"`
	CurrentCode string `json:"current_code"`
}

// note is what the audit file records of one review-level note (no
// verdict weight, counted apart from the findings).
type note struct {
	Repo, SHA string
	Kind      string   `json:"kind"`
	Rule      string   `json:"rule_id"`
	Message   string   `json:"message"`
	Paths     []string `json:"paths"`
}

type reviewOutput struct {
	Findings []finding `json:"findings"`
	Notes    []note    `json:"notes"`
	// Ledger is the model review's, when the review wrote one.
	Ledger   *ledger `json:"-"`
	Decision *struct {
		Recommendation string `json:"recommendation"`
	} `json:"decision"`
}

// recommendation is the review's recommendation, "none" when the report
// has no decision (an older binary, or nothing to review).
func (r reviewOutput) recommendation() string {
	if r.Decision == nil {
		return "none"
	}
	return r.Decision.Recommendation
}

// recommendationOrder lists the recommendations in the order of their
// precedence (docs/decision.md), then "none".
var recommendationOrder = []string{"null", "reject", "insufficient-but-promising", "needs-more-work", "minor-changes", "accept-as-is", "none"}

// recommendationTable renders how many reviews gave each recommendation:
// the decisions on a corpus; what ("commits", "defects") names the
// reviews. A recommendation no review gave is left out.
func recommendationTable(counts map[string]int, what string) string {
	var b strings.Builder
	total := 0
	for _, n := range counts {
		total += n
	}
	fmt.Fprintf(&b, "| recommendation | %s | share |\n|---|---|---|\n", what)
	for _, r := range recommendationOrder {
		if n := counts[r]; n > 0 {
			fmt.Fprintf(&b, "| %s | %d | %.0f%% |\n", r, n, 100*float64(n)/float64(total))
		}
	}
	fmt.Fprintf(&b, "| **all** | %d | |\n", total)
	return b.String()
}

// recommendations counts the recommendations of the reviews of outs.
func recommendations(outs []outcome) map[string]int {
	counts := map[string]int{}
	for _, o := range outs {
		counts[o.res.recommendation()]++
	}
	return counts
}

func run(args []string) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	list := fs.String("list", "eval/commits.tsv", "the commit list")
	mirrors := fs.String("mirrors", "/work/.mirror", "directory of fetched snapshots (owner+name/repo)")
	bin := fs.String("reviewls", "reviewls", "the reviewls binary")
	audit := fs.String("audit", "", "write every finding as a JSON line to this file")
	work := fs.String("work", "", "where to clone the repositories (default: a temporary directory)")
	fs.Parse(args)
	extra := fs.Args()

	commits, err := readList(*list)
	if err != nil {
		log.Fatal(err)
	}
	root := *work
	if root == "" {
		if root, err = os.MkdirTemp("", "replay-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(root)
	}
	var auditOut *json.Encoder
	if *audit != "" {
		f, err := os.Create(*audit)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		auditOut = json.NewEncoder(f)
	}

	type perRepo struct {
		stack                string
		commits, rule, model int
		elapsed              []time.Duration
	}
	repos := map[string]*perRepo{}
	var order []string
	byRule := map[string]int{}
	bySev := map[string]int{}
	var high []finding
	var ledger ledgerSum
	byKind := map[string]int{}
	byRecommendation := map[string]int{}
	for _, c := range commits {
		dir, err := checkout(root, *mirrors, c)
		if err != nil {
			log.Fatalf("%s %s: %v", c.Repo, c.SHA, err)
		}
		res, took, err := review(*bin, dir, extra)
		if err != nil {
			log.Fatalf("%s %s: %v", c.Repo, c.SHA, err)
		}
		r := repos[c.Repo]
		if r == nil {
			r = &perRepo{stack: c.Stack}
			repos[c.Repo] = r
			order = append(order, c.Repo)
		}
		r.commits++
		byRecommendation[res.recommendation()]++
		rule, model := split(res.Findings)
		r.rule += rule
		r.model += model
		r.elapsed = append(r.elapsed, took)
		ledger.add(res.Ledger)
		for _, f := range res.Findings {
			f.Repo, f.SHA = c.Repo, c.SHA
			byRule[f.Rule]++
			bySev[f.Severity]++
			if f.Severity == "Critical" || f.Severity == "High" {
				high = append(high, f)
			}
			if auditOut != nil {
				auditOut.Encode(f)
			}
		}
		for _, n := range res.Notes {
			n.Repo, n.SHA = c.Repo, c.SHA
			byKind[n.Kind]++
			if auditOut != nil {
				auditOut.Encode(n)
			}
		}
		log.Printf("%-22s %s %3d findings %d notes %-26s %6s  %s", c.Repo, c.SHA[:10], len(res.Findings), len(res.Notes), res.recommendation(), took.Round(time.Millisecond), c.Subject)
	}

	per := func(n, commits int) float64 { return float64(n) / float64(max(commits, 1)) }
	fmt.Printf("| project | stack | commits | rule findings | per commit | model findings | per commit | median review |\n|---|---|---|---|---|---|---|---|\n")
	var rule, model int
	for _, name := range order {
		r := repos[name]
		rule += r.rule
		model += r.model
		fmt.Printf("| %s | %s | %d | %d | %.2f | %d | %.2f | %s |\n", name, r.stack, r.commits, r.rule, per(r.rule, r.commits), r.model, per(r.model, r.commits), median(r.elapsed).Round(time.Millisecond))
	}
	fmt.Printf("| **all** | | %d | %d | **%.2f** | %d | **%.2f** | |\n\n", len(commits), rule, per(rule, len(commits)), model, per(model, len(commits)))

	fmt.Printf("| rule | findings | per commit |\n|---|---|---|\n")
	rules := make([]string, 0, len(byRule))
	for r := range byRule {
		rules = append(rules, r)
	}
	sort.Slice(rules, func(i, j int) bool {
		if byRule[rules[i]] != byRule[rules[j]] {
			return byRule[rules[i]] > byRule[rules[j]]
		}
		return rules[i] < rules[j]
	})
	for _, r := range rules {
		fmt.Printf("| %s | %d | %.2f |\n", r, byRule[r], float64(byRule[r])/float64(len(commits)))
	}
	fmt.Printf("\nseverities: critical %d, high %d, medium %d, low %d\n", bySev["Critical"], bySev["High"], bySev["Medium"], bySev["Low"])
	for _, f := range high {
		fmt.Printf("- %s %s %s %s:%s %s\n", f.Severity, f.Repo, f.SHA[:10], f.File, f.Lines, f.Title)
	}
	fmt.Printf("review-level notes (no verdict weight): missing-tests %d, undocumented-api %d\n", byKind["missing-tests"], byKind["undocumented-api"])
	fmt.Printf("\nDecisions (docs/decision.md):\n\n%s\n", recommendationTable(byRecommendation, "commits"))
	if l := ledger.String(); l != "" {
		fmt.Println(l)
	}
}

// reviewArgs are the arguments of a review with default flags and extra:
// JSON out, never failing, and no artifact folder unless extra asks for
// the model reviewer, whose ledger is only in the folder
// (model-review.json).
func reviewArgs(extra []string) []string {
	args := []string{"review", "--format", "json", "--fail-on", "never"}
	if !slices.ContainsFunc(extra, asksModel) {
		args = append(args, "--no-artifacts")
	}
	return append(args, absTranscript(extra)...)
}

// absTranscript returns extra with the folder of --model-transcript made
// absolute: the review runs in the clone, where a relative folder would
// be removed with the next replay's checkout.
func absTranscript(extra []string) []string {
	out := slices.Clone(extra)
	for i := 0; i < len(out); i++ {
		name, value, eq := strings.Cut(strings.TrimLeft(out[i], "-"), "=")
		if name != "model-transcript" || !strings.HasPrefix(out[i], "-") {
			continue
		}
		// The folder is the flag's own value (-model-transcript=DIR) or
		// the next argument.
		at, prefix := i, strings.TrimSuffix(out[i], value)
		if !eq {
			if i++; i == len(out) {
				break
			}
			at, value, prefix = i, out[i], ""
		}
		if abs, err := filepath.Abs(value); err == nil {
			out[at] = prefix + abs
		}
	}
	return out
}

// asksModel reports whether a review flag is one of the model reviewer's
// (--model, --model-endpoint ...; not --no-model).
func asksModel(arg string) bool {
	return strings.HasPrefix(strings.TrimLeft(arg, "-"), "model") && strings.HasPrefix(arg, "-")
}

// review runs reviewls on the work tree of dir with default flags and
// extra, and decodes its findings and the model review's ledger.
func review(bin, dir string, extra []string) (reviewOutput, time.Duration, error) {
	start := time.Now()
	cmd := exec.Command(bin, reviewArgs(extra)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	took := time.Since(start)
	var res reviewOutput
	if err != nil {
		return res, took, fmt.Errorf("reviewls: %v\n%s", err, stderr.Bytes())
	}
	if len(bytes.TrimSpace(out)) > 0 {
		if err := json.Unmarshal(out, &res); err != nil {
			return res, took, fmt.Errorf("decode review: %v", err)
		}
	}
	res.Ledger, err = readLedger(dir)
	return res, took, err
}

// checkout prepares the commit's replay: a clone of the snapshot (made once
// per repository) with the parent checked out on branch "replay" and the
// commit's diff applied to the work tree, new files left untracked.
func checkout(root, mirrors string, c commit) (string, error) {
	dir, err := clone(root, mirrors, c.Repo)
	if err != nil {
		return "", err
	}
	return dir, applyChange(dir, c.SHA+"^", c.SHA)
}

// clone makes the work clone of repo under root from its snapshot, once.
func clone(root, mirrors, repo string) (string, error) {
	dir := filepath.Join(root, strings.ReplaceAll(repo, "/", "+"))
	if _, err := os.Stat(dir); err != nil {
		src := filepath.Join(mirrors, strings.ReplaceAll(repo, "/", "+"), "repo")
		if err := git("", "clone", "-q", "--no-checkout", src, dir); err != nil {
			return "", err
		}
		git(dir, "config", "user.email", "replay@example.com")
		git(dir, "config", "user.name", "replay")
	}
	return dir, nil
}

// skipMissing leaves out of the work tree the files of commit whose blobs
// the snapshot lacks (its largest files, binaries mostly, which no review
// reads), so that the checkout can succeed.
func skipMissing(dir, commit string) error {
	tree, err := gitOut(dir, "ls-tree", "-r", "--format=%(objectname) %(path)", commit)
	if err != nil {
		return err
	}
	check := exec.Command("git", "cat-file", "--batch-check=%(objectname) %(objecttype)")
	check.Dir = dir
	var objs bytes.Buffer
	paths := map[string][]string{}
	for _, l := range strings.Split(string(tree), "\n") {
		obj, p, ok := strings.Cut(l, " ")
		if ok {
			objs.WriteString(obj + "\n")
			paths[obj] = append(paths[obj], p)
		}
	}
	check.Stdin = &objs
	out, err := check.Output()
	if err != nil {
		return err
	}
	patterns := []string{"/*"}
	for _, l := range strings.Split(string(out), "\n") {
		if obj, ok := strings.CutSuffix(l, " missing"); ok {
			for _, p := range paths[obj] {
				patterns = append(patterns, "!/"+p)
			}
		}
	}
	if len(patterns) == 1 {
		return nil
	}
	return git(dir, append([]string{"sparse-checkout", "set", "--no-cone"}, patterns...)...)
}

// applyChange checks out from on branch "replay" and applies the diff from
// from to to to the work tree, new files left untracked.
func applyChange(dir, from, to string) error {
	if err := git(dir, "checkout", "-q", "-f", "-B", "replay", from); err != nil {
		if serr := skipMissing(dir, from); serr != nil {
			return err
		}
		if err := git(dir, "checkout", "-q", "-f", "-B", "replay", from); err != nil {
			return err
		}
	}
	if err := git(dir, "clean", "-q", "-f", "-d", "-x"); err != nil {
		return err
	}
	diff, err := gitOut(dir, "diff", "--binary", from, to)
	if err != nil {
		return err
	}
	if len(diff) == 0 {
		return nil
	}
	apply := exec.Command("git", "apply", "--binary", "-")
	apply.Dir = dir
	apply.Stdin = bytes.NewReader(diff)
	if out, err := apply.CombinedOutput(); err != nil {
		return fmt.Errorf("git apply: %v\n%s", err, out)
	}
	return nil
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

func gitOut(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return out, nil
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// sourceExt is what pick counts as source: a commit must touch one.
var sourceExt = map[string]bool{
	".go": true, ".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true, ".jsx": true,
	".html": true, ".vue": true, ".svelte": true, ".sh": true, ".yml": true, ".yaml": true, ".j2": true, ".jinja": true,
}

func pick(args []string) {
	fs := flag.NewFlagSet("pick", flag.ExitOnError)
	mirrors := fs.String("mirrors", "/work/.mirror", "directory of fetched snapshots (owner+name/repo)")
	n := fs.Int("n", 10, "commits to pick")
	stack := fs.String("stack", "", "the stack column")
	firstParent := fs.Bool("first-parent", true, "walk the first-parent history only (false for projects that merge every pull request, whose first-parent non-merge commits are years old)")
	fs.Parse(args)
	if fs.NArg() != 1 {
		log.Fatal("usage: replay pick [-n N] [-stack S] owner/name")
	}
	repo := fs.Arg(0)
	dir := filepath.Join(*mirrors, strings.ReplaceAll(repo, "/", "+"), "repo")
	logArgs := []string{"log", "--no-merges", "--format=@%H\t%s", "--numstat", "-n", "2000"}
	if *firstParent {
		logArgs = append(logArgs, "--first-parent")
	}
	out, err := gitOut(dir, logArgs...)
	if err != nil {
		log.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var candidates []string
	var sha, subject string
	var files, lines int
	var source bool
	flush := func() {
		if sha == "" || len(candidates) >= 200 || bump.MatchString(subject) {
			return
		}
		if files >= 1 && files <= 15 && lines <= 300 && source {
			candidates = append(candidates, fmt.Sprintf("%s\t%s\t%s\t%s", repo, sha, *stack, subject))
		}
	}
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "@"); ok {
			flush()
			sha, subject, _ = strings.Cut(rest, "\t")
			files, lines, source = 0, 0, false
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		files++
		a, _ := strconv.Atoi(f[0])
		d, _ := strconv.Atoi(f[1])
		lines += a + d
		if sourceExt[filepath.Ext(f[2])] && !strings.Contains(f[2], "vendor/") {
			source = true
		}
	}
	flush()
	step := max(len(candidates) / *n, 1)
	for i := 0; i < len(candidates) && i/step < *n; i += step {
		fmt.Println(candidates[i])
	}
}

// bump matches the subjects of dependency and tooling bumps.
var bump = regexp.MustCompile(`(?i)^(bump|build\(deps|chore\(deps|\[pre-commit|update (dev )?dependencies|release |v?\d+\.\d+)`)
