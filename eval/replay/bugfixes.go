package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/review/llm"
)

// An outcome is the review of one replayed fix.
type outcome struct {
	d    defect
	res  reviewOutput
	took time.Duration
}

// isModel reports whether f is the model reviewer's (rule
// "<perspective>/model") rather than a rule's.
func isModel(f finding) bool { return strings.HasSuffix(f.Rule, "/model") }

// split counts fs into rule and model findings.
func split(fs []finding) (rule, model int) {
	for _, f := range fs {
		if isModel(f) {
			model++
		} else {
			rule++
		}
	}
	return rule, model
}

// A ledger is what the replay reads of a model review's ledger
// (model-review.json): the model, the counts of candidates by
// disposition and of unverified requests by reason, the tokens and the
// time.
type ledger struct {
	Model     string     `json:"model"`
	Counts    llm.Counts `json:"counts"`
	Usage     llm.Usage  `json:"usage"`
	ElapsedMS int64      `json:"elapsed_ms"`
}

// readLedger reads the ledger of the model-review.json a review wrote in
// the work tree dir, or nil when it wrote none.
func readLedger(dir string) (*ledger, error) {
	paths, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(artifacts.ReviewsDir), "*", artifacts.FileModelReview))
	if err != nil || len(paths) == 0 {
		return nil, err
	}
	if len(paths) > 1 {
		return nil, fmt.Errorf("read model review: %d review folders under %s", len(paths), artifacts.ReviewsDir)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		return nil, fmt.Errorf("read model review: %w", err)
	}
	var doc struct {
		Ledger ledger `json:"ledger"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("decode %s: %w", paths[0], err)
	}
	return &doc.Ledger, nil
}

// ledgerSum adds up the ledgers of a run's reviews.
type ledgerSum struct {
	reviews int
	sum     llm.Ledger
}

func (s *ledgerSum) add(l *ledger) {
	if l == nil {
		return
	}
	if s.reviews == 0 {
		s.sum.Model = l.Model
		s.sum.Counts.Refuted, s.sum.Counts.Unverified = map[llm.Reason]int{}, map[llm.Reason]int{}
	}
	s.reviews++
	c := &s.sum.Counts
	c.Candidates += l.Counts.Candidates
	c.Confirmed += l.Counts.Confirmed
	c.Relocated += l.Counts.Relocated
	for r, n := range l.Counts.Refuted {
		c.Refuted[r] += n
	}
	for r, n := range l.Counts.Unverified {
		c.Unverified[r] += n
	}
	s.sum.Usage.PromptTokens += l.Usage.PromptTokens
	s.sum.Usage.CompletionTokens += l.Usage.CompletionTokens
	s.sum.ElapsedMS += l.ElapsedMS
}

// String is the sum as the ledger's one-line summary with the number of
// reviews it adds up, or "" when no review wrote a ledger.
func (s ledgerSum) String() string {
	if s.reviews == 0 {
		return ""
	}
	return fmt.Sprintf("%s (%d reviews)", s.sum.Summary(), s.reviews)
}

// tally counts the cases of a table row and those caught.
type tally struct{ cases, caught, rule, model int }

func (t tally) row(name string) string {
	return fmt.Sprintf("| %s | %d | %d | %.0f%% | %d | %d |", name, t.cases, t.caught, 100*float64(t.caught)/float64(max(t.cases, 1)), t.rule, t.model)
}

// A bugfixScore is what a run of the bug-fix corpus measured.
type bugfixScore struct {
	all                   tally
	byProject, byLang     map[string]*tally
	projects, languages   []string
	caught, noise, misses []string
	ledger                ledgerSum
	// decisions counts the reviews' recommendations.
	decisions map[string]int
}

// score scores the reviews of the reversed fixes: a bug is caught when any
// finding, a rule's or the model's, is on its file within one line of it
// (defect.catches, with the class "any"); every other finding is noise
// on a bug-fix change.
func score(outs []outcome) bugfixScore {
	s := bugfixScore{byProject: map[string]*tally{}, byLang: map[string]*tally{}}
	row := func(m map[string]*tally, order *[]string, key string) *tally {
		t := m[key]
		if t == nil {
			t = &tally{}
			m[key] = t
			*order = append(*order, key)
		}
		return t
	}
	for _, o := range outs {
		d := o.d
		rows := []*tally{&s.all, row(s.byProject, &s.projects, d.Repo), row(s.byLang, &s.languages, language(d.Path))}
		rule, model := split(o.res.Findings)
		hit := false
		var near []string
		for _, f := range o.res.Findings {
			if d.catches(f) {
				hit = true
				s.caught = append(s.caught, fmt.Sprintf("- %s %s %s:%d by %s:%s %s %s: %s", d.Repo, d.SHA[:10], d.Path, d.Line, f.File, f.Lines, f.Severity, f.Rule, f.Title))
				continue
			}
			s.noise = append(s.noise, fmt.Sprintf("- %s %s %s:%s %s %s: %s", d.Repo, d.SHA[:10], f.File, f.Lines, f.Severity, f.Rule, f.Title))
			if f.File == d.Path {
				near = append(near, fmt.Sprintf("%s:%s", f.Rule, f.Lines))
			}
		}
		for _, t := range rows {
			t.cases++
			t.rule += rule
			t.model += model
			if hit {
				t.caught++
			}
		}
		if !hit {
			m := fmt.Sprintf("- %s %s %s:%d `%s`", d.Repo, d.SHA[:10], d.Path, d.Line, d.Text)
			if len(near) > 0 {
				m += "; in the file: " + strings.Join(near, ", ")
			}
			s.misses = append(s.misses, m)
		}
		s.ledger.add(o.res.Ledger)
	}
	slices.Sort(s.languages)
	s.decisions = recommendations(outs)
	return s
}

// print writes the score as markdown.
func (s bugfixScore) print(w io.Writer) {
	fmt.Fprintf(w, "%d bug fixes from %d projects: %d caught (**%.0f%%**)\n\n", s.all.cases, len(s.projects), s.all.caught, 100*float64(s.all.caught)/float64(max(s.all.cases, 1)))
	head := "| %s | fixes | caught | recall | rule findings | model findings |\n|---|---|---|---|---|---|\n"
	fmt.Fprintf(w, head, "project")
	for _, p := range s.projects {
		fmt.Fprintln(w, s.byProject[p].row(p))
	}
	fmt.Fprintln(w, s.all.row("**all**"))
	fmt.Fprintf(w, "\n"+head, "language")
	for _, l := range s.languages {
		fmt.Fprintln(w, s.byLang[l].row(l))
	}
	fmt.Fprintf(w, "\nfindings on the reversed fixes: %d rule, %d model; %d caught nothing\n", s.all.rule, s.all.model, len(s.noise))
	if l := s.ledger.String(); l != "" {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "\nDecisions on the reversed fixes (docs/decision.md):\n\n%s", recommendationTable(s.decisions, "fixes"))
	if len(s.caught) > 0 {
		fmt.Fprintln(w, "\nCaught:")
		for _, c := range s.caught {
			fmt.Fprintln(w, c)
		}
	}
	if len(s.noise) > 0 {
		fmt.Fprintln(w, "\nFindings that caught nothing:")
		for _, n := range s.noise {
			fmt.Fprintln(w, n)
		}
	}
	if len(s.misses) > 0 {
		fmt.Fprintln(w, "\nMissed:")
		for _, m := range s.misses {
			fmt.Fprintln(w, m)
		}
	}
}

// bugfixes replays each fix of the bug-fix corpus reversed and scores the
// reviews (see score). The review of a reversed fix sees the fix's tree
// committed under a neutral message ("replay"): the fix's own message
// names the bug, and a model reviewer must not read it.
func bugfixes(args []string) {
	score(replayFixes("bugfixes", "eval/bugfixes.tsv", args, applyReversed)).print(os.Stdout)
}

// replayFixes parses the flags of the subcommand name (its list defaults
// to list), replays each case of the list with prepare (which leaves the
// change to review in the work tree of a clone of its repository) and
// reviews it with the review flags after --.
func replayFixes(name, list string, args []string, prepare func(dir, fix string) error) []outcome {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	fs.StringVar(&list, "list", list, "the list of fixes")
	mirrors := fs.String("mirrors", "/work/.mirror", "directory of fetched snapshots (owner+name/repo)")
	bin := fs.String("reviewls", "reviewls", "the reviewls binary")
	work := fs.String("work", "", "where to clone the repositories (default: a temporary directory)")
	fs.Parse(args)
	cases, err := readDefects(list)
	if err != nil {
		log.Fatal(err)
	}
	root := *work
	if root == "" {
		var err error
		if root, err = os.MkdirTemp("", "fixes-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(root)
	}
	var outs []outcome
	for _, d := range cases {
		dir, err := clone(root, *mirrors, d.Repo)
		if err == nil {
			err = prepare(dir, d.SHA)
		}
		if err != nil {
			log.Fatalf("%s %s: %v", d.Repo, d.SHA, err)
		}
		res, took, err := review(*bin, dir, fs.Args())
		if err != nil {
			log.Fatalf("%s %s: %v", d.Repo, d.SHA, err)
		}
		mark := "miss"
		if slices.ContainsFunc(res.Findings, d.catches) {
			mark = "caught"
		}
		log.Printf("%-6s %-22s %s %s:%d (%d findings, %s, %s)", mark, d.Repo, d.SHA[:10], d.Path, d.Line, len(res.Findings), res.recommendation(), took.Round(time.Millisecond))
		outs = append(outs, outcome{d: d, res: res, took: took})
	}
	return outs
}

// reverseFix is the change defects reviews: the fix checked out, the diff
// back to its parent applied.
func reverseFix(dir, fix string) error { return applyChange(dir, fix, fix+"^") }

// applyReversed is reverseFix on a commit with the fix's tree and parent
// but the message "replay" and the fix's dates (so it is the same commit
// on every run).
func applyReversed(dir, fix string) error {
	date, err := gitOut(dir, "log", "-1", "--format=%cI", fix)
	if err != nil {
		return err
	}
	cmd := exec.Command("git", "commit-tree", fix+"^{tree}", "-p", fix+"^", "-m", "replay")
	cmd.Dir = dir
	d := strings.TrimSpace(string(date))
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=replay", "GIT_AUTHOR_EMAIL=replay@example.com", "GIT_AUTHOR_DATE="+d,
		"GIT_COMMITTER_NAME=replay", "GIT_COMMITTER_EMAIL=replay@example.com", "GIT_COMMITTER_DATE="+d)
	head, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git commit-tree %s: %v", fix, err)
	}
	return applyChange(dir, strings.TrimSpace(string(head)), fix+"^")
}
