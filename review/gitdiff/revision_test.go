package gitdiff

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review/reviewtest"
)

// revisionRepo builds a repository whose reflogs, branches, merges, tags
// and upstreams exercise every revision form, with real git.
func revisionRepo(t *testing.T) string {
	t.Helper()
	dir := initRepo(t)
	git := func(args ...string) { datedGit(t, dir, args...) }
	git("checkout", "-q", "-b", "main")
	for _, m := range []string{"c1", "c2", "c3"} {
		write(t, dir, map[string]string{"f.txt": m + "\n"})
		git("add", "-A")
		git("commit", "-q", "-m", m)
	}
	git("tag", "-a", "-m", "v1", "v1", "HEAD~2")
	git("checkout", "-q", "-b", "side", "HEAD~1")
	write(t, dir, map[string]string{"s.txt": "s\n"})
	git("add", "-A")
	git("commit", "-q", "-m", "s1")
	git("checkout", "-q", "main")
	git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	git("checkout", "-q", "-b", "feat")
	write(t, dir, map[string]string{"g.txt": "g\n"})
	git("add", "-A")
	git("commit", "-q", "-m", "f1")
	git("checkout", "-q", "side")
	git("checkout", "-q", "feat")
	git("branch", "-q", "--set-upstream-to=main", "feat")
	return dir
}

// datedGit runs git with a real date: git reads no reflog entry stamped
// at the epoch, the date reviewtest fixes.
func datedGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	const date = "2026-01-01T00:00:00Z"
	return reviewtest.GitEnv(t, dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, args...)
}

// gitRevParse is git's answer for rev as a commit, "" when git refuses it.
func gitRevParse(t *testing.T, dir, rev string) string {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "--verify", "-q", rev+"^{commit}")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// TestResolveRevisionLikeGit resolves every revision form a review base
// takes and checks the commit against git rev-parse's, and that what git
// refuses is refused: --base main@{upstream} and HEAD@{1} used to resolve
// silently to HEAD.
func TestResolveRevisionLikeGit(t *testing.T) {
	dir := revisionRepo(t)
	clone := filepath.Join(t.TempDir(), "clone")
	datedGit(t, dir, "clone", "-q", dir, clone)
	datedGit(t, clone, "checkout", "-q", "main")
	write(t, clone, map[string]string{"local.txt": "l\n"})
	datedGit(t, clone, "add", "-A")
	datedGit(t, clone, "commit", "-q", "-m", "local")

	revs := []string{
		"HEAD", "@", "main", "v1", "side", "HEAD~1", "HEAD~3", "HEAD^", "HEAD^0", "HEAD^{commit}", "HEAD^{}", "main^2", "main^1~1", "v1^{commit}",
		"HEAD@{0}", "HEAD@{1}", "HEAD@{2}", "HEAD@{5}", "@{0}", "@{1}", "feat@{1}", "main@{1}", "main@{2}", "@{1}~1", "HEAD@{1}^",
		"@{-1}", "@{-2}", "@{-3}", "@{-1}~1", "@{-1}@{1}",
		"@{u}", "@{upstream}", "@{UPSTREAM}", "feat@{u}", "HEAD@{u}", "@{u}~1", "@{push}",
		"main^{/c2}",
		// Refused by git too.
		"HEAD@{99}", "HEAD~99", "main^3", "@{-99}", "main@{u}", "side@{push}", "nope@{1}", "@{u}@{u}x",
	}
	for _, tc := range []struct {
		dir  string
		revs []string
	}{{dir, revs}, {clone, []string{"@{u}", "main@{upstream}", "@{u}~1", "@{push}", "origin/main@{0}", "main@{u}@{0}"}}} {
		r := open(t, tc.dir, Options{})
		for _, rev := range tc.revs {
			want := gitRevParse(t, tc.dir, rev)
			r.objMu.Lock()
			h, err := r.resolveRevision(rev)
			r.objMu.Unlock()
			switch {
			case want == "" && err == nil:
				t.Errorf("%s: resolved to %s, git refuses it", rev, h)
			case want != "" && err != nil:
				t.Errorf("%s: %v, git resolves it to %s", rev, err, want)
			case want != "" && h.String() != want:
				t.Errorf("%s = %s, git says %s", rev, h, want)
			}
		}
	}
}

