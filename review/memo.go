package review

import (
	"sync"
	"sync/atomic"
)

// A Memo names one kind of value derived from a [File] (or a [ChangeSet])
// and kept on it: computed once, by whoever asks first, and shared by
// every rule, the risk assessment and the orientation. T is the value's
// type, so no caller asserts one. Declare each as a package variable:
//
//	var goOf review.Memo[*GoFile]
//
//	func Go(f *review.File) *GoFile {
//		return goOf.Of(f, func() *GoFile { return parse(f) })
//	}
//
// The zero value is ready to use. An incremental refresh builds new Files
// only for the paths it re-diffed, so a value never outlives its content.
type Memo[T any] struct {
	_ byte // a distinct address per Memo: the address is the key
}

// Of returns m's value for f, computing it with compute the first time. It
// is safe for concurrent use; concurrent first callers wait for one
// computation.
func (m *Memo[T]) Of(f *File, compute func() T) T {
	return memoOf(f.memo.entry(m), compute)
}

// OfSet is Of for a change set (the indexes of cross-file rules). A nil
// change set keeps nothing: compute runs every time.
func (m *Memo[T]) OfSet(cs *ChangeSet, compute func() T) T {
	if cs == nil {
		return compute()
	}
	return memoOf(cs.memo.entry(m), compute)
}

// MemoBy is a [Memo] with one value per key of type K for each file (a
// base version's content, a set of rule ids).
type MemoBy[K comparable, T any] struct {
	_ byte
}

type memoByKey[K comparable] struct {
	m any // the *MemoBy
	k K
}

// Of returns m's value for f and k, computing it with compute the first
// time.
func (m *MemoBy[K, T]) Of(f *File, k K, compute func() T) T {
	return memoOf(f.memo.entry(memoByKey[K]{m, k}), compute)
}

// memoOf returns e's value, computing it with compute the first time. A
// value already computed costs no allocation: rules ask for the shared
// parses on every line.
func memoOf[T any](e *memoEntry, compute func() T) T {
	if !e.done.Load() {
		e.once.Do(func() {
			e.v = compute()
			e.done.Store(true)
		})
	}
	t, _ := e.v.(T) // a nil interface value is T's zero value
	return t
}

// memoTable holds the memoised values of a File or ChangeSet.
type memoTable struct {
	mu sync.Mutex
	m  map[any]*memoEntry
}

type memoEntry struct {
	once sync.Once
	done atomic.Bool // v is set
	v    any
}

// entry returns the entry of key, adding it the first time.
func (t *memoTable) entry(key any) *memoEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[any]*memoEntry{}
	}
	e := t.m[key]
	if e == nil {
		e = &memoEntry{}
		t.m[key] = e
	}
	return e
}
