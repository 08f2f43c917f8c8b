package artifacts

import (
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/review"
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
// <root>/.copilot-tracking/reviews/code-reviews/<t.FolderName()>.
func Folder(root string, t review.Target) string {
	return filepath.Join(root, filepath.FromSlash(ReviewsDir), folderName(t))
}

// folderName is t.FolderName() made safe as a single path element on every
// platform: it never contains a separator and never climbs out of
// code-reviews/.
func folderName(t review.Target) string {
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

// findingsFolder returns the workspace-relative review folder with a
// trailing slash, as diff-state.json records it.
func findingsFolder(t review.Target) string {
	return ReviewsDir + "/" + folderName(t) + "/"
}
