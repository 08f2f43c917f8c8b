package schemas

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// problem is one violation: the JSON pointer of the value at fault and
// what is wrong with it.
type problem struct {
	ptr, msg string
}

// String renders p as a SchemaError line.
func (p problem) String() string { return fmt.Sprintf("at %q: %s", p.ptr, p.msg) }

// token is one step of the path from the document root to the value
// under check: an object member (key) or an array item (index >= 0).
type token struct {
	key   string
	index int
}

// checker validates a decoded document against compiled nodes. It reports
// the violations that cause a failure, as the library it replaces did: a
// value that fails several keywords gets one problem per keyword, a
// failed anyOf or oneOf reports what each alternative found, a failed
// contains reports itself (its non-matching items say nothing about what
// is missing).
type checker struct {
	// quick stops at the first violation and records nothing: the mode of
	// the sub-checks (contains, anyOf, oneOf) that only need a verdict.
	quick    bool
	failed   bool
	path     []token
	problems []problem
}

// pointer renders the current path as a JSON pointer (RFC 6901).
func (c *checker) pointer() string {
	var b strings.Builder
	for _, t := range c.path {
		b.WriteByte('/')
		if t.index >= 0 {
			b.WriteString(strconv.Itoa(t.index))
		} else {
			b.WriteString(escapeToken(t.key))
		}
	}
	return b.String()
}

// fail records a violation of the value under check.
func (c *checker) fail(format string, args ...any) {
	c.failed = true
	if !c.quick {
		c.problems = append(c.problems, problem{c.pointer(), fmt.Sprintf(format, args...)})
	}
}

// stop reports whether a quick check has its verdict.
func (c *checker) stop() bool { return c.quick && c.failed }

// matches reports whether v is valid against n, recording nothing.
func (c *checker) matches(n *node, v any) bool {
	quick, failed := c.quick, c.failed
	c.quick, c.failed = true, false
	c.check(n, v)
	ok := !c.failed
	c.quick, c.failed = quick, failed
	return ok
}

// check validates v, the value at c.path, against n. A wrong type, a
// missed const or enum and a bad format end the check of that value:
// nothing else about it is worth saying.
func (c *checker) check(n *node, v any) {
	if n.never {
		c.fail("no value is allowed here")
		return
	}
	if n.types != 0 && !n.types.has(v) {
		c.fail("got %s, want %s", typeName(v), n.types)
		return
	}
	if n.hasConst && !equal(v, n.constVal) {
		if c.quick {
			// A contains or an alternative that missed: skip the message.
			c.failed = true
			return
		}
		c.fail("value must be %s", display(n.constVal))
		return
	}
	if n.enum != nil && !c.inEnum(n.enum, v) {
		return
	}
	if s, ok := v.(string); ok && n.format != nil {
		if err := n.format.check(s); err != nil {
			c.fail("%s is not a valid %s: %v", display(s), n.format.name, err)
			return
		}
	}
	if n.ref != nil {
		c.check(n.ref, v)
		if c.stop() {
			return
		}
	}
	switch v := v.(type) {
	case map[string]any:
		c.object(n, v)
	case []any:
		c.array(n, v)
	case string:
		c.string(n, v)
	case json.Number:
		c.number(n, v)
	}
	if c.stop() {
		return
	}
	for _, s := range n.allOf {
		c.check(s, v)
		if c.stop() {
			return
		}
	}
	if n.anyOf != nil {
		c.anyOf(n.anyOf, v)
	}
	if n.oneOf != nil && !c.stop() {
		c.oneOf(n.oneOf, v)
	}
}

// inEnum reports whether v is one of enum, and records the violation if
// not.
func (c *checker) inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if equal(v, e) {
			return true
		}
	}
	if c.quick {
		c.failed = true
		return false
	}
	if len(enum) == 1 {
		c.fail("value must be %s", display(enum[0]))
		return false
	}
	want := make([]string, len(enum))
	for i, e := range enum {
		want[i] = display(e)
	}
	c.fail("value must be one of %s", strings.Join(want, ", "))
	return false
}

func (c *checker) anyOf(alts []*node, v any) {
	for _, s := range alts {
		if c.matches(s, v) {
			return
		}
	}
	c.noneMatched(alts, v)
}

func (c *checker) oneOf(alts []*node, v any) {
	first := -1
	for i, s := range alts {
		if !c.matches(s, v) {
			continue
		}
		if first >= 0 {
			c.fail("value matches both oneOf alternatives %d and %d, want exactly one", first, i)
			return
		}
		first = i
	}
	if first < 0 {
		c.noneMatched(alts, v)
	}
}

// noneMatched records that v matched none of the alternatives of an
// anyOf or oneOf, with what each of them found.
func (c *checker) noneMatched(alts []*node, v any) {
	if c.quick {
		c.failed = true
		return
	}
	for _, s := range alts {
		c.check(s, v)
	}
}

