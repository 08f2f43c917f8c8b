package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The validator of this package is checked against
// github.com/santhosh-tekuri/jsonschema, the full draft 2020-12
// implementation it replaced in the binary and which stays here, in
// tests only, as the oracle: on every document both must give the same
// verdict and blame the same values.

// oracle compiles the embedded schemas with the library, as the package
// did before it had its own validator.
var oracle = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	dateTime, err := libraryDateTime()
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refuseLoader{})
	c.RegisterFormat(&jsonschema.Format{Name: "date-time", Validate: dateTime})
	ids := map[string]string{}
	for _, name := range Names() {
		data, err := fs.ReadFile(FS(), name+schemaSuffix)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if err := c.AddResource(id, doc); err != nil {
			return nil, err
		}
		ids[name] = id
	}
	out := map[string]*jsonschema.Schema{}
	for name, id := range ids {
		if out[name], err = c.Compile(id); err != nil {
			return nil, err
		}
	}
	return out, nil
})

type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) { return nil, fmt.Errorf("%s is not embedded", url) }

// libraryDateTime returns the library's own date-time check, made strict
// where it is lax: it reads each numeric field with strconv.Atoi, so it
// takes "+1" or "-0" for an hour, which RFC 3339 (2DIGIT) does not. This
// package rejects those; it is the one intended difference.
func libraryDateTime() (func(any) error, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("urn:date-time", map[string]any{"format": "date-time"}); err != nil {
		return nil, err
	}
	sch, err := c.Compile("urn:date-time")
	if err != nil {
		return nil, err
	}
	return func(v any) error {
		if err := sch.Validate(v); err != nil {
			return err
		}
		s, ok := v.(string)
		if !ok {
			return nil
		}
		digitsAt := []int{0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18}
		if last := s[len(s)-1]; last != 'Z' && last != 'z' {
			n := len(s)
			digitsAt = append(digitsAt, n-5, n-4, n-2, n-1)
		}
		for _, i := range digitsAt {
			if !isDigit(s[i]) {
				return errors.New("not a digit")
			}
		}
		return nil
	}, nil
}

// oraclePointers returns the sorted JSON pointers of the values the
// library blames, read the way this package reports them: a failed
// contains (or minContains) blames the array, not its items;
// additionalProperties blames each additional property, not the object.
// A bad property name is only counted (badName): the library gives it the
// instance location of whatever value it validated last (it keeps its
// path slice, which later appends overwrite), so its pointer means nothing.
func oraclePointers(e *jsonschema.ValidationError) (out []string, badName bool) {
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch k := e.ErrorKind.(type) {
		case *kind.Contains, *kind.MinContains:
			out = append(out, pointer(e.InstanceLocation))
			return
		case *kind.PropertyNames:
			badName = true
			return
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, pointer(append(slices.Clone(e.InstanceLocation), p)))
			}
			return
		}
		if len(e.Causes) == 0 {
			out = append(out, pointer(e.InstanceLocation))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(e)
	slices.Sort(out)
	return slices.Compact(out), badName
}

// pointer renders a JSON pointer from its reference tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + escapeToken(t))
	}
	return b.String()
}

// ourPointers returns the sorted JSON pointers of the problems of err, a
// Validate error, but for bad property names, which it only counts
// (badName) as oraclePointers does, and whether the document was invalid
// JSON.
func ourPointers(t testing.TB, err error) (ptrs []string, badName, badJSON bool) {
	t.Helper()
	if err == nil {
		return nil, false, false
	}
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("Validate = %v, want a *SchemaError", err)
	}
	for _, p := range se.Problems {
		if strings.HasPrefix(p, "invalid JSON: ") {
			return nil, false, true
		}
		q, err := strconv.QuotedPrefix(strings.TrimPrefix(p, "at "))
		if err != nil {
			t.Fatalf("problem %q does not start with a quoted pointer", p)
		}
		if strings.HasPrefix(p[len("at ")+len(q):], ": invalid property name ") {
			badName = true
			continue
		}
		ptr, _ := strconv.Unquote(q)
		ptrs = append(ptrs, ptr)
	}
	slices.Sort(ptrs)
	return slices.Compact(ptrs), badName, false
}

// agree checks that Validate and the library agree on doc.
func agree(t testing.TB, schema string, doc []byte) {
	t.Helper()
	lib, err := oracle()
	if err != nil {
		t.Fatal(err)
	}
	full, _ := resolve(schema)
	ourErr := Validate(schema, doc)
	ours, ourBadName, ourBadJSON := ourPointers(t, ourErr)

	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil || ourBadJSON {
		if (err != nil) != ourBadJSON {
			t.Fatalf("invalid JSON: library %v, Validate %v\n%s", err, ourErr, doc)
		}
		return
	}
	if outOfLibraryRange(v) {
		t.Skip("a number the library cannot hold in a big.Rat")
	}
	var theirs []string
	var theirBadName bool
	libErr := lib[full].Validate(v)
	if libErr != nil {
		var verr *jsonschema.ValidationError
		if !errors.As(libErr, &verr) {
			t.Fatalf("library: %v", libErr)
		}
		theirs, theirBadName = oraclePointers(verr)
	}
	if (ourErr == nil) != (libErr == nil) || !slices.Equal(ours, theirs) || ourBadName != theirBadName {
		t.Errorf("%s: Validate and the library disagree\nValidate: %v\nlibrary:  %v\ndocument: %s", schema, ourErr, libErr, doc)
	}
}

