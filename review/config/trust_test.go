package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// writeFile writes data to dir/name, creating dir.
func writeFile(t *testing.T, dir, name, data string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestResolveUntrusted checks that an untrusted repository's privileged
// settings are dropped, with one line that names them and says how to
// allow them, while its other settings apply; that trusting it honours
// them; and that a change to its file untrusts it again.
func TestResolveUntrusted(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	writeFile(t, root, FileName, "depth: comprehensive\nanalysis: {budget: 1m}\nfail-on: low\nrules: {readiness/todo-added: off}\n")

	res, err := Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	want := &review.Config{FailOn: review.FailOn{Set: true, Severity: review.SeverityLow}, Rules: map[string]review.RuleConfig{"readiness/todo-added": {Off: true}}}
	if diff := cmp.Diff(want, res.Config); diff != "" {
		t.Errorf("untrusted config (-want +got):\n%s", diff)
	}
	if got, want := WithheldLine(res.Withheld, res.Standing), ".reviewls.yaml asks for depth: comprehensive (runs the Go toolchain) and analysis.budget: 1m0s (runs the Go toolchain); not done: this repository is not trusted (run `reviewls trust` to allow it)"; got != want || res.Standing != Untrusted {
		t.Errorf("withheld = %q (standing %d), want %q", got, res.Standing, want)
	}

	if _, _, err := Trust(user, root, known, now); err != nil {
		t.Fatal(err)
	}
	res, err = Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	if res.Standing != Trusted || res.Withheld != nil || res.Config.Depth != review.DepthComprehensive || res.Config.AnalysisBudget != time.Minute {
		t.Errorf("trusted: standing %d, withheld %q, config %+v; want every setting honoured", res.Standing, res.Withheld, res.Config)
	}

	writeFile(t, root, FileName, "depth: comprehensive\n")
	res, err = Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := WithheldLine(res.Withheld, res.Standing), ".reviewls.yaml asks for depth: comprehensive (runs the Go toolchain); not done: its .reviewls.yaml changed since you trusted it (run `reviewls trust` again to allow it)"; got != want || res.Standing != Changed || res.Config.Depth.Valid() {
		t.Errorf("changed: withheld %q (standing %d), depth %v; want %q and no depth", got, res.Standing, res.Config.Depth, want)
	}

	// Without a user folder nothing can be trusted.
	res, err = Resolve(root, "", known)
	if err != nil {
		t.Fatal(err)
	}
	if res.Standing != NoUserDir || res.Config.Depth.Valid() || len(res.Withheld) != 1 {
		t.Errorf("no user folder: standing %d, depth %v, withheld %q; want the depth dropped and said", res.Standing, res.Config.Depth, res.Withheld)
	}
}

// TestResolveUntrustedGates checks that an untrusted repository's gates
// are withheld, and said so, while its policy (which only restricts)
// applies; trusting the repository honours its gates, and the user's own
// gates apply in any repository.
func TestResolveUntrustedGates(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	writeFile(t, root, FileName, "gates: [touch pwned]\npolicy: {forbidden-imports: [pickle]}\n")
	res, err := Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	if res.Config.Gates != nil || len(res.Config.Policy.Imports) != 1 {
		t.Errorf("untrusted: gates %v, policy %+v; want no gates and the policy", res.Config.Gates, res.Config.Policy)
	}
	if got, want := WithheldLine(res.Withheld, res.Standing), ".reviewls.yaml asks for gates (runs project commands with --gates); not done: this repository is not trusted (run `reviewls trust` to allow it)"; got != want {
		t.Errorf("withheld = %q, want %q", got, want)
	}
	if _, _, err := Trust(user, root, known, now); err != nil {
		t.Fatal(err)
	}
	if res, err = Resolve(root, user, known); err != nil {
		t.Fatal(err)
	}
	if want := []review.Gate{{Name: "touch pwned", Command: "touch pwned"}}; !cmp.Equal(want, res.Config.Gates) || res.Withheld != nil {
		t.Errorf("trusted: gates %v, withheld %q; want the repository's gates", res.Config.Gates, res.Withheld)
	}
	other := t.TempDir()
	writeFile(t, user, UserFileName, "gates: [go test ./...]\n")
	if res, err = Resolve(other, user, known); err != nil {
		t.Fatal(err)
	}
	if want := []review.Gate{{Name: "go test ./...", Command: "go test ./..."}}; !cmp.Equal(want, res.Config.Gates) {
		t.Errorf("user's gates: %v, want %v", res.Config.Gates, want)
	}
}

// TestResolveUntrustedModel checks that an untrusted repository's model
// settings are withheld whole, with the line naming the endpoint, so a
// cloned repository never sends its reader's code to a host of its
// choosing; that the user's own model settings apply in any repository
// and replace the repository's whole; and that trusting the repository
// honours its own.
func TestResolveUntrustedModel(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	writeFile(t, root, FileName, "model:\n  endpoint: https://collect.example.com/v1\n  name: m\n  allow-remote: true\n  exclude: [docs/**]\n")
	res, err := Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	if res.Config.Model != nil {
		t.Errorf("untrusted model = %+v, want none", res.Config.Model)
	}
	if got, want := WithheldLine(res.Withheld, res.Standing), ".reviewls.yaml asks for model.endpoint: https://collect.example.com/v1 (sends code to a model endpoint); not done: this repository is not trusted (run `reviewls trust` to allow it)"; got != want {
		t.Errorf("withheld = %q, want %q", got, want)
	}

	// The user's mapping is the model, not merged with the repository's:
	// the repository's endpoint never rides under the user's name.
	writeFile(t, user, UserFileName, "model: {name: local, timeout: 30s}\n")
	res, err = Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&review.ModelConfig{Name: "local", Timeout: 30 * time.Second}, res.Config.Model); diff != "" || res.Withheld != nil {
		t.Errorf("user model (-want +got):\n%s\nwithheld %q", diff, res.Withheld)
	}
	if err := os.Remove(filepath.Join(user, UserFileName)); err != nil {
		t.Fatal(err)
	}

	if _, _, err := Trust(user, root, known, now); err != nil {
		t.Fatal(err)
	}
	res, err = Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	if res.Config.Model == nil || res.Config.Model.Endpoint != "https://collect.example.com/v1" || res.Withheld != nil {
		t.Errorf("trusted: model %+v, withheld %q; want the repository's model honoured", res.Config.Model, res.Withheld)
	}
}

