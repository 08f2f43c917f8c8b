package gitdiff

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// goGitCommit decodes data with go-git, into the fields History reports.
func goGitCommit(t *testing.T, data []byte) (*histCommit, error) {
	t.Helper()
	o := &plumbing.MemoryObject{}
	o.SetType(plumbing.CommitObject)
	o.Write(data)
	var c object.Commit
	if err := c.Decode(o); err != nil {
		return nil, err
	}
	subject, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	return &histCommit{
		tree: c.TreeHash, parents: c.ParentHashes,
		committed: c.Committer.When.Unix(), authored: c.Author.When.Unix(),
		author: c.Author.Name, subject: strings.TrimSpace(subject),
	}, nil
}

func checkParseCommit(t *testing.T, data []byte) {
	t.Helper()
	want, werr := goGitCommit(t, data)
	got, gerr := parseCommit(plumbing.ZeroHash, data)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("parseCommit(%q) error %v, go-git %v", data, gerr, werr)
	}
	if werr != nil {
		return
	}
	if got.tree != want.tree || !equalHashes(got.parents, want.parents) || got.committed != want.committed ||
		got.authored != want.authored || got.author != want.author || got.subject != want.subject {
		t.Errorf("parseCommit(%q)\n = %+v\ngo-git %+v", data, got, want)
	}
}

func equalHashes(a, b []plumbing.Hash) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

const (
	treeLine   = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
	parentLine = "parent 8ab686eafeb1f44702738c8b0f24f2567c36da6d\n"
	authorLine = "author A U Thor <a@example.com> 1700000000 +0200\n"
	commitLine = "committer C O Mitter <c@example.com> 1700000100 -0130\n"
)

// commitCorpus are raw commits that exercise the decoder: signatures,
// merge tags, odd signatures, headers out of place, no message.
var commitCorpus = []string{
	treeLine + parentLine + authorLine + commitLine + "\nsubject\n\nbody\n",
	treeLine + authorLine + commitLine + "\n\n  spaced subject  \nnext\n",
	treeLine + parentLine + parentLine + authorLine + commitLine + "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nsigned\n",
	treeLine + parentLine + authorLine + commitLine + "mergetag object 8ab686eafeb1f44702738c8b0f24f2567c36da6d\n type commit\n \n tag body\nencoding ISO-8859-1\n\nmerge\n",
	treeLine + parentLine + authorLine + commitLine,
	treeLine + parentLine + authorLine + commitLine + "\n",
	treeLine + commitLine + "\nno author\n",
	treeLine + "author\n" + commitLine + "\nbare author key\n",
	treeLine + "author No Brackets 1700000000 +0000\n" + commitLine + "\nx\n",
	treeLine + "author >odd< 1700000000 +0000\n" + commitLine + "\nx\n",
	treeLine + "author N <e>\n" + "committer N <e> notanumber +0000\n\nx\n",
	treeLine + "author N <e> 17\n" + "committer N <e>  \n\nx\n",
	treeLine + parentLine + "other header\n" + authorLine + commitLine + "\nauthor out of place\n",
	treeLine + parentLine + authorLine + commitLine + parentLine + "\nlate parent\n",
	treeLine + parentLine + authorLine + commitLine + "\r\n\r\nwindows\r\n",
	treeLine + parentLine + authorLine + strings.TrimSuffix(commitLine, "\n"),
	treeLine + "parent nothex\n" + authorLine + commitLine + "\nbad parent\n",
	"tree nothex\n" + authorLine + commitLine + "\nbad tree\n",
	authorLine + treeLine + commitLine + "\ntree not first\n",
	"\n" + treeLine,
	treeLine + "parent",
	treeLine + "parent\n" + authorLine,
	"",
	strings.TrimSuffix(treeLine, "\n"),
}

// TestParseCommit: the decoder History uses reads what go-git reads, on
// crafted commits and on every commit of a generated history.
func TestParseCommit(t *testing.T) {
	for _, c := range commitCorpus {
		checkParseCommit(t, []byte(c))
	}
	g := genRepo(t, 7, 15)
	r := open(t, g.dir, Options{})
	for _, h := range strings.Fields(runGit(t, g.dir, "rev-list", "--all")) {
		_, data, err := r.store.objs.read(plumbing.NewHash(h))
		if err != nil {
			t.Fatal(err)
		}
		checkParseCommit(t, data)
	}
}

func FuzzParseCommit(f *testing.F) {
	for _, c := range commitCorpus {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParseCommit(t, data)
	})
}
