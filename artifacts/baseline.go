package artifacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/schemas"
)

// baselineDoc is the on-disk form of a baseline (schemas/baseline.v1).
type baselineDoc struct {
	SchemaVersion string                 `json:"schema_version"`
	Tool          string                 `json:"tool"`
	Findings      []review.BaselineEntry `json:"findings"`
}

// ReadBaseline reads the baseline at rel (slash-separated, inside the
// repository root), validating it against the baseline schema. The error
// wraps [fs.ErrNotExist] when there is no such file.
func ReadBaseline(root, rel string) (*review.Baseline, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open repository root: %w", err)
	}
	defer r.Close()
	data, err := r.ReadFile(filepath.FromSlash(rel))
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	if err := schemas.Validate("baseline", data); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", rel, err)
	}
	var doc baselineDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", rel, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read baseline %s: data after the JSON document", rel)
	}
	return &review.Baseline{Entries: doc.Findings}, nil
}

// WriteBaseline writes b to rel inside the repository root, atomically. It
// holds fingerprints, rule ids, paths and counts only: no line number, no
// cited code, no secret.
//
// It writes only where a baseline belongs: inside the work tree and
// outside .git/, symbolic links resolved, and it replaces only a regular
// file that holds a reviewls baseline (see checkBaselineTarget).
func WriteBaseline(root, rel string, b *review.Baseline, opts Options) error {
	doc := baselineDoc{SchemaVersion: "1", Tool: opts.tool() + " " + opts.version(), Findings: b.Entries}
	if doc.Findings == nil {
		doc.Findings = []review.BaselineEntry{}
	}
	data, err := encodeValid("baseline", doc, nil)
	if err != nil {
		return err
	}
	r, err := openBaselineTarget(root, rel)
	if err != nil {
		return err
	}
	defer r.Close()
	if dir := filepath.Dir(filepath.FromSlash(rel)); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("write baseline: %w", err)
		}
	}
	return writeAtomic(r, rel, data)
}

// CheckBaselineTarget returns the error WriteBaseline would return for
// where it writes, without writing: nil when a baseline may be written
// (or rewritten) at rel.
func CheckBaselineTarget(root, rel string) error {
	r, err := openBaselineTarget(root, rel)
	if err == nil {
		r.Close()
	}
	return err
}

// openBaselineTarget opens the repository root for writing a baseline at
// rel, once checkBaselineTarget allows it.
func openBaselineTarget(root, rel string) (*os.Root, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open repository root: %w", err)
	}
	if err := checkBaselineTarget(r, root, rel); err != nil {
		r.Close()
		return nil, fmt.Errorf("write baseline %s: %w", rel, err)
	}
	return r, nil
}

// checkBaselineTarget refuses to write a baseline at rel, inside the
// repository root opened as r, when that is in git's directory (a hook,
// HEAD), when a symbolic link leads its folder there or out of the work
// tree, or when rel exists and is not a regular file holding a reviewls
// baseline: a file the user keeps there is never overwritten.
func checkBaselineTarget(r *os.Root, root, rel string) error {
	if review.InGitDir(rel) {
		return errors.New("the path is in .git/ (git's own files are never a baseline)")
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	// The deepest folder of rel that exists, with links resolved: the
	// ones below it are created, links-free.
	for dir := filepath.Dir(filepath.Join(realRoot, filepath.FromSlash(rel))); ; dir = filepath.Dir(dir) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil && dir != filepath.Dir(dir) {
			continue
		}
		in, err := filepath.Rel(realRoot, real)
		switch {
		case err != nil || in == ".." || strings.HasPrefix(in, ".."+string(filepath.Separator)):
			return errors.New("a symbolic link leads its folder out of the work tree")
		case review.InGitDir(filepath.ToSlash(in)):
			return errors.New("a symbolic link leads its folder into .git/ (git's own files are never a baseline)")
		}
		break
	}
	fi, err := r.Lstat(filepath.FromSlash(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return errors.New("it is a symbolic link (a baseline is never written through one)")
	case !fi.Mode().IsRegular():
		return fmt.Errorf("it is %s, not a baseline", regular.Kind(fi.Mode()))
	}
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		return err
	}
	defer f.Close()
	var doc struct {
		SchemaVersion *string     `json:"schema_version"`
		Tool          *string     `json:"tool"`
		Findings      *[]struct{} `json:"findings"`
	}
	if json.NewDecoder(f).Decode(&doc) != nil || doc.SchemaVersion == nil || doc.Tool == nil || doc.Findings == nil {
		return errors.New("the file there is not a reviewls baseline, and is left as it is (point the configuration's baseline key elsewhere, or remove the file)")
	}
	return nil
}
