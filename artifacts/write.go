package artifacts

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/reviewls/reviewls/internal/tracking"
	"github.com/reviewls/reviewls/review"
)

// Written reports what one Write did.
type Written struct {
	// Dir is the review folder.
	Dir string
	// Files are the files written, in write order; metadata.json is last.
	Files []string
	// Removed are the stale files and folders of an earlier review that
	// were deleted.
	Removed []string
}

// file is one document to write, its path relative to TrackingDir.
type file struct {
	rel  string
	data []byte
}

// Write persists one review of the repository at root: the review folder
// (see the package documentation) and the diff at DiffPatchPath.
//
// It builds and validates every document before it touches the disk, so a
// schema violation or a missing disclaimer writes nothing. Each file is
// written to a temporary file in its final directory, synced and renamed
// into place; metadata.json goes last, so its presence means the folder is
// complete. Files of an earlier review that this one does not produce are
// then removed, such as the findings of perspectives no longer selected;
// the review loop's work never is: explanations/ and walkback/, which the
// human asked for, and the walkthrough, dispatch board and emission
// record. An interactive run lists the explanations and investigations in
// metadata.json; a workflow run keeps them unlisted, as its metadata lists
// no orientation artifact.
//
// Write never writes outside root/.copilot-tracking: the folder name is a
// single sanitized path element, and every operation goes through an
// os.Root, which refuses to follow a symbolic link out of it. Writers of
// the same repository, in this process or another, take turns: Write holds
// the tracking folder's lock (see lockTracking) from before its first
// change on disk to after its last.
//
// res.ChangeSet must not be empty: a run with no changes writes no
// artifacts.
func Write(root string, res *review.Result, opts Options) (*Written, error) {
	if res == nil || res.ChangeSet.Empty() {
		return nil, errors.New("write review artifacts: empty change set")
	}
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("write review artifacts: %w", err)
	}
	disclaimer, err := LoadDisclaimer(root)
	if err != nil {
		return nil, fmt.Errorf("write review artifacts: %w", err)
	}
	v := newView(res, opts)
	v.folder = folderName(root, v.target)
	folder := path.Join("reviews", "code-reviews", v.folder)
	dir := filepath.Join(root, filepath.FromSlash(ReviewsDir), v.folder)

	// Build and validate everything before the first change on disk.
	var extras []string
	build := func() ([]file, error) {
		if v.interactive() {
			if extras, err = listExtras(dir); err != nil {
				return nil, err
			}
		}
		return v.documents(folder, disclaimer, extras)
	}
	files, err := build()
	if err != nil {
		return nil, fmt.Errorf("write review artifacts: %w", err)
	}

	tracking, err := openTracking(root)
	if err != nil {
		return nil, fmt.Errorf("write review artifacts: %w", err)
	}
	defer tracking.Close()
	unlock, err := lockTracking(tracking)
	if err != nil {
		return nil, fmt.Errorf("write review artifacts: %w", err)
	}
	defer unlock()
	if v.interactive() {
		// Another writer may have added an explanation while this one
		// waited for the lock: metadata.json must list it.
		listed := extras
		now, err := listExtras(dir)
		if err == nil && !slices.Equal(now, listed) {
			files, err = build()
		}
		if err != nil {
			return nil, fmt.Errorf("write review artifacts: %w", err)
		}
	}
	if err := ignoreTracking(tracking, opts.CommitReviews); err != nil {
		return nil, fmt.Errorf("write review artifacts: %w", err)
	}
	for _, d := range []string{folder, "pr"} {
		if err := tracking.MkdirAll(filepath.FromSlash(d), 0o755); err != nil {
			return nil, fmt.Errorf("write review artifacts: create %s: %w", d, err)
		}
	}

	w := &Written{Dir: dir}
	for _, f := range files {
		if err := writeAtomic(tracking, f.rel, f.data); err != nil {
			return w, fmt.Errorf("write review artifacts: %w", err)
		}
		w.Files = append(w.Files, filepath.Join(root, TrackingDir, filepath.FromSlash(f.rel)))
	}
	for _, d := range []string{folder, "pr"} {
		if err := syncDir(tracking, d); err != nil {
			return w, fmt.Errorf("write review artifacts: %w", err)
		}
	}

	keep := map[string]bool{}
	for _, f := range files {
		if d, name := path.Split(f.rel); path.Clean(d) == folder {
			keep[name] = true
		}
	}
	removed, err := removeStale(tracking, folder, keep)
	for _, r := range removed {
		w.Removed = append(w.Removed, filepath.Join(w.Dir, filepath.FromSlash(r)))
	}
	if err != nil {
		return w, fmt.Errorf("write review artifacts: %w", err)
	}
	return w, nil
}

// documents renders every file of the review, JSON documents validated
// against their schemas, in write order.
func (v *view) documents(folder string, d Disclaimer, extras []string) ([]file, error) {
	var files []file
	add := func(name string, data []byte) { files = append(files, file{path.Join(folder, name), data}) }
	// The JSON documents are encoded and validated on the other cores
	// while the next ones are built: for a change of a thousand files
	// that is most of the folder's cost.
	type encoded struct {
		at   int // index in files
		data []byte
		err  error
	}
	var jobs []chan encoded
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	addJSON := func(name, schema string, doc any) {
		at := len(files)
		add(name, nil)
		done := make(chan encoded, 1)
		jobs = append(jobs, done)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			data, err := encodeValid(schema, doc, v.red)
			done <- encoded{at, data, err}
		}()
	}
	wait := func() error {
		var first error
		for _, j := range jobs {
			e := <-j
			if e.err != nil && first == nil {
				first = e.err
			}
			files[e.at].data = e.data
		}
		return first
	}

	files = append(files, file{"pr/pr-reference.xml", v.prReference()})
	for _, p := range v.lanes {
		addJSON(FindingsFile(p), "findings", v.findingsReport(p))
	}
	addJSON(FileDiffState, "diff-state", v.diffState())
	addJSON(FileManifest, "dispatch-manifest", v.manifest())
	addJSON(FileRiver, "review-artifact", v.river())
	if v.hasLedger() {
		addJSON(FileModelReview, "model-review", v.modelReview())
	}
	if v.interactive() {
		add(FileBoard, v.boardMarkdown())
		add(FileWalkthrough, v.walkthroughMarkdown())
		addJSON(FileEmissionRecord, "emission-record", EmissionRecord(v.res))
	}
	add(FileReview, v.reviewMarkdown(d, extras))
	addJSON(FileMetadata, "metadata", v.metadata(extras))
	if err := wait(); err != nil {
		return nil, err
	}
	return files, nil
}

