package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// draft2020 is the only dialect the compiler knows.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// node is one compiled (sub)schema: the keywords of the subset our
// embedded schemas use, with their arguments parsed and their regexps
// compiled. A node is never modified after compileFS returns, so it is
// safe for concurrent use.
type node struct {
	loc   string // "<schema name>#<json pointer>", for compile errors
	never bool   // the false schema

	types    typeSet // 0: any type
	hasConst bool
	constVal any
	enum     []any // nil: no enum
	format   *format

	ref *node

	minProperties int // -1: none
	required      []string
	properties    map[string]*node
	additional    *node // nil: any additional property is allowed
	propertyNames *node

	minItems, maxItems       int // -1: none
	uniqueItems              bool
	items                    *node
	contains                 *node
	minContains, maxContains int // -1: none

	minLength int // -1: none
	pattern   *regexp.Regexp

	minimum, maximum *decimal

	allOf, anyOf, oneOf []*node
}

// resource is one embedded schema file.
type resource struct {
	name string // "metadata.v1"
	id   string // its $id, without a fragment
	doc  any
}

// compiler turns resources into nodes. Nodes are memoised by resource and
// JSON pointer, so a $ref to a definition shares its node and recursive
// references terminate.
type compiler struct {
	byID  map[string]*resource
	nodes map[string]*node // by id + "#" + pointer
}

// compileFS compiles every *.schema.json file of fsys. A keyword outside
// the supported subset, a malformed keyword argument, a $ref that does not
// resolve and a cycle of $ref (or allOf, anyOf, oneOf) that never reaches
// a child value are all compile errors: a schema must never silently
// validate less than it says.
func compileFS(fsys fs.FS) (map[string]*node, error) {
	names, err := fs.Glob(fsys, "*"+schemaSuffix)
	if err != nil {
		return nil, err
	}
	c := &compiler{byID: map[string]*resource{}, nodes: map[string]*node{}}
	var roots []*resource
	for _, file := range names {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var doc any
		if err := d.Decode(&doc); err != nil {
			return nil, fmt.Errorf("parse schema %s: %w", file, err)
		}
		name := strings.TrimSuffix(file, schemaSuffix)
		obj, _ := doc.(map[string]any)
		id, _ := obj["$id"].(string)
		if id == "" {
			return nil, fmt.Errorf("schema %s has no $id", file)
		}
		if u, err := url.Parse(id); err != nil || !u.IsAbs() || u.Fragment != "" {
			return nil, fmt.Errorf("schema %s: $id %q is not an absolute URL without a fragment", name, id)
		}
		if obj["$schema"] != draft2020 {
			return nil, fmt.Errorf("schema %s: $schema %v is not %s", name, obj["$schema"], draft2020)
		}
		if other, dup := c.byID[id]; dup {
			return nil, fmt.Errorf("schemas %s and %s have the same $id %q", other.name, name, id)
		}
		r := &resource{name: name, id: id, doc: doc}
		c.byID[id] = r
		roots = append(roots, r)
	}
	out := make(map[string]*node, len(roots))
	for _, r := range roots {
		n, err := c.compile(r, "", r.doc)
		if err != nil {
			return nil, fmt.Errorf("compile schema %s: %w", r.name, err)
		}
		out[r.name] = n
	}
	if err := c.checkCycles(); err != nil {
		return nil, err
	}
	return out, nil
}

// compile returns the node of v, the value at ptr in r.
func (c *compiler) compile(r *resource, ptr string, v any) (*node, error) {
	key := r.id + "#" + ptr
	if n, ok := c.nodes[key]; ok {
		return n, nil
	}
	n := &node{
		loc:           r.name + "#" + ptr,
		minProperties: -1,
		minItems:      -1,
		maxItems:      -1,
		minContains:   -1,
		maxContains:   -1,
		minLength:     -1,
	}
	c.nodes[key] = n
	switch v := v.(type) {
	case bool:
		n.never = !v
		return n, nil
	case map[string]any:
		if err := c.keywords(n, r, ptr, v); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, fmt.Errorf("at %q: a schema must be an object or a boolean, not %s", ptr, typeName(v))
}

// keywords fills n from the keywords of obj, in sorted order so that the
// first error reported is always the same.
func (c *compiler) keywords(n *node, r *resource, ptr string, obj map[string]any) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := c.keyword(n, r, ptr, k, obj[k]); err != nil {
			return fmt.Errorf("at %q: %s: %w", ptr, k, err)
		}
	}
	if (n.minContains >= 0 || n.maxContains >= 0) && n.contains == nil {
		return fmt.Errorf("at %q: minContains or maxContains without contains", ptr)
	}
	return nil
}

