package gitdiff

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// resolveRevision resolves rev to a commit as git rev-parse does, for the
// forms a review base takes (gitrevisions(7)):
//
//   - a name go-git resolves: a branch, a tag, a remote-tracking branch, a
//     full ref, a (short) hash; "@" alone is HEAD;
//   - reflog entries: ref@{N}, and @{N} for the current branch (HEAD when
//     detached);
//   - @{-N}, the N-th branch checked out before the current one;
//   - ref@{upstream} (@{u}) and ref@{push}, and both for the current
//     branch with no ref;
//   - then any of ~N, ^N, ^{commit}, ^{} and ^{/text}.
//
// Reflog dates (ref@{yesterday}) are an error that says so, as is
// anything it cannot answer: it never falls back to another commit.
// Requires objMu.
func (r *Repo) resolveRevision(rev string) (plumbing.Hash, error) {
	start, nav := splitRevision(rev)
	h, err := r.resolveStart(start)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	c, err := r.peelCommit(h, start)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return r.navigate(c, start, nav)
}

// splitRevision splits rev at its first ~ or ^ outside an @{...}: the
// name with its @{...} suffixes, and the navigation after it. Ref names
// hold neither character.
func splitRevision(rev string) (start, nav string) {
	for i := 0; i < len(rev); i++ {
		switch {
		case strings.HasPrefix(rev[i:], "@{"):
			if j := strings.IndexByte(rev[i:], '}'); j > 0 {
				i += j
			}
		case rev[i] == '~' || rev[i] == '^':
			return rev[:i], rev[i:]
		}
	}
	return rev, ""
}

// resolveStart resolves the name part of a revision with its @{...}
// suffixes.
func (r *Repo) resolveStart(start string) (plumbing.Hash, error) {
	name, specs, ok := splitAt(start)
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("%q is not a revision (an @{...} is not closed, or text follows it)", start)
	}
	if name == "@" {
		name = "HEAD"
	}
	if len(specs) == 0 {
		if name == "" {
			return plumbing.ZeroHash, errors.New("no revision before ~ or ^")
		}
		h, err := r.repo.ResolveRevision(plumbing.Revision(name))
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return *h, nil
	}
	// cur is the ref the next suffix applies to ("" for the current
	// branch), or resolved once a reflog entry gave a commit.
	cur, resolved := name, plumbing.ZeroHash
	for i, spec := range specs {
		at := "@{" + spec + "}"
		if !resolved.IsZero() {
			return plumbing.ZeroHash, fmt.Errorf("%s: nothing may follow a reflog entry", at)
		}
		switch lower := strings.ToLower(spec); {
		case strings.HasPrefix(spec, "-") && isDigits(spec[1:]):
			if i > 0 || name != "" {
				return plumbing.ZeroHash, fmt.Errorf("%s: @{-N} stands alone, before any other suffix", at)
			}
			n, _ := strconv.Atoi(spec[1:])
			prev, err := r.previousCheckout(n)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			cur = prev
		case isDigits(spec):
			n, err := strconv.Atoi(spec)
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("%s: reflog index out of range", at)
			}
			if resolved, err = r.reflogEntry(cur, n); err != nil {
				return plumbing.ZeroHash, err
			}
		case lower == "u" || lower == "upstream" || lower == "push":
			// A push destination is named for a branch that need not
			// exist, as git names it.
			branch, err := r.branchOf(cur, lower != "push")
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if lower == "push" {
				cur, err = r.pushRef(branch)
			} else {
				cur, err = r.upstreamRef(branch)
			}
			if err != nil {
				return plumbing.ZeroHash, err
			}
		default:
			return plumbing.ZeroHash, fmt.Errorf("%s: reflog dates are not supported; name the entry by its index (@{1}) or the commit", at)
		}
	}
	if !resolved.IsZero() {
		return resolved, nil
	}
	if cur == "" {
		cur = "HEAD"
	}
	st, err := r.readRef(cur)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if st.hash.IsZero() {
		// @{-N} may name a commit a detached HEAD was at.
		h, rerr := r.repo.ResolveRevision(plumbing.Revision(cur))
		if rerr != nil {
			return plumbing.ZeroHash, fmt.Errorf("%s does not exist", cur)
		}
		return *h, nil
	}
	return st.hash, nil
}

