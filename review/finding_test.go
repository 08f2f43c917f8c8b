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
