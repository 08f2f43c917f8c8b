package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/secret"
)

// Workspace-relative locations fixed by the protocol.
const (
	// TrackingDir holds everything reviewls writes in a repository.
	TrackingDir = ".copilot-tracking"
	// ReviewsDir holds one review folder per branch.
	ReviewsDir = ".copilot-tracking/reviews/code-reviews"
	// DiffPatchPath is the diff artifact (diff-state.json diffPatchPath).
	DiffPatchPath = ".copilot-tracking/pr/pr-reference.xml"
)

// Names of the files of a review folder.
const (
	FileReview         = "review.md"
	FileMetadata       = "metadata.json"
	FileDiffState      = "diff-state.json"
	FileManifest       = "dispatch-manifest.json"
	FileRiver          = "review-artifact.json"
	FileBoard          = "dispatch-board.md"
	FileWalkthrough    = "walkthrough.md"
	FileEmissionRecord = "emission-record.json"
	DirExplanations    = "explanations"
	DirWalkback        = "walkback"
)

// FindingsFile returns the name of the findings file of perspective p
// ("security-findings.json").
func FindingsFile(p review.Perspective) string { return string(p) + "-findings.json" }

// Folder returns the review folder of target t in the repository at root:
// <root>/.copilot-tracking/reviews/code-reviews/<name>, the name as
// folderName resolves it. Writers and readers both call it, so they agree
// on the folder.
func Folder(root string, t review.Target) string {
	return filepath.Join(root, filepath.FromSlash(ReviewsDir), folderName(root, t))
}

// folderName returns the name of the review folder of t in the repository
// at root (no disk is read when root is ""):
//
//   - the documented name, t.FolderName() made safe as one path element
//     ("feat/x" → "feat-x"), unless that folder belongs to another branch;
//   - <name>-<hash>, hash the first 8 hex digits of the SHA-256 of the
//     branch label, when the folder of the documented name belongs to
//     another branch (per the branch its metadata.json records: "feat/x"
//     and "feat-x" both map to "feat-x"; whoever writes second gets the
//     hashed name), or when the hashed folder already belongs to t's
//     branch (the choice sticks);
//   - for a branch whose name holds a secret, the name with each secret
//     replaced by "redacted", then -<hash>: the secret never reaches the
//     file system, and the hash keeps such branches apart.
func folderName(root string, t review.Target) string {
	label := t.BranchLabel()
	hash := sha256.Sum256([]byte(label))
	suffix := "-" + hex.EncodeToString(hash[:])[:8]
	if found := secret.Find(label); len(found) > 0 {
		for _, s := range found {
			t.Branch = strings.ReplaceAll(t.Branch, s, "redacted")
		}
		return safeName(t) + suffix
	}
	name := safeName(t)
	if root == "" {
		return name
	}
	dir := filepath.Join(root, filepath.FromSlash(ReviewsDir))
	me := recordedBranch(t)
	if folderOwner(filepath.Join(dir, name+suffix)) == me {
		return name + suffix
	}
	if owner := folderOwner(filepath.Join(dir, name)); owner == "" || owner == me {
		return name
	}
	return name + suffix
}

// safeName is t.FolderName() made safe as a single path element on every
// platform: it never contains a separator and never climbs out of
// code-reviews/.
func safeName(t review.Target) string {
	name := t.FolderName()
	name = strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\' || r == ':' || r < ' ':
			return '-'
		}
		return r
	}, name)
	for strings.Contains(name, "..") {
		name = strings.ReplaceAll(name, "..", "-")
	}
	if !filepath.IsLocal(name) || name == "." || strings.Trim(name, ".") == "" {
		return "unnamed"
	}
	return name
}

// recordedBranch is the branch metadata.json records for t.
func recordedBranch(t review.Target) string {
	if b := t.BranchLabel(); b != "" {
		return b
	}
	if t.Unborn {
		return "unborn"
	}
	return "HEAD"
}

// folderOwner returns the branch the review in dir was written for, or ""
// when dir holds no readable metadata.json.
func folderOwner(dir string) string {
	data, err := regular.ReadFile(filepath.Join(dir, FileMetadata))
	if err != nil {
		return ""
	}
	var m struct {
		Branch string `json:"branch"`
	}
	if json.Unmarshal(data, &m) != nil {
		return ""
	}
	return m.Branch
}

// findingsFolder returns the workspace-relative review folder with a
// trailing slash, as diff-state.json records it.
func findingsFolder(folder string) string {
	return ReviewsDir + "/" + folder + "/"
}
