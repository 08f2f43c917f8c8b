package schemas

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// schemaFS builds schema files from their JSON text, each given the
// draft and an $id of https://example.test/<name>.schema.json unless it
// states its own.
func schemaFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, body := range files {
		head := `"$schema": "` + draft2020 + `"`
		if !strings.Contains(body, `"$id"`) {
			head += `, "$id": "https://example.test/` + name + `.schema.json"`
		}
		body = strings.Replace(body, "{", "{"+head+",", 1)
		body = strings.Replace(body, ",}", "}", 1)
		fsys[name+schemaSuffix] = &fstest.MapFile{Data: []byte(body)}
	}
	return fsys
}

// problemsOf validates doc against the compiled schema name and returns
// the problems, rendered.
func problemsOf(t *testing.T, all map[string]*node, name, doc string) []string {
	t.Helper()
	v, err := decodeJSON([]byte(doc))
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	var c checker
	c.check(all[name], v)
	var out []string
	for _, p := range c.problems {
		out = append(out, p.String())
	}
	return out
}

func compileOrFatal(t *testing.T, files map[string]string) map[string]*node {
	t.Helper()
	all, err := compileFS(schemaFS(files))
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestCompileRejects checks that a schema the validator cannot enforce in
// full is a compile error naming the problem, never a schema that
// silently validates less.
func TestCompileRejects(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"unknown keyword", `{"if": {"type": "string"}}`, `at "": if: unsupported keyword`},
		{"unknown nested keyword", `{"properties": {"a": {"maxLength": 3}}}`, `at "/properties/a": maxLength: unsupported keyword`},
		{"unknown keyword in an unused definition", `{"$defs": {"a": {"not": {}}}}`, `at "/$defs/a": not: unsupported keyword`},
		{"unknown keyword behind a ref", `{"$ref": "#/$defs/a", "$defs": {"a": {"items": {"prefixItems": []}}}}`, `prefixItems: unsupported keyword`},
		{"format", `{"format": "email"}`, `unsupported format email`},
		{"pattern", `{"pattern": "("}`, `pattern: error parsing regexp`},
		{"dangling ref", `{"$ref": "#/$defs/nope"}`, `"#/$defs/nope" does not resolve`},
		{"ref outside the embedded schemas", `{"$ref": "https://other.test/y.json"}`, `"https://other.test/y.json" is not an embedded schema`},
		{"anchor ref", `{"$ref": "#top"}`, `only JSON pointer fragments`},
		{"ref cycle", `{"$ref": "#/$defs/a", "$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}}`, `reference cycle`},
		{"minContains without contains", `{"minContains": 1}`, `minContains or maxContains without contains`},
		{"nested $id", `{"$id": "https://example.test/x.v1.schema.json", "properties": {"a": {"$id": "https://example.test/a"}}}`, `only allowed at the root`},
		{"negative count", `{"minLength": -1}`, `-1 is not a non-negative integer`},
		{"fractional count", `{"minItems": 1.5}`, `1.5 is not a non-negative integer`},
		{"unknown type", `{"type": "int"}`, `unknown type int`},
		{"empty anyOf", `{"anyOf": []}`, `not a non-empty array`},
		{"duplicate required", `{"required": ["a", "a"]}`, `"a" is listed twice`},
		{"schema that is a string", `{"items": "string"}`, `a schema must be an object or a boolean, not string`},
		{"no $id", `{"$id": ""}`, `has no $id`},
		{"relative $id", `{"$id": "x.json"}`, `is not an absolute URL`},
		{"other draft", `{"$id": "https://example.test/x", "$schema": "http://json-schema.org/draft-07/schema#"}`, `is not https://json-schema.org/draft/2020-12/schema`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := schemaFS(map[string]string{"x.v1": tc.schema})
			if strings.Contains(tc.schema, `"$schema"`) {
				fsys["x.v1"+schemaSuffix] = &fstest.MapFile{Data: []byte(tc.schema)}
			}
			_, err := compileFS(fsys)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("compileFS(%s) = %v, want an error containing %q", tc.schema, err, tc.want)
			}
		})
	}
}