// trackingIgnore is the .gitignore the artifact folder holds by default,
// as pytest and ruff keep their caches out of git: after a review, git
// status shows nothing new and git add -A commits no artifact.
const trackingIgnore = "# Written by reviewls: the review artifacts stay out of git. To commit\n" +
	"# them, set commit-reviews: true in .reviewls.yaml (reviewls then removes\n" +
	"# this file), or edit it.\n*\n"

// ignoreTracking makes the tracking folder ignore itself, unless the
// team commits its reviews; then the file reviewls wrote is removed (an
// edited one is the team's and stays).
func ignoreTracking(t *os.Root, commit bool) error {
	data, err := t.ReadFile(".gitignore")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if commit {
			return nil
		}
		return writeAtomic(t, ".gitignore", []byte(trackingIgnore))
	case err != nil:
		return fmt.Errorf("read %s/.gitignore: %w", TrackingDir, err)
	case commit && string(data) == trackingIgnore:
		return t.Remove(".gitignore")
	}
	return nil
}

// openTracking opens root/.copilot-tracking, creating it, and refuses it
// when it is a symbolic link or not a directory.
func openTracking(root string) (*os.Root, error) {
	return tracking.Open(root, true)
}

// writeAtomic writes data to rel (slash-separated, inside r) through a
// temporary file in the same directory: write, sync, rename.
func writeAtomic(r *os.Root, rel string, data []byte) (err error) {
	dir, base := path.Split(rel)
	tmp := path.Join(dir, "."+base+tempMarker+rand.Text()[:10])
	f, err := r.OpenFile(filepath.FromSlash(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	defer func() {
		if err != nil {
			r.Remove(filepath.FromSlash(tmp))
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err = r.Rename(filepath.FromSlash(tmp), filepath.FromSlash(rel)); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// tempMarker marks the temporary files of writeAtomic; a crash may leave
// one behind, and a later Write removes it once it is stale.
const tempMarker = ".tmp-"

// tempStaleAfter is the age after which a temporary file is a crash's
// leftover. Writers hold the lock while their temporary files exist, so
// one seen under the lock is already a leftover, unless a reviewls from
// before the lock is writing: none of its writes takes a minute.
const tempStaleAfter = time.Minute

// isTempName reports whether name is one of writeAtomic's temporary files.
func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker)
}

// staleTemp reports whether the temporary file e is old enough to remove.
func staleTemp(e fs.DirEntry) bool {
	fi, err := e.Info()
	return err == nil && time.Since(fi.ModTime()) > tempStaleAfter
}

// syncDir makes the renames in dir durable. Windows cannot sync a
// directory, and does not need to.
func syncDir(r *os.Root, dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	f, err := r.Open(filepath.FromSlash(dir))
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// listExtras returns the explanation and walkback files of the review
// folder dir whose names metadata.json can list, folder-relative and
// sorted. It only reads.
func listExtras(dir string) ([]string, error) {
	var out []string
	for _, sub := range []string{DirExplanations, DirWalkback} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", sub, err)
		}
		for _, e := range entries {
			rel := sub + "/" + e.Name()
			if e.Type().IsRegular() && (explanationRE.MatchString(rel) || walkbackRE.MatchString(rel)) {
				out = append(out, rel)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// isArtifactName reports whether name is a file reviewls writes in a review
// folder (or wrote in earlier versions) that a later review may find
// stale and delete. Anything else in the folder is kept: the review
// loop's work (the walkthrough, the dispatch board, the emission record,
// explanations/ and walkback/) and whatever belongs to someone else.
func isArtifactName(name string) bool {
	switch name {
	case FileReview, FileMetadata, FileDiffState, FileManifest, FileRiver, FileModelReview, "orientation-walkthrough.md":
		return true
	}
	p, ok := strings.CutSuffix(name, "-findings.json")
	if !ok {
		return false
	}
	_, err := review.ParsePerspective(p)
	return err == nil && p == strings.ToLower(p)
}

// removeStale deletes the artifacts of folder that are not in keep, and
// the leftover temporary files of crashed writers. It returns the
// folder-relative names removed.
func removeStale(r *os.Root, folder string, keep map[string]bool) ([]string, error) {
	entries, err := fs.ReadDir(r.FS(), folder)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", folder, err)
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		name := e.Name()
		rel := path.Join(folder, name)
		switch {
		case e.Type().IsRegular() && isTempName(name):
			if !staleTemp(e) {
				continue
			}
			if err := r.Remove(filepath.FromSlash(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("remove stale %s: %w", name, err))
				continue
			}
		case e.Type().IsRegular() && !keep[name] && isArtifactName(name):
			if err := r.Remove(filepath.FromSlash(rel)); err != nil {
				errs = append(errs, fmt.Errorf("remove stale %s: %w", name, err))
				continue
			}
		default:
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}
