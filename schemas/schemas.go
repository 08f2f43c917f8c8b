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
//	review-artifact    review-artifact.json (River Review, v1.15.0 field set)
//
// Format assertions are on, so "date-time" and the other formats are
// enforced, not just annotated. The package is a leaf: it imports nothing
// from the rest of the module.
package schemas

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
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
func compileAll() (map[string]*jsonschema.Schema, error) {
	entries, err := fs.Glob(files, "*"+schemaSuffix)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	ids := map[string]string{}
	for _, name := range entries {
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("parse schema %s: %w", name, err)
		}
		obj, _ := doc.(map[string]any)
		id, _ := obj["$id"].(string)
		if id == "" {
			return nil, fmt.Errorf("schema %s has no $id", name)
		}
		if err := c.AddResource(id, doc); err != nil {
			return nil, fmt.Errorf("add schema %s: %w", name, err)
		}
		ids[strings.TrimSuffix(name, schemaSuffix)] = id
	}
	out := make(map[string]*jsonschema.Schema, len(ids))
	for name, id := range ids {
		sch, err := c.Compile(id)
		if err != nil {
			return nil, fmt.Errorf("compile schema %s: %w", name, err)
		}
		out[name] = sch
	}
	return out, nil
}

// noLoader refuses every URL: all schemas are added to the compiler up
// front.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema %s is not embedded", url)
}

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
func validate(all map[string]*jsonschema.Schema, name string, doc []byte) error {
	full, ok := resolve(name)
	if !ok {
		return fmt.Errorf("unknown schema %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return &SchemaError{Schema: full, Problems: []string{"invalid JSON: " + err.Error()}}
	}
	err = all[full].Validate(v)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return fmt.Errorf("validate against %s: %w", full, err)
	}
	var problems []string
	collect(verr, &problems)
	if len(problems) == 0 {
		problems = []string{verr.Error()}
	}
	// The validator walks objects in map order; sort for stable output.
	sort.Strings(problems)
	problems = slices.Compact(problems)
	return &SchemaError{Schema: full, Problems: problems}
}

// collect appends one line per leaf violation of e. A failed "contains"
// is reported as itself: its causes are the items that did not match,
// which says nothing useful about what is missing.
func collect(e *jsonschema.ValidationError, out *[]string) {
	switch e.ErrorKind.(type) {
	case *kind.Contains, *kind.MinContains:
		leaf := *e
		leaf.Causes = nil
		e = &leaf
	}
	if len(e.Causes) == 0 {
		ptr := pointer(e.InstanceLocation)
		// A leaf renders as "at '<pointer>': <message>"; keep the message
		// and restate the pointer in one quoting style.
		msg := strings.TrimPrefix(e.Error(), "at "+libQuote(ptr)+": ")
		*out = append(*out, fmt.Sprintf("at %q: %s", ptr, msg))
		return
	}
	for _, c := range e.Causes {
		collect(c, out)
	}
}

// pointer renders a JSON pointer (RFC 6901) from its reference tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}

// libQuote quotes s the way the validator quotes instance locations in its
// messages.
func libQuote(s string) string {
	s = strconv.Quote(s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
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
	}
	if p, found := strings.CutSuffix(base, "-findings.json"); found && p != "" {
		return "findings", true
	}
	return "", false
}
