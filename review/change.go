package review

import (
	"sort"
	"strings"
)

// TargetKind is what is being reviewed (hve-spec §1.1).
type TargetKind string

// Target kinds. PullRequest is out of scope locally and reported as such.
const (
	LocalChanges TargetKind = "local_changes"
	BranchDiff   TargetKind = "branch_diff"
	PullRequest  TargetKind = "pull_request"
)

// Target identifies the resolved review target.
type Target struct {
	Kind TargetKind
	// Provider is "unknown" for local targets (no PR provider is consulted).
	Provider string
	// BaseRef is the ref the user named (--base), or "HEAD" for local changes.
	BaseRef string
	// HeadRef is the checked-out branch ref ("refs/heads/main"), or "HEAD"
	// when detached.
	HeadRef string
	// HeadSHA is the immutable reviewed head commit; empty on an unborn HEAD.
	HeadSHA string
	// BaseSHA is the commit the diff starts from: HEAD for local changes, the
	// merge-base for a branch diff; empty on an unborn HEAD.
	BaseSHA string
	// Branch is the short branch name ("feat/x"), empty when detached.
	Branch string
	// Detached reports a detached HEAD; Unborn a repository with no commit.
	Detached, Unborn bool
	// Staged restricts a local review to the index (pre-commit scope).
	Staged bool
}

// BranchLabel returns the branch name, or "detached-<short sha>" for a
// detached HEAD.
func (t Target) BranchLabel() string {
	if t.Detached {
		return "detached-" + ShortSHA(t.HeadSHA)
	}
	return t.Branch
}

// FolderName returns the documented artifact folder name of the target:
// the branch with every "/" replaced by "-", or "detached-<short sha>".
// artifacts.Folder starts from it and keeps apart the branches that share
// it and the names that hold a secret.
func (t Target) FolderName() string {
	name := strings.ReplaceAll(t.BranchLabel(), "/", "-")
	// A branch name may not contain "..", but be safe: the folder name must
	// never climb out of code-reviews/.
	name = strings.ReplaceAll(name, "..", "-")
	if name == "" || name == "." {
		name = "unnamed"
	}
	return name
}

// ShortSHA abbreviates a commit hash to 7 characters.
func ShortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// FileStatus is the status of a changed file relative to the target base.
type FileStatus string

// File statuses.
const (
	StatusAdded     FileStatus = "added"
	StatusModified  FileStatus = "modified"
	StatusDeleted   FileStatus = "deleted"
	StatusRenamed   FileStatus = "renamed"
	StatusUntracked FileStatus = "untracked"
)

// LineState says where a changed line lives.
type LineState string

// Line states. Committed marks lines of a branch diff that are already in
// HEAD.
const (
	LineStaged    LineState = "staged"
	LineUnstaged  LineState = "unstaged"
	LineUntracked LineState = "untracked"
	LineCommitted LineState = "committed"
)

// Hunk is one region of a unified diff. Lines carry their diff prefix
// (' ', '+' or '-') and no line terminator.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []string
}

// File is one changed path of a review target.
type File struct {
	// Path is repo-relative and slash-separated (the new path of a rename).
	Path string
	// OldPath is the previous path of a renamed file.
	OldPath string
	// Similarity is git's similarity index of a renamed file, in percent:
	// how much of the base version and the reviewed content is common
	// (100 for a pure rename), as `git diff -M` prints it.
	Similarity int
	// Base is the blob id of the file's base version, the old side of its
	// diff (HEAD's blob for a local or staged review, the merge-base's for
	// a branch diff, the old path's for a rename); "" when it has none (an
	// added or untracked file) or is not reviewed.
	Base   string
	Status FileStatus
	// Staged and Unstaged say which areas hold changes to the file.
	Staged, Unstaged bool
	// Language is the detected language.
	Language Language
	// Skip, when set, is why the file is listed but not reviewed
	// ("binary", "lock file", "size 2.1 MiB exceeds the 1 MiB cap", ...).
	Skip SkipReason
	// OverCap is the size in bytes of a file skipped for being over the
	// size cap (0 for any other file).
	OverCap int64
	// Hunks is the diff from the target base to the reviewed content.
	Hunks []Hunk
	// BaseNoEOL reports that the base version does not end with a
	// newline, which a diff marks as git does ("\ No newline at end of
	// file"); Content tells the same of the new side.
	BaseNoEOL bool
	// Added and Deleted count diff lines.
	Added, Deleted int
	// Lines maps each changed (added) line of Content to its state.
	Lines map[int]LineState
	// Content is the reviewed new-side content: the work tree, an editor
	// overlay, or the index blob for a staged review. Nil when deleted or
	// skipped.
	Content []byte

	memo memoTable
}

var textLines Memo[[]string]

// TextLines returns the lines of Content ([SplitLines]), split once per
// file: the rules, the risk assessment and the orientation share them.
// Callers must not modify the slice.
func (f *File) TextLines() []string {
	return textLines.Of(f, func() []string { return SplitLines(f.Content) })
}

