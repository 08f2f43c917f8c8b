package artifacts

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// unsafeName matches the characters a name part may not keep.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safePart turns an item id or symbol into a file-name part: no path
// separators, no "..", nothing but letters, digits, '.', '_' and '-'.
func safePart(s string) string {
	s = unsafeName.ReplaceAllString(s, "-")
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	s = strings.Trim(s, ".-")
	if s == "" {
		s = "x"
	}
	return s
}

// ExplanationFile is the folder-relative name of the explanation of a
// board item's symbol: explanations/<item>-<symbol>.md, sanitised.
func ExplanationFile(item, symbol string) string {
	return DirExplanations + "/" + safePart(item) + "-" + safePart(symbol) + ".md"
}

// WalkbackFile is the folder-relative name of an investigation's
// Register 2 artifact: walkback/<investigation id>-register-2.md.
func WalkbackFile(investigation string) string {
	return DirWalkback + "/" + strings.ToLower(safePart(investigation)) + "-register-2.md"
}

// WriteExtra writes an explanation or walkback artifact (rel as given by
// ExplanationFile or WalkbackFile) into the review folder of target t,
// atomically and only inside .copilot-tracking. The caller redacts data.
// It returns the absolute path written.
func WriteExtra(root string, t review.Target, rel string, data []byte) (string, error) {
	if !explanationRE.MatchString(rel) && !walkbackRE.MatchString(rel) {
		return "", fmt.Errorf("%q is not an explanation or walkback artifact name", rel)
	}
	tracking, err := openTracking(root)
	if err != nil {
		return "", err
	}
	defer tracking.Close()
	unlock, err := lockTracking(tracking)
	if err != nil {
		return "", err
	}
	defer unlock()
	folder := path.Join(strings.TrimPrefix(ReviewsDir, TrackingDir+"/"), folderName(root, t))
	dir := path.Join(folder, path.Dir(rel))
	if err := tracking.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	if err := writeAtomic(tracking, path.Join(folder, rel), data); err != nil {
		return "", err
	}
	if err := syncDir(tracking, dir); err != nil {
		return "", err
	}
	return filepath.Join(Folder(root, t), filepath.FromSlash(rel)), nil
}

// FolderMode returns the mode of the review that the folder of target t
// holds: interactive when its metadata.json lists orientation artifacts
// (the language server or the loop commands wrote it), workflow when it
// lists none, "" when there is no readable review.
func FolderMode(root string, t review.Target) review.Mode {
	var m MetadataDoc
	if err := readStrict(filepath.Join(Folder(root, t), FileMetadata), "metadata", &m); err != nil {
		return ""
	}
	if m.Artifacts != nil {
		return review.ModeInteractive
	}
	return review.ModeWorkflow
}

// LoadLoop reads the review loop's state from the review folder of target
// t: the board and its next actions, gates and phase from
// dispatch-manifest.json, the human's choices of perspectives and depth
// (those diff-state.json marks human-confirmed) and the emission record.
// A folder without a manifest gives (nil, nil).
func LoadLoop(root string, t review.Target) (*review.Loop, error) {
	dir := Folder(root, t)
	var m ManifestDoc
	if err := readStrict(filepath.Join(dir, FileManifest), "dispatch-manifest", &m); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	l := &review.Loop{
		Board:       m.BoardItems,
		NextActions: m.NextActions,
		Gates:       m.PhaseGates,
		Phase:       m.CurrentPhase,
		Provenance:  review.AutomationProvenance(),
	}
	if l.NextActions == nil {
		l.NextActions = []review.NextAction{}
	}
	var ds DiffStateDoc
	if err := readStrict(filepath.Join(dir, FileDiffState), "diff-state", &ds); err == nil {
		l.Provenance = ds.ReviewStateProvenance
		if ds.ReviewStateProvenance.Scope == review.HumanConfirmed && m.ReviewProfile == review.ProfileCustom {
			l.Perspectives = m.SelectedPerspectives
		}
		if ds.ReviewStateProvenance.DepthTier == review.HumanConfirmed {
			l.Depth, l.DepthRationale = ds.DepthTier, ds.DepthRationale
		}
	}
	if data, err := regular.ReadFile(filepath.Join(dir, FileEmissionRecord)); err == nil {
		var e review.Emission
		if json.Unmarshal(data, &e) == nil && e.Status != "" && !(e.Status == "skipped" && strings.HasPrefix(e.Summary, "awaiting")) {
			l.Emission = &e
		}
	}
	return l, nil
}
