package review

// SkipReason says why a changed file is listed but not reviewed
// ([File.Skip]); "" when it is reviewed. The text is what the outputs
// show.
type SkipReason string

func (r SkipReason) String() string { return string(r) }

// MarshalText renders the reason as its text.
func (r SkipReason) MarshalText() ([]byte, error) { return []byte(r), nil }

// The skip reasons with a fixed text. A file over the size cap is skipped
// with "size <n> exceeds the <cap> cap", one that cannot be read with
// "unreadable: <why>".
const (
	SkipBinary      SkipReason = "binary"
	SkipLockFile    SkipReason = "lock file"
	SkipMinified    SkipReason = "minified"
	SkipSourceMap   SkipReason = "source map"
	SkipGenerated   SkipReason = "generated"
	SkipVendored    SkipReason = "vendored"
	SkipBuildOutput SkipReason = "build output"
	SkipSubmodule   SkipReason = "submodule"
	SkipNested      SkipReason = "nested repository"
	SkipSymlink     SkipReason = "symlink"
	SkipUnmerged    SkipReason = "unmerged"
	// SkipWorkTreeDeleted marks a staged rename whose new file was then
	// deleted from the work tree.
	SkipWorkTreeDeleted SkipReason = "deleted in the work tree"
	// SkipSpecial ends the reason of a named pipe, socket or device in
	// the work tree: "a named pipe, not a regular file".
	SkipSpecial SkipReason = "not a regular file"
	// SkipIgnored marks a path the configuration's ignore globs leave out
	// ([ChangeSet.Ignored]).
	SkipIgnored SkipReason = "ignored by configuration"
)
