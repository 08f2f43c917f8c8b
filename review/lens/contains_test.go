package lens

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
)

// TestContainsMatchesBytesContains checks the trigram pre-filter never
// answers differently from a plain search.
func TestContainsMatchesBytesContains(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab(){}.|&\"' \nXYZ"
	for range 200 {
		var b strings.Builder
		for range r.IntN(300) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		content := b.String()
		f := &review.File{Content: []byte(content)}
		for range 50 {
			var n strings.Builder
			for range 1 + r.IntN(5) {
				n.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
			needle := n.String()
			if got, want := Contains(f, needle), strings.Contains(content, needle); got != want {
				t.Fatalf("Contains(%q, %q) = %v, want %v", content, needle, got, want)
			}
		}
	}
	if !Contains(&review.File{}, "") {
		t.Error("every content contains the empty string")
	}
}