func (c *checker) object(n *node, obj map[string]any) {
	if n.minProperties >= 0 && len(obj) < n.minProperties {
		c.fail("minProperties: got %d, want %d", len(obj), n.minProperties)
	}
	if n.required != nil {
		var missing []string
		for _, p := range n.required {
			if _, ok := obj[p]; !ok {
				missing = append(missing, strconv.Quote(p))
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			c.fail("missing property %s", missing[0])
		default:
			c.fail("missing properties %s", strings.Join(missing, ", "))
		}
	}
	if c.stop() {
		return
	}
	for k, v := range obj {
		sub, ok := n.properties[k]
		if !ok {
			sub = n.additional
		}
		if sub == nil {
			continue
		}
		c.path = append(c.path, token{key: k, index: -1})
		if !ok && sub.never {
			c.fail("additional property not allowed")
		} else {
			c.check(sub, v)
		}
		c.path = c.path[:len(c.path)-1]
		if c.stop() {
			return
		}
	}
	if n.propertyNames != nil {
		for k := range obj {
			if c.matches(n.propertyNames, k) {
				continue
			}
			if c.quick {
				c.failed = true
				return
			}
			// Check the name as a document of its own and report what
			// is wrong with it at the object.
			var sub checker
			sub.check(n.propertyNames, k)
			for _, p := range sub.problems {
				c.fail("invalid property name %s: %s", display(k), p.msg)
			}
		}
	}
}

func (c *checker) array(n *node, arr []any) {
	if n.minItems >= 0 && len(arr) < n.minItems {
		c.fail("minItems: got %d, want %d", len(arr), n.minItems)
	}
	if n.maxItems >= 0 && len(arr) > n.maxItems {
		c.fail("maxItems: got %d, want %d", len(arr), n.maxItems)
	}
	if n.uniqueItems {
		if i, j, dup := duplicate(arr); dup {
			c.fail("items at %d and %d are equal", i, j)
		}
	}
	if c.stop() {
		return
	}
	if n.items != nil {
		for i, v := range arr {
			c.path = append(c.path, token{index: i})
			c.check(n.items, v)
			c.path = c.path[:len(c.path)-1]
			if c.stop() {
				return
			}
		}
	}
	if n.contains == nil {
		return
	}
	var matched []int
	for i, v := range arr {
		c.path = append(c.path, token{index: i})
		if c.matches(n.contains, v) {
			matched = append(matched, i)
		}
		c.path = c.path[:len(c.path)-1]
	}
	switch {
	case n.minContains < 0 && len(matched) == 0:
		c.fail("no item matches the contains schema (%s)", n.contains.loc)
	case n.minContains >= 0 && len(matched) < n.minContains:
		c.fail("%s the contains schema (%s), want at least %d", matchedItems(matched), n.contains.loc, n.minContains)
	}
	if n.maxContains >= 0 && len(matched) > n.maxContains {
		c.fail("%s the contains schema (%s), want at most %d", matchedItems(matched), n.contains.loc, n.maxContains)
	}
}

// matchedItems says which items matched a contains schema.
func matchedItems(idx []int) string {
	switch len(idx) {
	case 0:
		return "no item matches"
	case 1:
		return fmt.Sprintf("1 item (at %d) matches", idx[0])
	}
	s := make([]string, len(idx))
	for i, j := range idx {
		s[i] = strconv.Itoa(j)
	}
	return fmt.Sprintf("%d items (at %s) match", len(idx), strings.Join(s, ", "))
}

// duplicate finds a pair of equal items, i < j. Long arrays of strings,
// numbers, booleans and nulls (file lists can hold thousands) are checked
// through a map, objects and arrays pairwise.
func duplicate(arr []any) (i, j int, found bool) {
	const pairwise = 16
	if len(arr) <= pairwise {
		return duplicatePairwise(arr, nil)
	}
	seen := make(map[any]int, len(arr))
	var others []int
	for j, v := range arr {
		var key any
		switch v := v.(type) {
		case map[string]any, []any:
			others = append(others, j)
			continue
		case json.Number:
			d, _ := parseDecimal(string(v))
			key = d
		default:
			key = v
		}
		if i, dup := seen[key]; dup {
			return i, j, true
		}
		seen[key] = j
	}
	return duplicatePairwise(arr, others)
}

// duplicatePairwise compares the items of arr at idx (all of them when idx
// is nil) pairwise.
func duplicatePairwise(arr []any, idx []int) (i, j int, found bool) {
	at := func(k int) int {
		if idx == nil {
			return k
		}
		return idx[k]
	}
	n := len(arr)
	if idx != nil {
		n = len(idx)
	}
	for b := 1; b < n; b++ {
		for a := range b {
			if equal(arr[at(a)], arr[at(b)]) {
				return at(a), at(b), true
			}
		}
	}
	return 0, 0, false
}

func (c *checker) string(n *node, s string) {
	if n.minLength >= 0 {
		if l := utf8.RuneCountInString(s); l < n.minLength {
			c.fail("minLength: got %d, want %d", l, n.minLength)
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		c.fail("%s does not match pattern %q", display(s), n.pattern.String())
	}
}

func (c *checker) number(n *node, num json.Number) {
	if n.minimum == nil && n.maximum == nil {
		return
	}
	d, ok := parseDecimal(string(num))
	if !ok {
		c.fail("%s is not a JSON number", string(num))
		return
	}
	if n.minimum != nil && d.cmp(*n.minimum) < 0 {
		c.fail("minimum: got %s, want %s", d, *n.minimum)
	}
	if n.maximum != nil && d.cmp(*n.maximum) > 0 {
		c.fail("maximum: got %s, want %s", d, *n.maximum)
	}
}
