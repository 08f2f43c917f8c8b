// Package store keeps key-value records in memory, with expiry.
package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrNotFound is returned when a key is absent.
var ErrNotFound = errors.New("store: not found")

// Limits of a store.
const (
	// MaxKeyLen is the longest key accepted.
	MaxKeyLen  = 256
	defaultTTL = 5 * time.Minute // applies when Options.TTL is zero
)

// Kind classifies records.
type Kind int

const (
	KindPlain Kind = iota
	KindSecret
)

// Options configures a [Store].
type Options struct {
	TTL    time.Duration
	Clock  func() time.Time `json:"-"`
	Logger interface{ Printf(string, ...any) }
}

type entry struct {
	value   string
	kind    Kind
	expires time.Time
}

// Store is a concurrency-safe map with expiry.
type Store struct {
	sync.Mutex
	opts         Options
	entries      map[string]*entry // guarded by Mutex
	hits, misses int
}

// Getter reads values.
type Getter interface {
	// Get returns the value of key.
	Get(ctx context.Context, key string) (string, error)
	fmt.Stringer
}

// Cache is a generic read-through cache.
type Cache[K comparable, V any] struct {
	load func(K) (V, error)
	m    map[K]V
}

// New returns an empty store.
func New(opts Options) *Store {
	if opts.TTL == 0 {
		opts.TTL = defaultTTL
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	return &Store{opts: opts, entries: make(map[string]*entry)}
}

// Get returns the value stored under key, or ErrNotFound.
func (s *Store) Get(ctx context.Context, key string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	s.Lock()
	defer s.Unlock()
	e, ok := s.entries[key]
	if !ok || s.expired(e) {
		s.misses++
		return "", fmt.Errorf("get %q: %w", key, ErrNotFound)
	}
	s.hits++
	return e.value, nil
}

// Put stores value under key.
func (s *Store) Put(key, value string, kind Kind) error {
	if len(key) > MaxKeyLen {
		return fmt.Errorf("put: key of %d bytes exceeds %d", len(key), MaxKeyLen)
	}
	s.Lock()
	defer s.Unlock()
	s.entries[key] = &entry{value: value, kind: kind, expires: s.opts.Clock().Add(s.opts.TTL)}
	return nil
}

func (s *Store) expired(e *entry) bool {
	return !e.expires.IsZero() && s.opts.Clock().After(e.expires)
}

func (s *Store) String() string { return fmt.Sprintf("store(%d entries)", len(s.entries)) }

// Get loads the value of key once and caches it.
func (c *Cache[K, V]) Get(key K) (V, error) {
	if v, ok := c.m[key]; ok {
		return v, nil
	}
	v, err := c.load(key)
	if err != nil {
		var zero V
		return zero, err
	}
	c.m[key] = v
	return v, nil
}

// Map applies f to every element of xs.
func Map[T, U any](
	xs []T,
	f func(T) U, // the mapping
) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

var defaultNames = map[Kind]string{
	KindPlain:  "plain",
	KindSecret: "secret",
}

var _ Getter = (*Store)(nil)
