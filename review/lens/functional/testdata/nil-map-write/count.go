package count

import (
	"encoding/json"
	"strings"
)

func Words(text string) map[string]int {
	var counts map[string]int
	for _, w := range strings.Fields(text) {
		counts[w]++ // want "counts is declared as a nil map\[string\]int on line 9"
	}
	return counts
}

func Index(names []string) map[string]bool {
	seen := map[string]bool(nil)
	for _, n := range names {
		seen[n] = true // want "seen is declared as a nil"
	}
	return seen
}

func Group(pairs [][2]string) map[string][]string {
	var groups map[string][]string
	for _, p := range pairs {
		groups[p[0]] = append(groups[p[0]], p[1]) // want "groups is declared"
	}
	return groups
}

// Near misses.

func Made(text string) map[string]int {
	var counts map[string]int
	counts = make(map[string]int)
	for _, w := range strings.Fields(text) {
		counts[w]++
	}
	return counts
}

func Lazy(names []string) map[string]bool {
	var seen map[string]bool
	for _, n := range names {
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[n] = true
	}
	return seen
}

func Decoded(b []byte) map[string]string {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil
	}
	m["source"] = "json"
	return m
}

func ReadOnly(key string) int {
	var counts map[string]int
	return counts[key]
}

func Literal() map[string]int {
	m := map[string]int{}
	m["a"] = 1
	return m
}