// TestResolveUser checks the user configuration file: it applies in every
// repository, its keys take the place of the repository's (rules merged
// rule by rule, ignore lists added), and its privileged settings are the
// user's own: honoured, and never said to be withheld, also where an
// untrusted repository asks for the same.
func TestResolveUser(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	writeFile(t, user, UserFileName, "depth: comprehensive\nfail-on: never\nrules: {security/weak-crypto: low}\nignore: [\"scratch/**\"]\n")

	res, err := Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	want := &review.Config{Depth: review.DepthComprehensive, FailOn: review.FailNever,
		Rules: map[string]review.RuleConfig{"security/weak-crypto": {Severity: review.SeverityLow}}, Ignore: []string{"scratch/**"}}
	if diff := cmp.Diff(want, res.Config); diff != "" || res.Withheld != nil {
		t.Errorf("no repository file: withheld %q, config (-want +got):\n%s", res.Withheld, diff)
	}

	writeFile(t, root, FileName, "depth: comprehensive\nfail-on: low\nbase: origin/dev\nrules: {readiness/todo-added: off, security/weak-crypto: high}\nignore: [\"gen/**\"]\n")
	res, err = Resolve(root, user, known)
	if err != nil {
		t.Fatal(err)
	}
	want = &review.Config{Depth: review.DepthComprehensive, FailOn: review.FailNever, Base: "origin/dev",
		Rules:  map[string]review.RuleConfig{"readiness/todo-added": {Off: true}, "security/weak-crypto": {Severity: review.SeverityLow}},
		Ignore: []string{"gen/**", "scratch/**"}}
	if diff := cmp.Diff(want, res.Config); diff != "" || res.Withheld != nil {
		t.Errorf("both files: withheld %q, config (-want +got):\n%s", res.Withheld, diff)
	}

	writeFile(t, user, UserFileName, "depht: basic\n")
	if _, err := Resolve(root, user, known); err == nil || err.Error() != filepath.Join(user, UserFileName)+`:1: unknown key "depht": did you mean "depth"? (known keys: profile, depth, perspectives, rules, ignore, base, fail-on, size-cap, function-length, allow-secrets, baseline, analysis, commit-reviews, max-findings, model, policy, gates)` {
		t.Errorf("a bad user file: %v, want the error naming the file and line", err)
	}
}