// TestRefs resolves local references (recursive ones too) and references
// between schema files by $id, absolute or relative.
func TestRefs(t *testing.T) {
	all := compileOrFatal(t, map[string]string{
		"tree.v1": `{"$ref": "#/$defs/node", "$defs": {"node": {
			"type": "object", "required": ["name"],
			"properties": {"name": {"$ref": "https://example.test/names.v1.schema.json#/$defs/name"},
				"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
				"alias": {"$ref": "names.v1.schema.json#/$defs/name"},
				"a~b/c": {"$ref": "#/$defs/odd~0key~1x"}}}, "odd~key/x": {"type": "boolean"}}}`,
		"names.v1": `{"$defs": {"name": {"type": "string", "pattern": "^[a-z]+$"}}}`,
	})
	tests := []struct {
		doc  string
		want []string
	}{
		{`{"name": "root", "kids": [{"name": "a", "kids": [{"name": "b"}]}], "alias": "x", "a~b/c": true}`, nil},
		{`{"name": "root", "kids": [{"name": "a", "kids": [{"name": "B"}]}]}`,
			[]string{`at "/kids/0/kids/0/name": "B" does not match pattern "^[a-z]+$"`}},
		{`{"name": "root", "kids": [{"kids": []}], "alias": 1, "a~b/c": 0}`, []string{
			`at "/kids/0": missing property "name"`,
			`at "/alias": got number, want string`,
			`at "/a~0b~1c": got number, want boolean`,
		}},
	}
	for _, tc := range tests {
		got := problemsOf(t, all, "tree.v1", tc.doc)
		if diff := cmp.Diff(tc.want, got, sortStrings); diff != "" {
			t.Errorf("%s: problems (-want +got):\n%s", tc.doc, diff)
		}
	}
}