// splitAt splits a revision's start into its name and the texts of its
// @{...} suffixes; ok is false when they do not make up the rest.
func splitAt(start string) (name string, specs []string, ok bool) {
	i := strings.Index(start, "@{")
	if i < 0 {
		return start, nil, true
	}
	name, rest := start[:i], start[i:]
	for rest != "" {
		if !strings.HasPrefix(rest, "@{") {
			return "", nil, false
		}
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return "", nil, false
		}
		specs = append(specs, rest[2:j])
		rest = rest[j+1:]
	}
	return name, specs, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readRef resolves a full or short ref name as git's ref lookup rules
// do (the name itself, refs/, refs/tags/, refs/heads/, refs/remotes/,
// refs/remotes/<name>/HEAD), to its commit; a zero hash when none exists.
func (r *Repo) readRef(name string) (refState, error) {
	for _, full := range refCandidates(name) {
		st, err := resolveRef(r.gitDir, r.commonDir, full)
		if err != nil {
			return st, err
		}
		if !st.hash.IsZero() {
			return st, nil
		}
	}
	return refState{}, nil
}

// refCandidates are the full names git tries for name, in order.
func refCandidates(name string) []string {
	if name == "HEAD" || strings.HasPrefix(name, "refs/") {
		return []string{name}
	}
	return []string{name, "refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"}
}

// reflogEntry returns entry n of the reflog of ref (the current branch
// when ref is "", HEAD when detached): 0 is the ref's value now, 1 the one
// before. Past the oldest entry, as git does, the oldest's old value
// counts as one more entry when it is not zero.
func (r *Repo) reflogEntry(ref string, n int) (plumbing.Hash, error) {
	full, err := r.reflogRef(ref)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	entries, err := readReflog(refLogPath(r.gitDir, r.commonDir, full))
	if err != nil {
		return plumbing.ZeroHash, err
	}
	short := plumbing.ReferenceName(full).Short()
	switch {
	case n < len(entries):
		return entries[len(entries)-1-n].new, nil
	case n == len(entries) && len(entries) > 0 && !entries[0].old.IsZero():
		return entries[0].old, nil
	case len(entries) == 0:
		return plumbing.ZeroHash, fmt.Errorf("the reflog of %s is empty", short)
	}
	return plumbing.ZeroHash, fmt.Errorf("the reflog of %s has only %s (%s@{0} to %s@{%d})",
		short, plural(len(entries), "entry", "entries"), short, short, len(entries)-1)
}

// reflogRef returns the full name of the ref whose reflog ref@{N} reads:
// for "" the branch HEAD is on (HEAD when detached), otherwise the first of
// git's candidates that has a reflog.
func (r *Repo) reflogRef(ref string) (string, error) {
	if ref == "" {
		st, err := readHead(r.gitDir, r.commonDir)
		if err != nil {
			return "", err
		}
		if st.symref != "" {
			return st.symref, nil
		}
		return "HEAD", nil
	}
	for _, full := range refCandidates(ref) {
		if _, err := os.Lstat(refLogPath(r.gitDir, r.commonDir, full)); err == nil {
			return full, nil
		}
	}
	st, err := r.readRef(ref)
	if err != nil {
		return "", err
	}
	if st.hash.IsZero() {
		return "", fmt.Errorf("%s does not exist", ref)
	}
	return "", fmt.Errorf("%s has no reflog (git keeps one only where core.logAllRefUpdates asks for it)", ref)
}

// refLogPath is where the reflog of the full ref name lives: under logs/
// in the git directory that holds the ref.
func refLogPath(gitDir, commonDir, full string) string {
	return filepath.Join(refDir(gitDir, commonDir, full), "logs", filepath.FromSlash(full))
}

// reflogLine is one reflog entry: the ref's value before and after.
type reflogLine struct {
	old, new plumbing.Hash
	msg      string
}

// readReflog reads a reflog file, oldest entry first. A missing file is
// an empty reflog.
func readReflog(path string) ([]reflogLine, error) {
	f, err := regular.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read reflog: %w", err)
	}
	defer f.Close()
	var out []reflogLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 82 || line[40] != ' ' || line[81] != ' ' || !plumbing.IsHash(line[:40]) || !plumbing.IsHash(line[41:81]) {
			continue // not an entry git would read either
		}
		e := reflogLine{old: plumbing.NewHash(line[:40]), new: plumbing.NewHash(line[41:81])}
		if _, msg, ok := strings.Cut(line, "\t"); ok {
			e.msg = msg
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read reflog: %w", err)
	}
	return out, nil
}