// UntrackedFile returns path as an untracked file: every line of content
// added, its language detected.
func UntrackedFile(path string, content []byte) *File {
	f := &File{
		Path:     path,
		Status:   StatusUntracked,
		Language: DetectLanguage(path, content),
		Content:  content,
		Lines:    map[int]LineState{},
	}
	for i := range f.TextLines() {
		f.Lines[i+1] = LineUntracked
	}
	return f
}

// SplitLines splits content on "\n", dropping one trailing "\r" per line
// and the empty string after a final newline.
func SplitLines(content []byte) []string {
	if len(content) == 0 {
		return nil
	}
	s := string(content)
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// BasePath returns the path of the file at the review base: OldPath for a
// renamed file, Path otherwise.
func (f *File) BasePath() string {
	if f.Status == StatusRenamed && f.OldPath != "" {
		return f.OldPath
	}
	return f.Path
}

// Reviewed reports whether the file's content is reviewed.
func (f *File) Reviewed() bool {
	return f.Skip == "" && f.Status != StatusDeleted && f.Content != nil
}

// Changed reports whether line n (1-based) of Content was added or modified.
func (f *File) Changed(n int) bool {
	_, ok := f.Lines[n]
	return ok
}

// EachRemoved calls fn for each line the change removed, with the new
// line it stood before and its text (without the "-").
func (f *File) EachRemoved(fn func(before int, text string)) {
	for _, h := range f.Hunks {
		at := h.NewStart
		for _, l := range h.Lines {
			switch {
			case strings.HasPrefix(l, "-"):
				fn(at, l[1:])
			case strings.HasPrefix(l, "+"), strings.HasPrefix(l, " "):
				at++
			}
		}
	}
}

// RemovedBefore reports whether the change removed lines just before new
// line n (a deletion between lines n-1 and n).
func (f *File) RemovedBefore(n int) bool {
	found := false
	f.EachRemoved(func(before int, _ string) { found = found || before == n })
	return found
}

// ChangedLines returns the changed line numbers in increasing order.
func (f *File) ChangedLines() []int {
	out := make([]int, 0, len(f.Lines))
	lo, hi := 0, 0
	for n := range f.Lines {
		out = append(out, n)
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo < 0 || hi > 4*len(out)+64 {
		sort.Ints(out)
		return out
	}
	// Dense line numbers (a new file, a large hunk): mark and collect
	// instead of sorting.
	seen := make([]bool, hi+1)
	for _, n := range out {
		seen[n] = true
	}
	out = out[:0]
	for n, ok := range seen {
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// States returns the distinct line states of the file's changed lines, in
// the order staged, unstaged, untracked, committed.
func (f *File) States() []LineState {
	seen := map[LineState]bool{}
	for _, s := range f.Lines {
		seen[s] = true
	}
	var out []LineState
	for _, s := range []LineState{LineStaged, LineUnstaged, LineUntracked, LineCommitted} {
		if seen[s] {
			out = append(out, s)
		}
	}
	return out
}

// ChangeSet is the review surface of a target: every changed path, sorted
// by Path, including skipped ones.
type ChangeSet struct {
	// Root is the absolute path of the work tree.
	Root   string
	Target Target
	Files  []*File
	// Ignored are the changed paths the configuration's ignore globs leave
	// out of the review (Skip is [SkipIgnored]; no content, no hunks): the
	// review does not list them, the secret scan reads them. A review
	// lists one in Files when the scan finds a secret in it.
	Ignored []*File

	memo memoTable
}

// File returns the changed file at path, or nil.
func (cs *ChangeSet) File(path string) *File {
	i := sort.Search(len(cs.Files), func(i int) bool { return cs.Files[i].Path >= path })
	if i < len(cs.Files) && cs.Files[i].Path == path {
		return cs.Files[i]
	}
	return nil
}

// Reviewed returns the files whose content is reviewed.
func (cs *ChangeSet) Reviewed() []*File {
	var out []*File
	for _, f := range cs.Files {
		if f.Reviewed() {
			out = append(out, f)
		}
	}
	return out
}

// Paths returns every changed path.
func (cs *ChangeSet) Paths() []string {
	out := make([]string, len(cs.Files))
	for i, f := range cs.Files {
		out[i] = f.Path
	}
	return out
}

// Untracked returns the paths of untracked files.
func (cs *ChangeSet) Untracked() []string {
	var out []string
	for _, f := range cs.Files {
		if f.Status == StatusUntracked {
			out = append(out, f.Path)
		}
	}
	return out
}

// Empty reports whether there is nothing to review.
func (cs *ChangeSet) Empty() bool { return cs == nil || len(cs.Files) == 0 }

// Sort orders Files and Ignored by path; call it after building or
// editing them.
func (cs *ChangeSet) Sort() {
	sort.Slice(cs.Files, func(i, j int) bool { return cs.Files[i].Path < cs.Files[j].Path })
	sort.Slice(cs.Ignored, func(i, j int) bool { return cs.Ignored[i].Path < cs.Ignored[j].Path })
}