var sortStrings = cmp.Transformer("sort", func(s []string) []string {
	s = append([]string(nil), s...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
})

// TestSemantics pins the JSON value rules: integers by value, lengths in
// code points, structural equality for const, enum and uniqueItems, exact
// decimal bounds, and a failed contains reported once, at the array.
func TestSemantics(t *testing.T) {
	all := compileOrFatal(t, map[string]string{"s.v1": `{"type": "object", "additionalProperties": false, "properties": {
		"int": {"type": "integer", "minimum": 1},
		"name": {"type": "string", "minLength": 2},
		"one": {"const": 1},
		"obj": {"const": {"a": [1, "x"]}},
		"pick": {"enum": [1, "1", null, [true]]},
		"set": {"type": "array", "uniqueItems": true},
		"half": {"type": "number", "minimum": 0.5, "maximum": 1e2},
		"has": {"type": "array", "contains": {"const": "x"}},
		"twice": {"type": "array", "contains": {"const": "x"}, "minContains": 2, "maxContains": 3},
		"never": false,
		"free": {"additionalProperties": true}}}`})
	long := func(dup string) string {
		var items []string
		for i := range 30 {
			items = append(items, `"s`+string(rune('a'+i))+`"`)
		}
		items = append(items, dup)
		return "[" + strings.Join(items, ",") + "]"
	}
	tests := []struct {
		doc  string
		want []string
	}{
		{`{"int": 88.0}`, nil},
		{`{"int": 1e2}`, nil},
		{`{"int": 88.5}`, []string{`at "/int": got number, want integer`}},
		{`{"int": 0.0}`, []string{`at "/int": minimum: got 0, want 1`}},
		{`{"name": "日本"}`, nil},
		{`{"name": "é"}`, []string{`at "/name": minLength: got 1, want 2`}},
		{`{"one": 1.0}`, nil},
		{`{"one": 10e-1}`, nil},
		{`{"one": "1"}`, []string{`at "/one": value must be 1`}},
		{`{"obj": {"a": [1.00, "x"]}}`, nil},
		{`{"obj": {"a": [1, "x", 2]}}`, []string{`at "/obj": value must be the object`}},
		{`{"pick": 1.0}`, nil},
		{`{"pick": [true]}`, nil},
		{`{"pick": true}`, []string{`at "/pick": value must be one of 1, "1", null, the array`}},
		{`{"set": [1, "1", [1], {"a": 1}, null, false]}`, nil},
		{`{"set": [1, 2, 1.0]}`, []string{`at "/set": items at 0 and 2 are equal`}},
		{`{"set": [{"a": [1]}, {"a": [1e0]}]}`, []string{`at "/set": items at 0 and 1 are equal`}},
		{`{"set": ` + long(`"sc"`) + `}`, []string{`at "/set": items at 2 and 30 are equal`}},
		{`{"set": ` + long(`"zz"`) + `}`, nil},
		{`{"half": 0.5}`, nil},
		{`{"half": 100}`, nil},
		{`{"half": 0.49999999999999999999}`, []string{`at "/half": minimum: got 0.49999999999999999999, want 0.5`}},
		{`{"half": 1e400}`, []string{`at "/half": maximum: got 1e400, want 100`}},
		{`{"half": -1e400}`, []string{`at "/half": minimum: got -1e400, want 0.5`}},
		{`{"has": ["a", "x"]}`, nil},
		{`{"has": ["a", "b", "c"]}`, []string{`at "/has": no item matches the contains schema (s.v1#/properties/has/contains)`}},
		{`{"twice": ["x", "a"]}`, []string{`at "/twice": 1 item (at 0) matches the contains schema (s.v1#/properties/twice/contains), want at least 2`}},
		{`{"twice": ["x", "x", "x", "x"]}`, []string{`at "/twice": 4 items (at 0, 1, 2, 3) match the contains schema (s.v1#/properties/twice/contains), want at most 3`}},
		{`{"never": 1}`, []string{`at "/never": no value is allowed here`}},
		{`{"free": {"anything": [1]}, "extra": 1, "more": 2}`, []string{
			`at "/extra": additional property not allowed`,
			`at "/more": additional property not allowed`,
		}},
	}
	for _, tc := range tests {
		got := problemsOf(t, all, "s.v1", tc.doc)
		if diff := cmp.Diff(tc.want, got, sortStrings); diff != "" {
			t.Errorf("%s: problems (-want +got):\n%s", tc.doc, diff)
		}
	}
}

// TestDateTime checks the date-time format: RFC 3339 section 5.6 with a
// real calendar date.
func TestDateTime(t *testing.T) {
	valid := []string{
		"2026-06-20T09:15:42Z",
		"2026-06-20t09:15:42z",
		"2024-02-29T00:00:00Z",
		"2000-02-29T00:00:00Z",
		"2026-06-20T09:15:42.123456789Z",
		"2026-06-20T09:15:42+05:30",
		"2026-06-20T09:15:42-00:00",
		"2016-12-31T23:59:60Z",
		"2016-12-31T18:59:60-05:00",
		"2017-01-01T00:59:60+01:00",
	}
	invalid := map[string]string{
		"2023-02-29T00:00:00Z":         "day out of range",
		"1900-02-29T00:00:00Z":         "day out of range",
		"2026-04-31T00:00:00Z":         "day out of range",
		"2026-06-00T00:00:00Z":         "day out of range",
		"2026-13-01T00:00:00Z":         "month out of range",
		"2026-00-01T00:00:00Z":         "month out of range",
		"2026-06-20T24:00:00Z":         "hour/min/sec out of range",
		"2026-06-20T09:60:00Z":         "hour/min/sec out of range",
		"2026-06-20T09:15:61Z":         "hour/min/sec out of range",
		"2026-06-20T+1:15:42Z":         "not hh:mm:ss",
		"2026-06-20T-0:15:42Z":         "not hh:mm:ss",
		"+026-06-20T09:15:42Z":         "not yyyy-mm-dd",
		"2026/06/20T09:15:42Z":         "not yyyy-mm-dd",
		"2026-06-20 09:15:42Z":         "11th character must be t or T",
		"2026-06-20T09:15:42":          "less than 20 characters long",
		"2026-06-20T09:15:42.Z":        "no digits in second fraction",
		"2026-06-20T09:15:42+5:30":     "offset is not Z or ±hh:mm",
		"2026-06-20T09:15:42+05:30:00": "offset is not Z or ±hh:mm",
		"2026-06-20T09:15:42+0530":     "offset is not Z or ±hh:mm",
		"2026-06-20T09:15:42+24:00":    "offset hour/min out of range",
		"2026-06-20T09:15:42+-1:00":    "offset hour/min out of range",
		"2026-06-20T09:15:60Z":         "invalid leap second",
		"2016-12-31T23:59:60+01:00":    "invalid leap second",
	}
	for _, s := range valid {
		if err := checkDateTime(s); err != nil {
			t.Errorf("checkDateTime(%q) = %v, want nil", s, err)
		}
	}
	for s, want := range invalid {
		if err := checkDateTime(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("checkDateTime(%q) = %v, want an error containing %q", s, err, want)
		}
	}
}

func TestDecimal(t *testing.T) {
	tests := []struct {
		in, str string
		integer bool
	}{
		{"0", "0", true},
		{"-0", "0", true},
		{"0.000", "0", true},
		{"88", "88", true},
		{"88.0", "88", true},
		{"8.8e1", "88", true},
		{"880e-1", "88", true},
		{"88.5", "88.5", false},
		{"-0.0015", "-0.0015", false},
		{"1e400", "1e400", true},
		{"1E-400", "1e-400", false},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e29", true},
	}
	for _, tc := range tests {
		d, ok := parseDecimal(tc.in)
		if !ok || d.String() != tc.str || d.isInteger() != tc.integer {
			t.Errorf("parseDecimal(%q) = %v (%v), integer %v; want %s, integer %v", tc.in, d, ok, d.isInteger(), tc.str, tc.integer)
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1x", "0x10"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("parseDecimal(%q) accepted", bad)
		}
	}
	order := []string{"-1e400", "-100", "-1.5", "-1", "-0.001", "0", "1e-400", "0.49999999999999999999", "0.5", "1", "1.0000001", "10", "1e400"}
	for i, a := range order {
		for j, b := range order {
			da, _ := parseDecimal(a)
			db, _ := parseDecimal(b)
			if got := da.cmp(db); got != compareInts(i, j) {
				t.Errorf("cmp(%s, %s) = %d, want %d", a, b, got, compareInts(i, j))
			}
		}
	}
}