// previousCheckout returns what @{-n} names: the branch (or the commit,
// for a detached HEAD) checked out before the n-th last checkout, from
// the "checkout: moving from X to Y" entries of HEAD's reflog.
func (r *Repo) previousCheckout(n int) (string, error) {
	if n < 1 {
		return "", errors.New("@{-0} names no checkout; @{-1} is the previous one")
	}
	entries, err := readReflog(refLogPath(r.gitDir, r.commonDir, "HEAD"))
	if err != nil {
		return "", err
	}
	seen := 0
	for i := len(entries) - 1; i >= 0; i-- {
		rest, ok := strings.CutPrefix(entries[i].msg, "checkout: moving from ")
		if !ok {
			continue
		}
		if seen++; seen == n {
			from, _, ok := strings.Cut(rest, " to ")
			if !ok || from == "" {
				break
			}
			return from, nil
		}
	}
	return "", fmt.Errorf("HEAD's reflog records only %s", plural(seen, "checkout", "checkouts"))
}

// branchOf returns the short name of the local branch ref names (which
// must exist when exists is set): for "" and HEAD the branch HEAD is on.
func (r *Repo) branchOf(ref string, exists bool) (string, error) {
	if ref == "" || ref == "HEAD" {
		st, err := readHead(r.gitDir, r.commonDir)
		if err != nil {
			return "", err
		}
		b, ok := strings.CutPrefix(st.symref, "refs/heads/")
		if !ok {
			return "", errors.New("HEAD does not point to a branch")
		}
		return b, nil
	}
	b := strings.TrimPrefix(ref, "refs/heads/")
	if !exists {
		return b, nil
	}
	st, err := resolveRef(r.gitDir, r.commonDir, "refs/heads/"+b)
	if err != nil {
		return "", err
	}
	if st.hash.IsZero() {
		return "", fmt.Errorf("no such branch: %s", ref)
	}
	return b, nil
}

// upstreamRef returns the full name of the ref branch@{upstream} stands
// for: branch.<name>.merge, local when branch.<name>.remote is ".", else
// mapped to its remote-tracking branch by the remote's fetch refspecs.
func (r *Repo) upstreamRef(branch string) (string, error) {
	cfg, err := loadConfig(r.gitDir, r.commonDir)
	if err != nil {
		return "", err
	}
	remote, merge := cfg.getSub("branch", branch, "remote"), cfg.getSub("branch", branch, "merge")
	if remote == "" || merge == "" {
		return "", fmt.Errorf("no upstream configured for branch %s (git branch --set-upstream-to sets one)", branch)
	}
	if remote == "." {
		return merge, nil
	}
	return r.trackingRef(remote, merge)
}

// trackingRef maps ref of remote to the remote-tracking branch that
// fetches store it in.
func (r *Repo) trackingRef(remote, ref string) (string, error) {
	rc, err := r.repo.Config()
	if err != nil {
		return "", fmt.Errorf("read config: %w", err)
	}
	if rm, ok := rc.Remotes[remote]; ok {
		for _, rs := range rm.Fetch {
			if rs.Match(plumbing.ReferenceName(ref)) {
				return rs.Dst(plumbing.ReferenceName(ref)).String(), nil
			}
		}
	}
	return "", fmt.Errorf("the upstream %s of remote %s is not fetched into a remote-tracking branch", ref, remote)
}

// pushRef returns the full name of the ref branch@{push} stands for: the
// remote-tracking branch of where 'git push' would push branch, by
// branch.<name>.pushRemote, remote.pushDefault or the remote it fetches
// from (branch.<name>.remote, or origin), and push.default: upstream pushes to the upstream; simple, the default,
// to the upstream when it has the branch's name and the same remote, else
// (like current and matching) to the branch of the same name.
func (r *Repo) pushRef(branch string) (string, error) {
	cfg, err := loadConfig(r.gitDir, r.commonDir)
	if err != nil {
		return "", err
	}
	// git's default remote is origin, for fetching and pushing alike.
	upstreamRemote := cfg.getSub("branch", branch, "remote")
	if upstreamRemote == "" {
		upstreamRemote = "origin"
	}
	remote := cfg.getSub("branch", branch, "pushRemote")
	if remote == "" {
		remote = cfg.get("remote", "pushDefault")
	}
	if remote == "" {
		remote = upstreamRemote
	}
	mode := strings.ToLower(cfg.get("push", "default"))
	switch {
	case mode == "nothing":
		return "", errors.New("push.default is nothing: no push destination")
	case mode == "upstream" && remote != upstreamRemote:
		return "", fmt.Errorf("push.default is upstream and branch %s pushes to %s, not to its upstream's remote", branch, remote)
	case mode == "upstream":
		return r.upstreamRef(branch)
	case (mode == "" || mode == "simple") && remote == upstreamRemote:
		// simple pushes to the upstream only when it has the same name.
		if merge := cfg.getSub("branch", branch, "merge"); merge != "refs/heads/"+branch {
			return "", fmt.Errorf("push.default simple pushes %s only to a branch of that name, and its upstream is %s", branch, merge)
		}
		return r.upstreamRef(branch)
	}
	if remote == "." {
		return "refs/heads/" + branch, nil
	}
	return r.trackingRef(remote, "refs/heads/"+branch)
}

