package schemas

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// typeSet is a set of JSON Schema type names.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeObject
	typeArray
	typeNumber
	typeString
	typeInteger
)

var typeNames = []struct {
	t    typeSet
	name string
}{
	{typeNull, "null"}, {typeBoolean, "boolean"}, {typeObject, "object"}, {typeArray, "array"},
	{typeNumber, "number"}, {typeString, "string"}, {typeInteger, "integer"},
}

// parseTypes reads a "type" argument: one type name or an array of them.
func parseTypes(v any) (typeSet, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var set typeSet
	for _, e := range list {
		name, _ := e.(string)
		found := false
		for _, tn := range typeNames {
			if tn.name == name {
				set |= tn.t
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown type %v", e)
		}
	}
	if set == 0 {
		return 0, fmt.Errorf("no type")
	}
	return set, nil
}

// String lists the types joined by "or", in the order of the draft.
func (s typeSet) String() string {
	var names []string
	for _, tn := range typeNames {
		if s&tn.t != 0 {
			names = append(names, tn.name)
		}
	}
	return strings.Join(names, " or ")
}

// has reports whether v, a decoded JSON value, is of one of the types. A
// number with an integral value (88 or 88.0) is an integer.
func (s typeSet) has(v any) bool {
	switch v := v.(type) {
	case nil:
		return s&typeNull != 0
	case bool:
		return s&typeBoolean != 0
	case map[string]any:
		return s&typeObject != 0
	case []any:
		return s&typeArray != 0
	case string:
		return s&typeString != 0
	case json.Number:
		if s&typeNumber != 0 {
			return true
		}
		d, ok := parseDecimal(string(v))
		return s&typeInteger != 0 && ok && d.isInteger()
	}
	return false
}

// typeName names the JSON type of a decoded value.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number, float64:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// equal reports whether two decoded JSON values are the same JSON value:
// objects and arrays compare member by member, numbers by value (1 equals
// 1.0 and 1e0).
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == b {
			return true
		}
		da, okA := parseDecimal(string(a))
		db, okB := parseDecimal(string(b))
		return okA && okB && da == db
	default:
		// nil, bool, string: comparable.
		return a == b
	}
}

// display renders a value for a message: strings quoted (and cut short),
// numbers, booleans and null as JSON, objects and arrays as their type.
func display(v any) string {
	switch v := v.(type) {
	case string:
		const max = 80
		if utf8.RuneCountInString(v) > max {
			i := 0
			for n := 0; n < max; n++ {
				_, size := utf8.DecodeRuneInString(v[i:])
				i += size
			}
			return fmt.Sprintf("%q…", v[:i])
		}
		return fmt.Sprintf("%q", v)
	case nil:
		return "null"
	case map[string]any, []any:
		return "the " + typeName(v)
	}
	return fmt.Sprint(v)
}

// decimal is an exact JSON number: its value is 0.digits × 10^exp, with
// digits free of leading and trailing zeros (empty for zero, which is
// never negative). Two decimals are equal exactly when their values are,
// whatever the spelling (88, 88.0, 8.8e1), and a huge exponent costs
// nothing.
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// expLimit bounds the exponents decimal keeps; beyond it every value is
// out of any range a schema can state, and the bound keeps exp from
// overflowing.
const expLimit = 1 << 30

// parseDecimal parses a JSON number (RFC 8259 grammar).
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[start:i]
	if intPart == "" || (len(intPart) > 1 && intPart[0] == '0') {
		return decimal{}, false
	}
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = s[start:i]
		if frac == "" {
			return decimal{}, false
		}
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && isDigit(s[i]) {
			if exp < expLimit {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return decimal{}, false
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != len(s) {
		return decimal{}, false
	}
	digits := intPart
	if frac != "" {
		digits += frac
	}
	point := len(intPart)
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
		point--
	}
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return decimal{}, true
	}
	d.digits = digits
	d.exp = max(-expLimit, min(expLimit, point+exp))
	return d, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isInteger reports whether d has no fractional part.
func (d decimal) isInteger() bool { return d.exp >= len(d.digits) }

// cmp compares d with e: -1, 0 or +1.
func (d decimal) cmp(e decimal) int {
	sign := func(x decimal) int {
		switch {
		case x.digits == "":
			return 0
		case x.neg:
			return -1
		}
		return 1
	}
	sd, se := sign(d), sign(e)
	if sd != se || sd == 0 {
		return compareInts(sd, se)
	}
	// Same sign, both non-zero: compare magnitudes, then flip for negatives.
	m := compareInts(d.exp, e.exp)
	if m == 0 {
		m = strings.Compare(d.digits, e.digits)
	}
	return m * sd
}

func compareInts(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// String renders d in plain or exponent notation.
func (d decimal) String() string {
	if d.digits == "" {
		return "0"
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	switch {
	case d.exp >= len(d.digits) && d.exp <= 21:
		return sign + d.digits + strings.Repeat("0", d.exp-len(d.digits))
	case d.exp > 0 && d.exp < len(d.digits):
		return sign + d.digits[:d.exp] + "." + d.digits[d.exp:]
	case d.exp <= 0 && d.exp > -6:
		return sign + "0." + strings.Repeat("0", -d.exp) + d.digits
	}
	mant := d.digits[:1]
	if len(d.digits) > 1 {
		mant += "." + d.digits[1:]
	}
	return fmt.Sprintf("%s%se%d", sign, mant, d.exp-1)
}
