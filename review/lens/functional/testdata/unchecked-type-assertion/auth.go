package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
)

type ctxKey struct{}

type User struct{ Name string }

type NotFound struct{ ID string }

func (e *NotFound) Error() string { return e.ID }

func CurrentUser(ctx context.Context) string {
	u := ctx.Value(ctxKey{}).(*User) // want "assertion to \*User panics when ctx.Value\(ctxKey\{\}\) \(a context value\) holds another type"
	return u.Name
}

func Decode(b []byte) (float64, error) {
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		return 0, err
	}
	return v["n"].(float64), nil // want "assertion to float64 panics"
}

func Missing(err error) string {
	return err.(*NotFound).ID // want "assertion to \*NotFound"
}

func Recover() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = r.(error) // want "assertion to error panics"
		}
	}()
	return nil
}

// Near misses.

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var current atomic.Value

func Checked(ctx context.Context, x any, err error) string {
	u, ok := ctx.Value(ctxKey{}).(*User)
	if !ok {
		return ""
	}
	var n, isInt = x.(int)
	_, _ = n, isInt
	if _, ok := x.(string); ok {
		return x.(string)
	}
	switch x.(type) {
	case *User:
		return x.(*User).Name
	}
	switch v := x.(type) {
	case int:
		_ = v
	}
	buf := pool.Get().(*bytes.Buffer)
	defer pool.Put(buf)
	cfg := current.Load().(map[string]string)
	_ = cfg
	var nf *NotFound
	if errors.As(err, &nf) {
		return nf.ID
	}
	return u.Name
}

type Node interface{ Op() int }

type Call struct{ Node }

func Walk(n Node, v any) {
	switch n.Op() {
	case 1:
		call := n.(*Call) // the Op says which type n holds
		_ = call
	}
	n2 := n
	n2 = n2.(*Call) // n is the code's own value
	if _, ok := v.(string); !ok {
		return
	}
	s := v.(string)
	_ = s
}

func Shadow(n Node) {
	n = n.(*Call)
	{
		n := n.(*Call)
		_ = n
	}
}

func Parse(v any, cache interface{ Get(string) any }) (string, int) {
	s := v.(string)           // want "an any parameter"
	hits := cache.Get("hits") // a lookup by key
	return s, hits.(int) + 1  // want "a lookup by key"
}

// GetVar returns a value stored in the request's context.
func GetVar(ctx context.Context, key string) any { return ctx.Value(key) }

func clientIP(r *http.Request) string {
	return GetVar(r.Context(), "client_ip").(string) // want "a context value from GetVar"
}

func stored(key string) any { return nil }

func own() string {
	return stored("k").(string) // a package function without a context: the code's own values
}
