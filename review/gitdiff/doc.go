// Package gitdiff finds what changed in a git work tree and diffs it: the
// review target (local changes, staged changes, or a branch against the
// merge-base with its base), the changed files with their status and
// staged/unstaged/untracked areas, unified hunks, the state of every added
// line, and the recent history of the touched paths. It is the only
// package of reviewls that uses go-git, and it never runs the git binary.
//
// # Scanning
//
// [Repo.Status] is the equivalent of `git status --untracked-files=all`,
// built for speed on large work trees:
//
//   - The index is read once by a small parser (index.go), whose
//     cache-tree lets the HEAD-vs-index comparison skip every subtree that
//     the index still records with HEAD's tree hash. Without a cache-tree
//     (an index written by go-git) the index's trees are hashed in memory,
//     which is cheaper than reading HEAD's trees.
//   - One parallel walk (walk.go) reads each directory once, compares the
//     stat data of each tracked file with its index entry, hashes a file
//     only when they disagree or the entry is racily clean, and lists
//     untracked files while applying .gitignore files (with git's
//     precedence, negation and wildmatch semantics), info/exclude and
//     core.excludesFile. It never enters an ignored directory unless it
//     holds tracked files, nor a nested repository or a submodule.
//   - Blobs of HEAD, the index or the base are read only for changed
//     files, in [Repo.Scan].
//   - Objects are read by a pack reader of its own (odb.go, packidx.go),
//     not go-git's: each pack index is mapped and binary-searched where it
//     lies, and only the entries asked for (with their delta bases) are
//     inflated, so opening a repository and reading HEAD's trees costs the
//     same whatever the size of its history, and memory is bounded by a
//     fixed cache, not by the number of objects. go-git still reads refs,
//     configuration and the shallow file, and decodes commits for the
//     history walks, from objects this reader gives it.
//
// [Repo.Refresh] re-diffs a few paths against the state cached by the last
// scan (index, tree comparisons, ignore rules), which is what the language
// server does on every save.
//
// # Renames
//
// Renames are detected as git does (renames.go, similarity.go): exact
// renames, then pairs whose base names are unique, then inexact ones
// scored on chunk hashes, with git's 50% threshold and its rename limit
// (diff.renameLimit, 1000). A first round pairs the base with the index,
// as git status does for staged renames and for the committed ones of a
// branch diff; a local or branch review then pairs what is left between
// the base and the work tree, untracked files included (wtrename.go), so
// a file moved without git mv is reviewed as the rename `git add -A`
// would record. A rename's hunks diff the old blob with the new content,
// and File.Similarity is the similarity of the two. Files over the size
// cap pair only when exact (hashed as a stream, never read whole).
//
// # Line states
//
// Each added line of a reviewed file is traced back through the versions
// of the file, base -> HEAD -> index -> work tree, and takes the state of
// the step that added it: committed (branch diffs only), staged, unstaged
// or untracked.
//
// # History
//
// [Repo.History] lists the commits that touched the changed paths, and
// [Repo.LineHistory] the commit that last changed given lines of a file
// (git blame along first parents, for those lines only), both walking
// back a bounded number of commits from the base and reading only the
// trees along the paths asked about. [Repo.TrackedFiles] lists the index's
// files, from the index cached by the last scan while it is current.
//
// # Content conversion
//
// Work tree content is compared with blobs as git would store it
// (convert.go): end-of-line conversion by core.autocrlf and the text,
// crlf and eol attributes, including text=auto's detection of binary
// files and its rule that a file committed with CRLF keeps them, and the
// ident attribute. Attributes are looked up as git does (attr.go), from
// info/attributes, every .gitattributes up to the root (or the index's
// when the work tree lacks one), core.attributesFile and
// /etc/gitattributes, with macros. A reviewed file's Content stays as the
// work tree holds it; conversion only drops the CR of CRLF, so line
// numbers are the work tree's. A file whose converted content equals its
// blob is unchanged, even where git status trusts a changed size and
// lists it as modified. Paths diffed as binary by the diff attribute
// ("-diff", "binary") are skipped as binary.
//
// Filter drivers are never run. A path whose filter attribute names a
// driver the configuration defines, or whose blob or content is a Git LFS
// pointer, is listed with a "filter <name>" skip reason and not diffed.
// Its status needs no filter for git-lfs, whose clean filter's pointer is
// computed; for other drivers the raw content is compared with the blob.
//
// # Repository layouts
//
// [Open] locates the repository and its work tree as git does, from the
// directory it is given (which plays git's current directory) and an
// explicit [Env] ($GIT_DIR, $GIT_WORK_TREE, $GIT_INDEX_FILE,
// $GIT_ALTERNATE_OBJECT_DIRECTORIES; callers pass [ProcessEnv]): linked
// worktrees and submodules (".git" files), core.worktree, core.bare (an
// error: nothing to review). A git directory inside the work tree under
// another name is never reviewed.
//
// Objects are read from the repository and its alternates
// (objects/info/alternates, chained, and the environment's), resolved
// once per Repo (objects.go). In a shallow clone the commits of
// .git/shallow have no parents, for the merge-base as for git; a revision
// or merge-base past the boundary is an error that says how to deepen. In
// a partial clone a missing object is reported as not local with the git
// command that fetches it; a file whose blob is missing is skipped with
// that reason.
//
// Split indexes are merged with their shared index and sparse indexes
// expanded (index_ext.go), so the rest of the package sees a plain index;
// skip-worktree entries (sparse checkouts) are unchanged in the work tree
// and reviewed from the index. A file that cannot be read is skipped as
// unreadable; a directory that cannot be read has its tracked files taken
// as unchanged, with a warning, as git does.
//
// # Revisions
//
// A branch diff's base is resolved as git rev-parse resolves it
// (revision.go): names and hashes through go-git, then reflog entries
// (ref@{N}, @{N}), the previous branches (@{-N}), the upstream and push
// destinations (@{upstream}, @{u}, @{push}) from the reflogs and the
// configuration, and ~N, ^N, ^{commit}, ^{} and ^{/text}. A revision it
// cannot answer is an error that says why (how many reflog entries or
// ancestors there are, which upstream is missing); it never stands for
// another commit. Reflog dates (@{yesterday}) are not supported.
//
// # Limits
//
// working-tree-encoding is not converted (such paths are skipped with a
// reason), textconv diff drivers are not run, and core.ignoreCase is not
// honoured. A submodule is
// changed only when its checked-out commit differs (its own edits are not
// looked at). SHA-256 repositories, include directives of git config,
// $GIT_OBJECT_DIRECTORY and $GIT_COMMON_DIR are not supported; the first
// is reported as an error.
//
// A Repo never writes to the repository. Unlike git status it does not
// refresh the index's stat data, so files whose recorded stat data is
// stale (a work tree copied with new inodes, say) are hashed on every scan;
// the hashes are remembered for the life of the Repo.
//
// # Concurrency
//
// A [Repo] is safe for concurrent use. The object store serializes its own
// reads; every read of objects through go-git also holds Repo.objMu; the cached scan state is swapped
// under Repo.mu. Scans themselves share nothing else.
package gitdiff