// peelCommit returns the commit h names, through annotated tags.
func (r *Repo) peelCommit(h plumbing.Hash, what string) (*object.Commit, error) {
	for range 10 {
		c, err := r.repo.CommitObject(h)
		if err == nil {
			return c, nil
		}
		tag, terr := r.repo.TagObject(h)
		if terr != nil {
			return nil, fmt.Errorf("%s: %w", what, r.objectErr("commit", h, err))
		}
		if tag.TargetType != plumbing.CommitObject && tag.TargetType != plumbing.TagObject {
			return nil, fmt.Errorf("%s names a %s, not a commit", what, tag.TargetType)
		}
		h = tag.Target
	}
	return nil, fmt.Errorf("%s: too many levels of tags", what)
}

// navigate applies the ~ and ^ suffixes of nav to c, the commit at. It
// says how far a walk could go when it runs out of parents.
func (r *Repo) navigate(c *object.Commit, at, nav string) (plumbing.Hash, error) {
	shallow, err := r.shallowCommits()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	parent := func(c *object.Commit, i int) (*object.Commit, error) {
		if shallow[c.Hash] {
			return nil, errShallow(fmt.Sprintf("the parents of %s lie", review.ShortSHA(c.Hash.String())), "beyond")
		}
		p, err := r.repo.CommitObject(c.ParentHashes[i])
		if err != nil {
			return nil, r.objectErr("commit", c.ParentHashes[i], err)
		}
		return p, nil
	}
	for nav != "" {
		op := nav[0]
		nav = nav[1:]
		if op == '^' && strings.HasPrefix(nav, "{") {
			j := strings.IndexByte(nav, '}')
			if j < 0 {
				return plumbing.ZeroHash, errors.New("an ^{ is not closed")
			}
			what := nav[1:j]
			nav = nav[j+1:]
			switch {
			case what == "" || what == "commit":
				// c is a commit already.
			case strings.HasPrefix(what, "/"):
				// A commit message search: go-git's, from c.
				h, err := r.repo.ResolveRevision(plumbing.Revision(c.Hash.String() + "^{" + what + "}"))
				if err != nil {
					return plumbing.ZeroHash, fmt.Errorf("no commit from %s matches %s: %w", at, what, err)
				}
				if c, err = r.peelCommit(*h, at); err != nil {
					return plumbing.ZeroHash, err
				}
			default:
				return plumbing.ZeroHash, fmt.Errorf("%s^{%s} is not a commit, and a review base is one", at, what)
			}
			at += "^{" + what + "}"
			continue
		}
		digits := 0
		for digits < len(nav) && '0' <= nav[digits] && nav[digits] <= '9' {
			digits++
		}
		n := 1
		if digits > 0 {
			var err error
			if n, err = strconv.Atoi(nav[:digits]); err != nil {
				return plumbing.ZeroHash, fmt.Errorf("%c%s: number out of range", op, nav[:digits])
			}
		}
		step := string(op) + nav[:digits]
		nav = nav[digits:]
		switch op {
		case '~':
			for i := range n {
				if len(c.ParentHashes) == 0 {
					if i == 0 {
						return plumbing.ZeroHash, fmt.Errorf("%s has no parent: it is a root commit", at)
					}
					return plumbing.ZeroHash, fmt.Errorf("%s has only %s on its first-parent line", at, plural(i, "ancestor", "ancestors"))
				}
				if c, err = parent(c, 0); err != nil {
					return plumbing.ZeroHash, err
				}
			}
		case '^':
			if n == 0 {
				break
			}
			if n > len(c.ParentHashes) {
				return plumbing.ZeroHash, fmt.Errorf("%s has %s", at, plural(len(c.ParentHashes), "parent", "parents"))
			}
			if c, err = parent(c, n-1); err != nil {
				return plumbing.ZeroHash, err
			}
		default:
			return plumbing.ZeroHash, fmt.Errorf("%s: not a revision suffix", step)
		}
		at += step
	}
	return c.Hash, nil
}

// plural words n things: "1 entry", "3 entries", "no entries".
func plural(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
