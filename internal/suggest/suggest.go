// Package suggest finds what a user probably meant by a name that is not
// one of the known ones: a flag, a command, a configuration key.
package suggest

import "strings"

// Closest returns the candidate closest to what the user typed, when one
// is close enough to be a typo (at most two edits, or a prefix of three
// letters or more), as gh and cobra suggest commands; "" otherwise.
func Closest(typed string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		d := editDistance(strings.ToLower(typed), c)
		if len(typed) >= 3 && strings.HasPrefix(c, typed) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist >= len(typed) {
		return "" // two letters away from a two-letter word is no suggestion
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
