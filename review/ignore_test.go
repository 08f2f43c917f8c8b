package review

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDirectiveProblems(t *testing.T) {
	tests := []struct {
		comment string
		want    Directive
	}{
		{" reviewls:ignore", Directive{Problem: "it names no rule (want reviewls:ignore <perspective>/<rule> <reason>)"}},
		{" reviewls:ignore because this is fine", Directive{Problem: "it names no rule (want reviewls:ignore <perspective>/<rule> <reason>)"}},
		{" reviewls:ignored security/x a b c", Directive{Problem: "it names no rule (want reviewls:ignore <perspective>/<rule> <reason>)"}},
		{" reviewls:ignore security/x", Directive{Rule: "security/x", Problem: "it gives no reason"}},
		{" reviewls:ignore security/x " + IgnorePlaceholder, Directive{Rule: "security/x", Reason: IgnorePlaceholder,
			Problem: "its reason is still the placeholder <why this finding does not apply>"}},
		{" reviewls:ignore security/* two words", Directive{Rule: "security/*", Reason: "two words",
			Problem: `its reason "two words" has 2 word(s), fewer than 3: say why the finding does not apply`}},
		{"\treviewls:ignore\tsecurity/x\tmock key for tests ", Directive{Rule: "security/x", Reason: "mock key for tests"}},
	}
	for _, tt := range tests {
		got, ok := ParseDirective(tt.comment)
		if !ok {
			t.Errorf("ParseDirective(%q): no directive", tt.comment)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseDirective(%q) (-want +got):\n%s", tt.comment, diff)
		}
	}
	if _, ok := ParseDirective(" nothing to see "); ok {
		t.Error("ParseDirective found a directive in a comment without the marker")
	}
}

// FuzzParseDirective checks the directive parser on any comment text: a
// directive names a well-formed rule or none, its reason is trimmed, it is
// valid exactly when the reason passes the policy, and one re-parsed from
// its own rule and reason is the same.
//
//	go test -run XXX -fuzz FuzzParseDirective -fuzztime 1m ./review
func FuzzParseDirective(f *testing.F) {
	f.Add(" reviewls:ignore security/x test fixture value")
	f.Add("reviewls:ignore a/b <why this finding does not apply>")
	f.Add("\treviewls:ignore\tsecurity/*\tone two")
	f.Fuzz(func(t *testing.T, comment string) {
		d, ok := ParseDirective(comment)
		if ok != strings.Contains(comment, IgnoreDirective) {
			t.Fatalf("ParseDirective(%q) found = %v", comment, ok)
		}
		if !ok {
			return
		}
		if d.Rule != "" && !ruleRE.MatchString(d.Rule) {
			t.Fatalf("malformed rule %q", d.Rule)
		}
		if d.Reason != strings.TrimSpace(d.Reason) {
			t.Fatalf("reason %q is not trimmed", d.Reason)
		}
		if d.Valid() != (d.Problem == "") {
			t.Fatal("Valid disagrees with Problem")
		}
		if d.Valid() && (d.Rule == "" || countWords(d.Reason) < MinReasonWords || strings.Contains(d.Reason, IgnorePlaceholder)) {
			t.Fatalf("directive %+v is valid against the policy", d)
		}
		if d.Rule != "" {
			again, ok := ParseDirective(" " + IgnoreDirective + " " + d.Rule + " " + d.Reason)
			if !ok || again.Rule != d.Rule || again.Reason != d.Reason || again.Problem != d.Problem {
				t.Fatalf("re-parsing %+v gives %+v", d, again)
			}
		}
	})
}
