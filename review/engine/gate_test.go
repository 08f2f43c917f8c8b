package engine

import (
	"slices"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestSecretsWhateverThePerspectives: the secret rules run in every review
// and their findings are kept whatever the profile, perspectives or depth;
// the other findings of their perspective are not, and the selection stays
// as chosen, the secrets' perspective recorded apart.
func TestSecretsWhateverThePerspectives(t *testing.T) {
	const code = "package a\n\nimport \"crypto/md5\"\n\nvar token = \"ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123\"\n\n" +
		"func hash(password string) [16]byte { return md5.Sum([]byte(password)) }\n"
	securityRules := func(res *review.Result) []string {
		var out []string
		for _, f := range res.Findings {
			if f.Perspective == review.Security {
				out = append(out, f.RuleID)
			}
		}
		slices.Sort(out)
		return out
	}
	// Selected, the perspective reports the md5 line too.
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	write(t, dir, "a.go", []byte(code))
	if got, want := securityRules(run(t, dir, review.Request{Profile: review.ProfileFull})), []string{"security/hardcoded-secret", "security/weak-crypto"}; !slices.Equal(got, want) {
		t.Fatalf("full profile: security findings %v, want %v", got, want)
	}
	for name, req := range map[string]review.Request{
		"functional, basic":        {Profile: review.ProfileCustom, Perspectives: []review.Perspective{review.Functional}, Depth: review.DepthBasic},
		"readiness, comprehensive": {Profile: review.ProfileCustom, Perspectives: []review.Perspective{review.Readiness}, Depth: review.DepthComprehensive},
		"standards, configured":    {Config: &review.Config{Profile: review.ProfileCustom, Perspectives: []review.Perspective{review.Standards}}},
	} {
		dir := repo(t, map[string]string{"a.go": "package a\n"})
		write(t, dir, "a.go", []byte(code))
		res := run(t, dir, req)
		if rules, want := securityRules(res), []string{"security/hardcoded-secret"}; !slices.Equal(rules, want) {
			t.Errorf("%s: security findings %v, want %v", name, rules, want)
		}
		if slices.Contains(res.Perspectives, review.Security) || !slices.Equal(res.SecretsOnly, []review.Perspective{review.Security}) {
			t.Errorf("%s: perspectives %v, secrets only %v; want security in the second alone", name, res.Perspectives, res.SecretsOnly)
		}
		if res.Counts.Critical != 1 || res.Verdict != review.VerdictRequestChanges {
			t.Errorf("%s: counts %+v, verdict %s; want the secret counted", name, res.Counts, res.Verdict)
		}
	}
}
