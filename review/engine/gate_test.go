package engine

import (
	"slices"
	"strings"
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

// TestBaselineNeverCoversASecret: a baseline never records a secret, and a
// baseline file that holds one (hand-edited, or written by an older
// version) does not let it through a review; the secret stays a finding
// and counts. A secret the base version already had is still
// pre-existing, as any finding.
func TestBaselineNeverCoversASecret(t *testing.T) {
	const secret = "token = \"ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123\"\n"
	dir := repo(t, map[string]string{"a.py": "x = 1\n", "old.py": secret})
	write(t, dir, "a.py", []byte("x = 1\n# TODO: later\n"+secret))
	write(t, dir, "old.py", []byte(strings.TrimSuffix(secret, "\n")+"  # edited\n"))
	first := run(t, dir, review.Request{})
	if got, want := findingLines(first), []string{"readiness/todo-added@a.py:2", "security/hardcoded-secret@a.py:3"}; !slices.Equal(got, want) {
		t.Fatalf("findings = %v, want %v", got, want)
	}
	b := review.NewBaseline(first.Findings)
	if len(b.Entries) != 1 || b.Entries[0].RuleID != "readiness/todo-added" {
		t.Errorf("NewBaseline recorded %+v, want the TODO alone", b.Entries)
	}
	// A baseline that records the secrets too, the base version's twice.
	for _, f := range first.Findings {
		if f.IsSecret() {
			b.Entries = append(b.Entries, review.BaselineEntry{Fingerprint: f.ID, RuleID: f.RuleID, Path: f.Span.Path, Count: 1})
		}
	}
	for _, p := range first.PreExisting {
		b.Entries = append(b.Entries, review.BaselineEntry{Fingerprint: p.Finding.ID, RuleID: p.Finding.RuleID, Path: p.Finding.Span.Path, Count: 2})
	}
	res := run(t, dir, review.Request{Baseline: b})
	if got, want := findingLines(res), []string{"security/hardcoded-secret@a.py:3"}; !slices.Equal(got, want) {
		t.Errorf("with the baseline: findings = %v, want %v", got, want)
	}
	if res.Counts.Critical != 1 {
		t.Errorf("with the baseline: counts %+v, want the secret counted", res.Counts)
	}
	var pre []string
	for _, p := range res.PreExisting {
		pre = append(pre, p.Finding.RuleID+"@"+p.Finding.Span.Path+" in the "+p.Source)
	}
	slices.Sort(pre)
	if want := []string{"readiness/todo-added@a.py in the baseline", "security/hardcoded-secret@old.py in the base"}; !slices.Equal(pre, want) {
		t.Errorf("pre-existing = %v, want %v", pre, want)
	}
	// A whole-tree check: both secrets are outside, their entries refused.
	tree := slices.Clone(first.Findings)
	for _, p := range first.PreExisting {
		tree = append(tree, p.Finding)
	}
	outside, inside, absent := b.Compare(tree)
	if len(outside) != 2 || !outside[0].IsSecret() || !outside[1].IsSecret() || len(inside) != 1 || len(absent) != 0 {
		t.Errorf("Compare: %d outside, %d inside, absent %v; want the secrets outside, the TODO inside", len(outside), len(inside), absent)
	}
	if refused := b.Refused(tree); len(refused) != 2 {
		t.Errorf("Refused = %+v, want the secrets' entries", refused)
	}
}

// TestHeldSecretVerdict: a secret silenced by an inline ignore alone is
// held, not counted, and still makes the verdict request changes, as the
// gate counts it; listed under allow-secrets, it is let through and the
// review approves.
func TestHeldSecretVerdict(t *testing.T) {
	const code = "package a\n\n// reviewls:ignore security/hardcoded-secret revoked key kept for the replay test\nvar awsKey = \"AKIAZ7Q2R5T6W3X4Y6B2\"\n"
	dir := repo(t, map[string]string{"a.go": "package a\n"})
	write(t, dir, "a.go", []byte(code))
	res := run(t, dir, review.Request{})
	held := res.Held()
	if len(held) != 1 || res.Counts.Total() != 0 || res.GateCounts().Critical != 1 {
		t.Fatalf("held %d, counts %+v, gate counts %+v; want one held critical secret alone", len(held), res.Counts, res.GateCounts())
	}
	if res.Verdict != review.VerdictRequestChanges {
		t.Errorf("verdict %s with a held secret, want %s", res.Verdict, review.VerdictRequestChanges)
	}
	allowed := run(t, dir, review.Request{Config: &review.Config{AllowSecrets: []string{held[0].Finding.SecretFingerprint()}}})
	if len(allowed.Held()) != 0 || allowed.Verdict != review.VerdictApprove {
		t.Errorf("allowed: %d held, verdict %s; want none held and approve", len(allowed.Held()), allowed.Verdict)
	}
}
