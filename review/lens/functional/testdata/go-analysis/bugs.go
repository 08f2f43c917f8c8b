package bugs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

func Report(name string, n int) {
	fmt.Printf("%d items for %s\n", name, n) // want "printf: fmt.Printf format %d has arg name of wrong type string"
}

func Snapshot(c *Counter) Counter {
	return *c // want "copylocks: return copies lock value" "the original is no longer protected"
}

func Open(err error) bool {
	var pe fs.PathError
	return errors.As(err, pe) // want "errorsas: second argument to errors.As must be a non-nil pointer"
}

func Fetch(url string) (int, error) {
	resp, err := http.Get(url)
	defer resp.Body.Close() // want "httpresponse: using resp before checking for errors"
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

func Decode(b []byte) map[string]int {
	var m map[string]int
	_ = json.Unmarshal(b, m) // want "unmarshal: call of Unmarshal passes non-pointer as second argument"
	return m
}

func Deref(c *Counter) int {
	if c == nil {
		return c.n // want "nilness: nil dereference in field selection"
	}
	return c.n
}

// Near misses.

func Fine(name string, n int) {
	fmt.Printf("%s: %d items\n", name, n)
}
