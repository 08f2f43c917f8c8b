package accessibility

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestMarkupFixes applies every fix of the fixable rules to their test
// inputs: each must apply cleanly, leave the file well formed and silence
// its finding.
func TestMarkupFixes(t *testing.T) {
	for _, r := range markupRules() {
		if !r.Fixable {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			dir := filepath.Join("testdata", strings.TrimPrefix(r.ID, "accessibility/"))
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range entries {
				content, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				n += lenstest.CheckFixes(t, r, lenstest.NewFile(e.Name(), content))
			}
			if n == 0 {
				t.Errorf("no fix checked for fixable rule %s", r.ID)
			}
		})
	}
}

// TestMarkupRuleInfo checks that every markup rule is fully described and
// follows hve-spec §8.2 for the accessibility lane.
func TestMarkupRuleInfo(t *testing.T) {
	cats := []string{CatPerceivable, CatOperable, CatUnderstandable, CatRobust, CatCognitive}
	for _, r := range markupRules() {
		i := r.RuleInfo
		switch {
		case !strings.HasPrefix(i.ID, "accessibility/") || i.Perspective != review.Accessibility:
			t.Errorf("%s: wrong perspective %q", i.ID, i.Perspective)
		case !slices.Contains(cats, i.Category):
			t.Errorf("%s: category %q is not one of %v", i.ID, i.Category, cats)
		case i.Skill != "wcag-22":
			t.Errorf("%s: skill %q, want wcag-22", i.ID, i.Skill)
		case !i.Severity.Valid() || i.Depth != review.DepthBasic:
			t.Errorf("%s: severity %v, depth %v", i.ID, i.Severity, i.Depth)
		case i.Summary == "" || i.Doc == "" || i.Bad == "" || i.Good == "":
			t.Errorf("%s: summary, doc, bad and good examples are required", i.ID)
		case strings.Contains(i.Doc, "\n") || !strings.Contains(i.Doc, "WCAG 2.2 SC"):
			t.Errorf("%s: doc must be one paragraph citing the success criterion", i.ID)
		case !slices.Equal(i.Languages, markupLangs):
			t.Errorf("%s: languages %v", i.ID, i.Languages)
		}
		// The Bad example is reported, the Good one is not.
		for _, ex := range []struct {
			src  string
			want bool
		}{{i.Bad, true}, {i.Good, false}} {
			f := lenstest.NewFile("example.jsx", []byte(ex.src))
			if got := len(lenstest.Check(t, r, f, 0, nil)) > 0; got != ex.want {
				t.Errorf("%s: example %q reported = %v, want %v", i.ID, ex.src, got, ex.want)
			}
		}
	}
}

// TestMarkupUnchangedTag checks that a finding needs a changed line of its
// tag: a multi-line tag is reported when any of its lines changed, and
// anchored to its first line.
func TestMarkupUnchangedTag(t *testing.T) {
	src := "<div>\n  <img\n    src=\"a.png\"\n    width=\"4\">\n  <p>text</p>\n</div>\n"
	for _, tt := range []struct {
		changed []int
		want    int
	}{{[]int{1, 5, 6}, 0}, {[]int{3}, 1}, {[]int{4}, 1}} {
		f := lenstest.NewFile("a.html", []byte(src))
		f.Lines = map[int]review.LineState{}
		for _, n := range tt.changed {
			f.Lines[n] = review.LineUnstaged
		}
		got := lenstest.Check(t, ImgAlt, f, 0, nil)
		if len(got) != tt.want {
			t.Fatalf("changed %v: got %d findings, want %d", tt.changed, len(got), tt.want)
		}
		if tt.want > 0 && (got[0].Span.StartLine != 2 || got[0].Span.EndLine != 4) {
			t.Errorf("changed %v: span %+v, want lines 2-4", tt.changed, got[0].Span)
		}
	}
}

// TestAriaHiddenAddedControl checks that a focusable control added inside
// an unchanged aria-hidden container is reported on the control's line.
func TestAriaHiddenAddedControl(t *testing.T) {
	src := "<div aria-hidden=\"true\">\n  <p>Decoration</p>\n  <a href=\"/dup\">Duplicate</a>\n</div>\n"
	f := lenstest.NewFile("a.html", []byte(src))
	f.Lines = map[int]review.LineState{3: review.LineUnstaged}
	got := lenstest.Check(t, AriaHiddenFocusable, f, 0, nil)
	if len(got) != 1 || got[0].Span.StartLine != 3 {
		t.Fatalf("got %+v, want one finding on line 3", got)
	}
	f.Lines = map[int]review.LineState{2: review.LineUnstaged}
	if got := lenstest.Check(t, AriaHiddenFocusable, f, 0, nil); len(got) != 0 {
		t.Errorf("got %d findings for an unrelated change, want 0", len(got))
	}
}

// TestUIFixturesSkipped checks that no accessibility rule reports in UI
// tests and stories: a real shape is a form without a label rendered as a
// fixture inside a *.test.tsx. The same markup in a component is
// reported.
func TestUIFixturesSkipped(t *testing.T) {
	const form = "export function Login() {\n  return (\n    <form>\n      <input type=\"text\" />\n      <img src=\"/logo.png\" />\n      <div onClick={go}>Go</div>\n    </form>\n  );\n}\n"
	count := func(path string) int {
		n := 0
		for _, r := range Rules() {
			n += len(lenstest.Check(t, r, lenstest.NewFile(path, []byte(form)), 0, nil))
		}
		return n
	}
	if count("src/Login.tsx") < 3 {
		t.Fatalf("the component itself: %d findings, want at least 3", count("src/Login.tsx"))
	}
	for _, p := range []string{"src/Login.test.tsx", "src/Login.spec.jsx", "src/__tests__/Login.tsx", "test/fixtures/Login.tsx",
		"tests/Login.tsx", "e2e/login.tsx", "cypress/component/Login.tsx", "playwright/Login.tsx", "src/Login.stories.tsx",
		".storybook/preview.tsx", "src/__mocks__/Login.tsx"} {
		if n := count(p); n != 0 {
			t.Errorf("%s: %d findings, want none", p, n)
		}
	}
}
