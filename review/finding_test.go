package review

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHeadline(t *testing.T) {
	long := "Exported method SubjectContainsOrganizationalUnitNameButNoOrganizationName.CheckApplies has no doc comment at all"
	for _, tc := range []struct {
		name string
		f    Finding
		want string
	}{
		{"title", Finding{Title: "Bare except", Severity: SeverityMedium}, "Bare except"},
		{"critical marked", Finding{Title: "Hardcoded GitHub token", Severity: SeverityCritical}, "Hardcoded GitHub token [critical]"},
		{"high unmarked", Finding{Title: "Hardcoded password", Severity: SeverityHigh}, "Hardcoded password"},
		{"perspective tag dropped", Finding{Title: "[Security] Hardcoded password", Perspective: Security, Severity: SeverityHigh}, "Hardcoded password"},
		{"whitespace collapsed", Finding{Title: "Error of\n\tos.Chmod  ignored", Severity: SeverityHigh}, "Error of os.Chmod ignored"},
		{"empty title is the rule", Finding{RuleID: "functional/x", Severity: SeverityLow}, "functional/x"},
		{"cut at a word", Finding{Title: long, Severity: SeverityLow}, "Exported method SubjectContainsOrganizationalUnitNameButNoOrganizationName.CheckApplies has no doc…"},
	} {
		got := tc.f.Headline()
		if got != tc.want {
			t.Errorf("%s: Headline() = %q, want %q", tc.name, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > HeadlineMax {
			t.Errorf("%s: %d characters, more than %d", tc.name, n, HeadlineMax)
		}
	}
	crit := Finding{Title: strings.Repeat("é", 150), Severity: SeverityCritical}
	if got := crit.Headline(); utf8.RuneCountInString(got) != HeadlineMax || !strings.HasSuffix(got, "… [critical]") {
		t.Errorf("long critical headline %q (%d characters): want %d ending in the mark", got, utf8.RuneCountInString(got), HeadlineMax)
	}
}

func TestFirstNonBlank(t *testing.T) {
	for _, tt := range []struct {
		line string
		want int
	}{
		{"x := 1", 1},
		{"\t// TODO", 2},
		{"    except:", 5},
		{" \t é", 4},
		{"", 0},
		{" \t ", 0},
	} {
		if got := FirstNonBlank(tt.line); got != tt.want {
			t.Errorf("FirstNonBlank(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}
