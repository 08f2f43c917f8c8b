package main

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A defect is one line of the defect list: a public fix commit whose
// reverse re-introduces a defect of a known class at path:line (a line of
// the fix's parent, which the reversed change writes).
type defect struct {
	Repo, SHA, Class, Path string
	Line                   int
	Text, Note             string
	// Severity is the class's, unless the list gives one.
	Perspective, Severity string
}

// defectClasses are the classes of the defect list and what a review must
// report for each: the perspective and the severity of the finding.
var defectClasses = map[string]struct{ perspective, severity string }{
	"go-ignored-error":         {"functional", "Medium"},
	"go-swallowed-error":       {"functional", "Medium"},
	"go-body-not-closed":       {"functional", "Medium"},
	"go-unchecked-assertion":   {"functional", "Medium"},
	"go-debug-print":           {"standards", "Low"},
	"go-template-html":         {"security", "High"},
	"go-cors-wildcard":         {"security", "High"},
	"py-is-literal":            {"functional", "Medium"},
	"py-jwt-no-verify":         {"security", "High"},
	"py-pickle-untrusted":      {"security", "High"},
	"py-path-traversal":        {"security", "High"},
	"py-off-by-one":            {"functional", "Medium"},
	"js-missing-await":         {"functional", "High"},
	"js-innerhtml-untrusted":   {"security", "High"},
	"markup-viewport-zoom":     {"accessibility", "Medium"},
	"shell-eval":               {"security", "Medium"},
	"shell-curl-pipe":          {"security", "Medium"},
	"actions-script-injection": {"security", "High"},
	// any is the bug-fix corpus's class (eval/bugfixes.tsv): a finding
	// of any perspective and severity on the line catches the bug.
	"any": {"", ""},
}

func readDefects(path string) ([]defect, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []defect
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 5 {
			return nil, fmt.Errorf("%s:%d: want repo<TAB>fix<TAB>class<TAB>path<TAB>line[<TAB>text<TAB>note<TAB>severity]", path, n+1)
		}
		cl, ok := defectClasses[f[2]]
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown class %q", path, n+1, f[2])
		}
		l, err := strconv.Atoi(f[4])
		if err != nil || l < 1 {
			return nil, fmt.Errorf("%s:%d: line %q is not a line number", path, n+1, f[4])
		}
		d := defect{Repo: f[0], SHA: f[1], Class: f[2], Path: f[3], Line: l, Perspective: cl.perspective, Severity: cl.severity}
		if len(f) > 5 {
			d.Text = f[5]
		}
		if len(f) > 6 {
			d.Note = f[6]
		}
		if len(f) > 7 && f[7] != "" {
			d.Severity = f[7]
		}
		out = append(out, d)
	}
	return out, nil
}

// span parses a finding's "12" or "12-14".
func span(lines string) (from, to int) {
	a, b, ok := strings.Cut(lines, "-")
	from, _ = strconv.Atoi(a)
	to = from
	if ok {
		to, _ = strconv.Atoi(b)
	}
	return from, to
}

// catches reports whether f is the finding d asks for: its perspective,
// file and severity (any, when d's are empty), on the defect's line give
// or take one.
func (d defect) catches(f finding) bool {
	from, to := span(f.Lines)
	p, _, _ := strings.Cut(f.Rule, "/")
	return (d.Perspective == "" || p == d.Perspective) && f.File == d.Path && (d.Severity == "" || f.Severity == d.Severity) &&
		from-1 <= d.Line && d.Line <= to+1
}

// defects replays each listed fix commit reversed (the fix checked out,
// the diff back to its parent applied to the work tree) and scores the
// review: a defect is caught when a finding matches it (see catches).
func defects(args []string) {
	outs := replayFixes("defects", "eval/defects.tsv", args, reverseFix)
	byClass := map[string]*tally{}
	repos := map[string]bool{}
	var misses []string
	caught, findings := 0, 0
	for _, o := range outs {
		d := o.d
		repos[d.Repo] = true
		t := byClass[d.Class]
		if t == nil {
			t = &tally{}
			byClass[d.Class] = t
		}
		t.cases++
		findings += len(o.res.Findings)
		if slices.ContainsFunc(o.res.Findings, d.catches) {
			t.caught++
			caught++
			continue
		}
		var near []string
		for _, f := range o.res.Findings {
			if f.File == d.Path {
				near = append(near, fmt.Sprintf("%s %s:%s %s", f.Severity, f.Rule, f.Lines, f.Title))
			}
		}
		m := fmt.Sprintf("- %s %s %s %s:%d `%s`", d.Class, d.Repo, d.SHA[:10], d.Path, d.Line, d.Text)
		if len(near) > 0 {
			m += "; in the file: " + strings.Join(near, "; ")
		}
		misses = append(misses, m)
	}

	fmt.Printf("%d defects from %d repositories\n\n| class | defects | caught | recall |\n|---|---|---|---|\n", len(outs), len(repos))
	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		t := byClass[c]
		fmt.Printf("| %s | %d | %d | %.0f%% |\n", c, t.cases, t.caught, 100*float64(t.caught)/float64(t.cases))
	}
	fmt.Printf("| **all** | %d | %d | **%.0f%%** |\n\n", len(outs), caught, 100*float64(caught)/float64(max(len(outs), 1)))
	fmt.Printf("findings on the reversed fixes: %d (%.2f per case)\n\n", findings, float64(findings)/float64(max(len(outs), 1)))
	fmt.Printf("Decisions on the reversed fixes (docs/decision.md):\n\n%s\n", recommendationTable(recommendations(outs), "defects"))
	if len(misses) > 0 {
		fmt.Println("Missed:")
		for _, m := range misses {
			fmt.Println(m)
		}
	}
}
