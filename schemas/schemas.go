// Package schemas holds the JSON Schemas (draft 2020-12) of every JSON
// artifact reviewls writes, embedded in the binary, and validates documents
// against them.
//
// Each schema lives in a file named <name>.v<version>.schema.json:
//
//	metadata           metadata.json
//	diff-state         diff-state.json
//	dispatch-manifest  dispatch-manifest.json
//	findings           <perspective>-findings.json and the merged report
//	emission-record    emission-record.json
//	model-review       model-review.json (the model review's ledger)
//	review-artifact    review-artifact.json (River Review, v1.15.0 field set)
//
// The validator is the package's own, for exactly the draft 2020-12
// keywords these schemas use ($ref between or within them, the type,
// value, object, array, string and number keywords, allOf, anyOf, oneOf,
// and the date-time format, asserted, not just annotated). A schema with
// any other keyword fails to compile, so the tests catch it. It replaced
// github.com/santhosh-tekuri/jsonschema, whose package init alone cost
// every process 14 ms; that library stays in the tests as the oracle the
// validator is checked against (oracle_test.go, FuzzValidate). The package
// is a leaf: it imports nothing from the rest of the module.
package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
)

//go:embed *.schema.json
var files embed.FS

// FS returns the embedded schema files, one per schema, at the root of the
// file system.
func FS() fs.FS { return files }

const schemaSuffix = ".schema.json"

// SchemaError reports that a document does not conform to its schema. It
// lists every violation, each prefixed with the JSON pointer of the value
// at fault (an empty pointer is the whole document).
type SchemaError struct {
	// Schema is the name of the schema, with its version ("metadata.v1").
	Schema string
	// Problems holds one line per violation, sorted.
	Problems []string
}

func (e *SchemaError) Error() string {
	if len(e.Problems) == 1 {
		return fmt.Sprintf("document does not match schema %s: %s", e.Schema, e.Problems[0])
	}
	return fmt.Sprintf("document does not match schema %s (%d problems):\n\t%s",
		e.Schema, len(e.Problems), strings.Join(e.Problems, "\n\t"))
}

// compiled holds every schema, compiled once on first use.
var compiled = sync.OnceValues(compileAll)

// compileAll compiles every embedded schema. The compiler knows only the
// embedded files, so a schema can never make it read the disk or the
// network.
func compileAll() (map[string]*node, error) { return compileFS(files) }

// Names returns the versioned names of every schema ("metadata.v1"), sorted.
func Names() []string {
	entries, _ := fs.Glob(files, "*"+schemaSuffix)
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = strings.TrimSuffix(e, schemaSuffix)
	}
	sort.Strings(out)
	return out
}

// resolve maps "metadata", "metadata.v1" or "metadata.v1.schema.json" to
// the versioned name of an embedded schema. A bare name picks the highest
// version.
func resolve(name string) (string, bool) {
	name = strings.TrimSuffix(name, schemaSuffix)
	best := ""
	for _, n := range Names() {
		if n == name {
			return n, true
		}
		base, _, ok := strings.Cut(n, ".v")
		if ok && base == name && n > best {
			best = n
		}
	}
	return best, best != ""
}

// Validate checks doc, a JSON document, against the schema called name
// ("metadata", "metadata.v1", ...). It returns a *SchemaError when doc is
// not valid JSON or breaks the schema, and a plain error when no schema has
// that name.
func Validate(name string, doc []byte) error {
	all, err := compiled()
	if err != nil {
		// The schemas are embedded and tested: this is a build defect.
		return fmt.Errorf("load embedded schemas: %w", err)
	}
	return validate(all, name, doc)
}

// validate is Validate with the compiled schemas given.
func validate(all map[string]*node, name string, doc []byte) error {
	full, ok := resolve(name)
	if !ok {
		return fmt.Errorf("unknown schema %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	v, err := decodeJSON(doc)
	if err != nil {
		return &SchemaError{Schema: full, Problems: []string{"invalid JSON: " + err.Error()}}
	}
	var c checker
	c.check(all[full], v)
	if len(c.problems) == 0 {
		return nil
	}
	problems := make([]string, len(c.problems))
	for i, p := range c.problems {
		problems[i] = p.String()
	}
	// Objects are walked in map order; sort for stable output.
	slices.Sort(problems)
	return &SchemaError{Schema: full, Problems: slices.Compact(problems)}
}

// decodeJSON decodes one JSON document, numbers kept exact as json.Number.
func decodeJSON(doc []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	return v, nil
}

// ForFile returns the name of the schema of an artifact file, judged by its
// base name: metadata.json, diff-state.json, dispatch-manifest.json,
// <perspective>-findings.json, emission-record.json or review-artifact.json.
func ForFile(filename string) (name string, ok bool) {
	base := path.Base(strings.ReplaceAll(filename, "\\", "/"))
	switch base {
	case "metadata.json":
		return "metadata", true
	case "diff-state.json":
		return "diff-state", true
	case "dispatch-manifest.json":
		return "dispatch-manifest", true
	case "emission-record.json":
		return "emission-record", true
	case "review-artifact.json":
		return "review-artifact", true
	case "model-review.json":
		return "model-review", true
	}
	if p, found := strings.CutSuffix(base, "-findings.json"); found && p != "" {
		return "findings", true
	}
	return "", false
}
