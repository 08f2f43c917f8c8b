package artifacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/schemas"
)

// Dir is a review folder read back from disk.
type Dir struct {
	// Path is the folder.
	Path     string
	Metadata *MetadataDoc
	Manifest *ManifestDoc
}

// Read loads the metadata.json and dispatch-manifest.json of the review
// folder dir. Each must match its schema and decode strictly: an unknown
// field is an error, so consumers never act on a document they only partly
// understand.
func Read(dir string) (*Dir, error) {
	d := &Dir{Path: dir, Metadata: new(MetadataDoc), Manifest: new(ManifestDoc)}
	if err := readStrict(filepath.Join(dir, FileMetadata), "metadata", d.Metadata); err != nil {
		return nil, err
	}
	if err := readStrict(filepath.Join(dir, FileManifest), "dispatch-manifest", d.Manifest); err != nil {
		return nil, err
	}
	return d, nil
}

func readStrict(name, schema string, v any) error {
	data, err := regular.ReadFile(name)
	if err != nil {
		return fmt.Errorf("read review artifact: %w", err)
	}
	if err := schemas.Validate(schema, data); err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("read %s: data after the JSON document", name)
	}
	return nil
}

// FolderError lists every problem found in a review folder, by file.
type FolderError struct {
	Dir string
	// Files holds the files with problems, sorted by name.
	Files []FileProblems
}

// FileProblems lists the problems of one file.
type FileProblems struct {
	// File is the name of the file inside the folder.
	File     string
	Problems []string
}

func (e *FolderError) Error() string {
	var b strings.Builder
	n := 0
	for _, f := range e.Files {
		n += len(f.Problems)
	}
	fmt.Fprintf(&b, "review folder %s: %d problem", e.Dir, n)
	if n != 1 {
		b.WriteString("s")
	}
	for _, f := range e.Files {
		fmt.Fprintf(&b, "\n%s:", f.File)
		for _, p := range f.Problems {
			fmt.Fprintf(&b, "\n\t%s", p)
		}
	}
	return b.String()
}

// required are the files every review folder holds.
var required = []string{FileReview, FileMetadata, FileDiffState, FileManifest}

// Validate checks the review folder dir: the files every review writes are
// present, and each JSON artifact in it matches its schema. It returns a
// *FolderError listing every problem of every file, or nil. JSON files
// with no schema (not reviewls artifacts) are ignored.
func Validate(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("validate review folder: %w", err)
	}
	problems := map[string][]string{}
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = true
		schema, ok := schemas.ForFile(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		data, err := regular.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			problems[e.Name()] = append(problems[e.Name()], err.Error())
			continue
		}
		var se *schemas.SchemaError
		switch err := schemas.Validate(schema, data); {
		case errors.As(err, &se):
			problems[e.Name()] = append(problems[e.Name()], se.Problems...)
		case err != nil:
			problems[e.Name()] = append(problems[e.Name()], err.Error())
		}
	}
	for _, name := range required {
		if !present[name] {
			problems[name] = append(problems[name], "missing")
		}
	}
	if len(problems) == 0 {
		return nil
	}
	fe := &FolderError{Dir: dir}
	for _, name := range sortedKeys(problems) {
		fe.Files = append(fe.Files, FileProblems{File: name, Problems: slices.Clip(problems[name])})
	}
	return fe
}
