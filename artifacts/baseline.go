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
func WriteBaseline(root, rel string, b *review.Baseline, opts Options) error {
	doc := baselineDoc{SchemaVersion: "1", Tool: opts.tool() + " " + opts.version(), Findings: b.Entries}
	if doc.Findings == nil {
		doc.Findings = []review.BaselineEntry{}
	}
	data, err := encodeValid("baseline", doc, nil)
	if err != nil {
		return err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("open repository root: %w", err)
	}
	defer r.Close()
	if dir := filepath.Dir(filepath.FromSlash(rel)); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("write baseline: %w", err)
		}
	}
	return writeAtomic(r, rel, data)
}
