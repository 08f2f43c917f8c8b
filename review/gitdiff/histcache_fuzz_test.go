package gitdiff

import (
	"crypto/sha256"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
)

// FuzzHistoryCache: no cache file, however corrupt, panics the parser or
// changes what History answers; a file that parses writes back the same
// entries. Inputs are tried as they are and with a valid digest appended,
// so the fuzzer reaches the entry parser behind the digest.
func FuzzHistoryCache(f *testing.F) {
	g := genRepo(f, 8, 12)
	queries := g.queries()[:4]
	walk := uncached(f, g.dir)
	var want []*review.History
	for _, q := range queries {
		want = append(want, walk(q, 0))
	}
	r := open(f, g.dir, Options{})
	if _, err := r.History(f.Context(), queries[0], 0); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(cachePath(g.dir))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)-sha256.Size])
	f.Add(good[:len(good)/2])
	f.Add([]byte(histCacheMagic + "\x01"))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, data []byte) {
		checkHistCacheRoundTrip(t, data)
		sum := sha256.Sum256(data)
		checkHistCacheRoundTrip(t, append(data[:len(data):len(data)], sum[:]...))

		if err := os.WriteFile(cachePath(g.dir), data, 0o644); err != nil {
			t.Fatal(err)
		}
		r := open(t, g.dir, Options{})
		for i, q := range queries {
			got, err := r.History(t.Context(), q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want[i], got); diff != "" {
				t.Fatalf("History(%q) with cache file %q (-walk +cached):\n%s", q, data, diff)
			}
		}
	})
}

// checkHistCacheRoundTrip decodes data and, when it parses, checks that
// its entries encode to a file that decodes to the same entries.
func checkHistCacheRoundTrip(t *testing.T, data []byte) {
	t.Helper()
	c, err := decodeHistCache(data)
	if err != nil {
		return
	}
	again, err := decodeHistCache(c.encode(len(c.commits)))
	if err != nil {
		t.Fatalf("decode(encode(decode(%q))): %v", data, err)
	}
	if diff := cmp.Diff(c, again, cmp.AllowUnexported(histCache{}, histCommit{}, touchEntry{})); diff != "" {
		t.Fatalf("round trip of %q (-first +again):\n%s", data, diff)
	}
}