// keyword compiles one keyword k with argument v into n.
func (c *compiler) keyword(n *node, r *resource, ptr, k string, v any) error {
	sub := func(v any, tokens ...string) (*node, error) {
		p := ptr
		for _, t := range tokens {
			p += "/" + escapeToken(t)
		}
		return c.compile(r, p, v)
	}
	var err error
	switch k {
	case "$schema", "$id":
		if ptr != "" {
			return fmt.Errorf("only allowed at the root of a schema file")
		}
	case "title", "description":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("not a string")
		}
	case "examples":
		// Annotations (§9 of the meta-data vocabulary): the
		// documentation shows them; validation ignores them.
		if _, ok := v.([]any); !ok {
			return fmt.Errorf("not an array")
		}
	case "default":
	case "$defs", "properties":
		defs, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("not an object")
		}
		if k == "properties" {
			n.properties = make(map[string]*node, len(defs))
		}
		for name, d := range defs {
			s, err := sub(d, k, name)
			if err != nil {
				return err
			}
			if k == "properties" {
				n.properties[name] = s
			}
		}
	case "$ref":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("not a string")
		}
		n.ref, err = c.resolve(r, s)
	case "type":
		n.types, err = parseTypes(v)
	case "const":
		n.hasConst, n.constVal = true, v
	case "enum":
		vals, ok := v.([]any)
		if !ok || len(vals) == 0 {
			return fmt.Errorf("not a non-empty array")
		}
		n.enum = vals
	case "format":
		n.format = formats[fmt.Sprint(v)]
		if n.format == nil {
			return fmt.Errorf("unsupported format %v (supported: date-time)", v)
		}
	case "required":
		n.required, err = parseStrings(v)
	case "additionalProperties":
		n.additional, err = sub(v, k)
	case "propertyNames":
		n.propertyNames, err = sub(v, k)
	case "items":
		n.items, err = sub(v, k)
	case "contains":
		n.contains, err = sub(v, k)
	case "minProperties":
		n.minProperties, err = parseCount(v)
	case "minItems":
		n.minItems, err = parseCount(v)
	case "maxItems":
		n.maxItems, err = parseCount(v)
	case "minContains":
		n.minContains, err = parseCount(v)
	case "maxContains":
		n.maxContains, err = parseCount(v)
	case "minLength":
		n.minLength, err = parseCount(v)
	case "uniqueItems":
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("not a boolean")
		}
		n.uniqueItems = b
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("not a string")
		}
		n.pattern, err = regexp.Compile(s)
	case "minimum", "maximum":
		num, ok := v.(json.Number)
		d, valid := parseDecimal(string(num))
		if !ok || !valid {
			return fmt.Errorf("not a number")
		}
		if k == "minimum" {
			n.minimum = &d
		} else {
			n.maximum = &d
		}
	case "allOf", "anyOf", "oneOf":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("not a non-empty array")
		}
		nodes := make([]*node, len(list))
		for i, s := range list {
			if nodes[i], err = sub(s, k, strconv.Itoa(i)); err != nil {
				return err
			}
		}
		switch k {
		case "allOf":
			n.allOf = nodes
		case "anyOf":
			n.anyOf = nodes
		default:
			n.oneOf = nodes
		}
	default:
		return fmt.Errorf("unsupported keyword")
	}
	return err
}

// resolve compiles the target of ref, a URI reference resolved against the
// $id of r: a local "#/json/pointer" or another embedded schema's $id with
// an optional pointer fragment.
func (c *compiler) resolve(r *resource, ref string) (*node, error) {
	base, _ := url.Parse(r.id)
	u, err := url.Parse(ref)
	if err != nil {
		return nil, err
	}
	u = base.ResolveReference(u)
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	target := c.byID[u.String()]
	if target == nil {
		return nil, fmt.Errorf("%q is not an embedded schema", u.String())
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("%q: only JSON pointer fragments are supported", ref)
	}
	v := target.doc
	ptr := ""
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch cur := v.(type) {
			case map[string]any:
				v = cur[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(cur) {
					v = nil
				} else {
					v = cur[i]
				}
			default:
				v = nil
			}
			if v == nil {
				return nil, fmt.Errorf("%q does not resolve", ref)
			}
			ptr += "/" + escapeToken(tok)
		}
	}
	return c.compile(target, ptr, v)
}

// checkCycles rejects a cycle of in-place applicators ($ref, allOf,
// anyOf, oneOf): validating it would never reach a child value and never
// end.
func (c *compiler) checkCycles() error {
	const (
		unseen = iota
		active
		done
	)
	state := map[*node]int{}
	var visit func(n *node) error
	visit = func(n *node) error {
		switch state[n] {
		case active:
			return fmt.Errorf("schema %s: reference cycle", n.loc)
		case done:
			return nil
		}
		state[n] = active
		next := slices.Concat(n.allOf, n.anyOf, n.oneOf)
		if n.ref != nil {
			next = append(next, n.ref)
		}
		for _, m := range next {
			if err := visit(m); err != nil {
				return err
			}
		}
		state[n] = done
		return nil
	}
	for _, n := range c.nodes {
		if err := visit(n); err != nil {
			return err
		}
	}
	return nil
}

// parseStrings reads a "required" argument: an array of distinct strings.
func parseStrings(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("not an array")
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("item %d is not a string", i)
		}
		if slices.Contains(out[:i], s) {
			return nil, fmt.Errorf("%q is listed twice", s)
		}
		out[i] = s
	}
	return out, nil
}

// parseCount reads a non-negative integer keyword argument.
func parseCount(v any) (int, error) {
	num, _ := v.(json.Number)
	n, err := strconv.Atoi(string(num))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%v is not a non-negative integer", v)
	}
	return n, nil
}

// escapeToken escapes one JSON pointer reference token (RFC 6901).
func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}