// TestTrustStore checks the file of trusted repositories: written with
// the user's permissions only, one record per repository however it is
// reached, and revoked.
func TestTrustStore(t *testing.T) {
	root := t.TempDir()
	user := filepath.Join(t.TempDir(), "reviewls")
	writeFile(t, root, FileName, "depth: comprehensive\n")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	if s, err := StandingOf(user, root); err != nil || s != Untrusted {
		t.Fatalf("before trusting: %d, %v", s, err)
	}
	rec, allowed, err := Trust(user, root, known, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"depth: comprehensive (runs the Go toolchain)"}; !slices.Equal(allowed, want) {
		t.Errorf("Trust allowed %q, want %q", allowed, want)
	}
	if _, _, err := Trust(user, link, known, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(root)
	if rec.Root != real || len(rec.ConfigSHA256) != 64 {
		t.Errorf("record %+v, want root %s and a SHA-256", rec, real)
	}
	repos, err := TrustedRepos(user)
	if err != nil {
		t.Fatal(err)
	}
	if len(repos) != 1 || repos[0].Root != real || !repos[0].Trusted.Equal(now.Add(time.Hour)) {
		t.Errorf("trusted repositories %+v, want the one repository, trusted again", repos)
	}
	if s, err := StandingOf(user, link); err != nil || s != Trusted {
		t.Errorf("through the link: %d, %v; want trusted", s, err)
	}
	if runtime.GOOS != "windows" {
		for path, want := range map[string]os.FileMode{user: 0o700, filepath.Join(user, TrustFileName): 0o600} {
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: mode %v, %v; want %v", path, fi.Mode().Perm(), err, want)
			}
		}
	}
	if ok, err := Revoke(user, link); err != nil || !ok {
		t.Fatalf("Revoke = %v, %v", ok, err)
	}
	if s, err := StandingOf(user, root); err != nil || s != Untrusted {
		t.Errorf("after revoking: %d, %v; want untrusted", s, err)
	}
	if ok, err := Revoke(user, root); err != nil || ok {
		t.Errorf("Revoke of an untrusted repository = %v, %v; want false", ok, err)
	}
	writeFile(t, root, FileName, "depht: comprehensive\n")
	if _, _, err := Trust(user, root, known, now); err == nil {
		t.Error("Trust recorded a configuration that does not parse")
	}
	if s, err := StandingOf(user, root); err != nil || s != Untrusted {
		t.Errorf("after trusting a bad configuration: %d, %v; want untrusted", s, err)
	}
	if err := os.WriteFile(filepath.Join(user, TrustFileName), []byte("{\"version\": 1, \"repos\": []}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := StandingOf(user, root); err == nil {
		t.Error("a damaged file of trusted repositories was read as empty")
	}
}

// TestUserDir checks where the user folder is: $XDG_CONFIG_HOME/reviewls,
// else ~/.config/reviewls; a relative XDG_CONFIG_HOME is ignored.
func TestUserDir(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"}, filepath.FromSlash("/x/config/reviewls")},
		{map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/home/u"}, filepath.FromSlash("/home/u/.config/reviewls")},
		{map[string]string{"HOME": "/home/u"}, filepath.FromSlash("/home/u/.config/reviewls")},
		{map[string]string{}, ""},
	} {
		if runtime.GOOS == "windows" {
			break
		}
		if got := UserDir(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("UserDir(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}