// TestResolvePushLikeGit checks @{push} against git under each
// push.default, for a branch whose upstream has another name.
func TestResolvePushLikeGit(t *testing.T) {
	dir := revisionRepo(t)
	clone := filepath.Join(t.TempDir(), "clone")
	datedGit(t, dir, "clone", "-q", dir, clone)
	datedGit(t, clone, "checkout", "-q", "-b", "topic")
	datedGit(t, clone, "push", "-q", "origin", "topic")
	datedGit(t, clone, "branch", "-q", "--set-upstream-to=origin/main", "topic")
	r := open(t, clone, Options{})
	for _, mode := range []string{"simple", "current", "upstream", "matching", "nothing"} {
		datedGit(t, clone, "config", "push.default", mode)
		for _, rev := range []string{"@{push}", "main@{push}", "topic@{push}~1"} {
			want := gitRevParse(t, clone, rev)
			r.objMu.Lock()
			h, err := r.resolveRevision(rev)
			r.objMu.Unlock()
			if want == "" && err == nil || want != "" && (err != nil || h.String() != want) {
				t.Errorf("push.default %s: %s = %v, %v; git says %q", mode, rev, h, err, want)
			}
		}
	}
}

// TestResolveRevisionErrors checks what a refused revision says: how far
// the history or the reflog goes, what is missing, what is not supported.
func TestResolveRevisionErrors(t *testing.T) {
	dir := revisionRepo(t)
	r := open(t, dir, Options{})
	reflog := datedGit(t, dir, "reflog", "show", "HEAD")
	entries := strconv.Itoa(strings.Count(reflog, "\n"))
	last := strconv.Itoa(strings.Count(reflog, "\n") - 1)
	checkouts := strconv.Itoa(strings.Count(reflog, "checkout: moving from "))
	for rev, want := range map[string]string{
		"HEAD@{9999}":      "the reflog of HEAD has only " + entries + " entries (HEAD@{0} to HEAD@{" + last + "})",
		"HEAD~999999":      "HEAD has only 4 ancestors on its first-parent line",
		"main~2~9":         "main~2 has only 1 ancestor on its first-parent line",
		"main~3~1":         "main~3 has no parent: it is a root commit",
		"main^3":           "main has 2 parents",
		"main@{u}":         "no upstream configured for branch main (git branch --set-upstream-to sets one)",
		"v1@{u}":           "no such branch: v1",
		"main@{yesterday}": "@{yesterday}: reflog dates are not supported; name the entry by its index (@{1}) or the commit",
		"@{-9}":            "HEAD's reflog records only " + checkouts + " checkouts",
		"nope@{1}":         "nope does not exist",
		"HEAD^{tree}":      "HEAD^{tree} is not a commit, and a review base is one",
		"HEAD@{1}@{1}":     "@{1}: nothing may follow a reflog entry",
		"~1":               "no revision before ~ or ^",
	} {
		r.objMu.Lock()
		_, err := r.resolveRevision(rev)
		r.objMu.Unlock()
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", rev, err, want)
		}
	}
	datedGit(t, dir, "checkout", "-q", "--detach")
	r.objMu.Lock()
	_, err := r.resolveRevision("@{u}")
	r.objMu.Unlock()
	if err == nil || err.Error() != "HEAD does not point to a branch" {
		t.Errorf("@{u} on a detached HEAD: %v", err)
	}
}

// TestResolveBranchDiffFromUpstream checks the whole target: a branch
// diff from @{upstream} starts at the upstream, not at HEAD.
func TestResolveBranchDiffFromUpstream(t *testing.T) {
	dir := revisionRepo(t)
	r := open(t, dir, Options{})
	for _, base := range []string{"@{upstream}", "feat@{u}", "HEAD@{1}", "@{-1}"} {
		want := strings.TrimSpace(runGit(t, dir, "merge-base", gitRevParse(t, dir, base), "HEAD"))
		tg := resolve(t, r, false, base)
		if tg.BaseSHA != want || tg.BaseSHA == tg.HeadSHA {
			t.Errorf("--base %s: base %s, want %s (HEAD is %s)", base, tg.BaseSHA, want, tg.HeadSHA)
		}
	}
	_, err := r.Resolve(t.Context(), false, "HEAD~999999")
	if err == nil || err.Error() != `resolve revision "HEAD~999999": HEAD has only 4 ancestors on its first-parent line` {
		t.Errorf("HEAD~999999: %v", err)
	}
}