// outOfLibraryRange reports whether v holds a number whose exponent is too
// large for the library, which parses numbers into a big.Rat and fails
// (or panics) where math/big refuses the exponent.
func outOfLibraryRange(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			if outOfLibraryRange(e) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(v, outOfLibraryRange)
	case json.Number:
		s := strings.ToLower(string(v))
		if _, exp, ok := strings.Cut(s, "e"); ok {
			n, err := strconv.Atoi(exp)
			return err != nil || n > 1000 || n < -1000
		}
	}
	return false
}

// validDocs returns the valid test documents by file name.
func validDocs(t testing.TB) map[string][]byte {
	files, err := filepath.Glob("testdata/valid/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test documents: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[filepath.Base(f)] = readFile(t, f)
	}
	return out
}

// TestOracleAgrees checks Validate against the library on every test
// document, every mutation of TestInvalidDocuments and TestRiverTraps, and
// every single-value mutation of the test documents: each value replaced
// by each of a palette of values, deleted, and each array grown by a copy
// of its first item.
func TestOracleAgrees(t *testing.T) {
	docs := validDocs(t)
	for name, data := range docs {
		t.Run("valid/"+name, func(t *testing.T) { agree(t, schemaOf(name), data) })
	}
	for _, tc := range slices.Concat(invalidDocuments, riverTraps) {
		t.Run("mutation/"+tc.name, func(t *testing.T) {
			agree(t, schemaOf(tc.doc), mutate(t, docs[tc.doc], tc.ptr, tc.val))
		})
	}
	palette := []any{
		nil, true, false, json.Number("0"), json.Number("-1"), json.Number("1"), json.Number("88.0"),
		json.Number("1.5"), json.Number("1e2"), json.Number("101"), "", "x", "Critical",
		"2026-02-29T00:00:00Z", []any{}, []any{"x"}, map[string]any{}, map[string]any{"x": "y"},
	}
	for name, data := range docs {
		t.Run("sweep/"+name, func(t *testing.T) {
			root := decodeOrFatal(t, data)
			for _, path := range valuePaths(root, nil) {
				var variants []any
				variants = append(variants, palette...)
				variants = append(variants, del{})
				if arr, ok := valueAt(root, path).([]any); ok && len(arr) > 0 {
					variants = append(variants, append(slices.Clone(arr), arr[0]))
				}
				for _, val := range variants {
					doc := decodeOrFatal(t, data)
					doc = setValue(doc, path, val)
					out, err := json.Marshal(doc)
					if err != nil {
						t.Fatal(err)
					}
					agree(t, schemaOf(name), out)
				}
			}
		})
	}
}

func decodeOrFatal(t testing.TB, data []byte) any {
	t.Helper()
	v, err := decodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// valuePaths lists the paths (object keys and array indexes) of every
// value under v, v's own path first.
func valuePaths(v any, path []any) [][]any {
	out := [][]any{slices.Clone(path)}
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, valuePaths(v[k], append(path, k))...)
		}
	case []any:
		for i, e := range v {
			out = append(out, valuePaths(e, append(path, i))...)
		}
	}
	return out
}

func valueAt(v any, path []any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			v = v.(map[string]any)[s]
		case int:
			v = v.([]any)[s]
		}
	}
	return v
}

// setValue returns root with the value at path set to val, or deleted
// for del{} (the root itself is never deleted).
func setValue(root any, path []any, val any) any {
	if len(path) == 0 {
		if _, ok := val.(del); ok {
			return root
		}
		return val
	}
	parent := valueAt(root, path[:len(path)-1])
	_, deleting := val.(del)
	switch s := path[len(path)-1].(type) {
	case string:
		obj := parent.(map[string]any)
		if deleting {
			delete(obj, s)
		} else {
			obj[s] = val
		}
	case int:
		arr := parent.([]any)
		if !deleting {
			arr[s] = val
			return root
		}
		return setValue(root, path[:len(path)-1], slices.Delete(slices.Clone(arr), s, s+1))
	}
	return root
}

// FuzzValidate checks Validate against the library on mutated documents,
// seeded with the test documents and the mutations of TestInvalidDocuments
// and TestRiverTraps. The first argument picks the schema.
func FuzzValidate(f *testing.F) {
	names := Names()
	index := func(doc string) uint8 {
		return uint8(slices.Index(names, must(resolve(schemaOf(doc)))))
	}
	docs := validDocs(f)
	for name, data := range docs {
		f.Add(index(name), data)
	}
	for _, tc := range slices.Concat(invalidDocuments, riverTraps) {
		f.Add(index(tc.doc), mutate(f, docs[tc.doc], tc.ptr, tc.val))
	}
	f.Fuzz(func(t *testing.T, schema uint8, doc []byte) {
		agree(t, names[int(schema)%len(names)], doc)
	})
}

func must(name string, ok bool) string {
	if !ok {
		panic("no schema " + name)
	}
	return name
}
