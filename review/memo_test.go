package review

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

var (
	memoA, memoB Memo[int]
	memoErr      Memo[error]
	memoBy       MemoBy[string, int]
)

// TestMemo checks the typed memos: one computation per file however many
// ask at once, distinct memos and keys kept apart, change sets memoised
// like files and a nil change set not at all.
func TestMemo(t *testing.T) {
	f := &File{Path: "a.go"}
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if got := memoA.Of(f, func() int { calls.Add(1); return 7 }); got != 7 {
				t.Errorf("memoA = %d, want 7", got)
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("16 concurrent callers computed %d times, want once", n)
	}
	if got := memoB.Of(f, func() int { return 8 }); got != 8 {
		t.Errorf("memoB = %d: another memo of the same type shares memoA's value", got)
	}
	if got := memoA.Of(&File{}, func() int { return 9 }); got != 9 {
		t.Errorf("memoA on another file = %d, want 9", got)
	}
	if got := memoErr.Of(f, func() error { return nil }); got != nil {
		t.Errorf("a nil interface value came back as %v", got)
	}
	sentinel := errors.New("x")
	if got := memoErr.Of(&File{}, func() error { return sentinel }); got != sentinel {
		t.Errorf("memoErr = %v", got)
	}
	if a, b := memoBy.Of(f, "x", func() int { return 1 }), memoBy.Of(f, "y", func() int { return 2 }); a != 1 || b != 2 {
		t.Errorf("MemoBy keys x, y = %d, %d; want 1, 2", a, b)
	}
	if got := memoBy.Of(f, "x", func() int { return 3 }); got != 1 {
		t.Errorf("MemoBy key x again = %d, want the first value 1", got)
	}

	cs := &ChangeSet{}
	calls.Store(0)
	for range 3 {
		memoA.OfSet(cs, func() int { calls.Add(1); return 1 })
	}
	for range 3 {
		memoA.OfSet(nil, func() int { calls.Add(1); return 1 })
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("computed %d times; want once for the change set and three times without one", n)
	}
}
