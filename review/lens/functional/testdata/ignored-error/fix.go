package store

// The quick fix of a dropped error follows the call's results and the
// enclosing function's: it returns the error wrapped with the zero values
// of the other results, gives a function the change adds an error result,
// and imports fmt, which this file does not.

import (
	"io"
	"os"
	"time"
)

type Config struct{ Name string }

type Celsius float64

type Box[T any] struct{ v T }

type Command struct{}

func (c *Command) UsageString() string { return "usage" }

// WriteUsageFile is the case of the issue: WriteString returns two values
// and the method returns nothing.
func (c *Command) WriteUsageFile(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	f.WriteString(c.UsageString()) // want "f.WriteString is dropped"
}

func Count(path string, data []byte) (int, error) {
	os.WriteFile(path, data, 0o644) // want "os.WriteFile is dropped"
	return len(data), nil
}

func Load(path string) (*Config, Config, []byte, map[string]int, error) {
	os.WriteFile(path, nil, 0o644) // want "os.WriteFile is dropped"
	return nil, Config{}, nil, nil, nil
}

func Times(path string) (time.Duration, time.Time, io.Reader, Celsius, Box[int], error) {
	os.Chmod(path, 0o600) // want "os.Chmod is dropped"
	return 0, time.Time{}, nil, 0, Box[int]{}, nil
}

func Named(path string) (n int, ok bool, err error) {
	os.Rename(path, path+".old") // want "os.Rename is dropped"
	return 1, true, nil
}

func Read(path string) ([]byte, error) {
	data, _ := os.ReadFile(path) // want "os.ReadFile discarded with `_`"
	return data, nil
}

func Append(path, s string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, _ = f.WriteString(s) // want "f.WriteString is discarded"
	return f.Close()
}

func Generic[T any](path string) (T, error) {
	var zero T
	os.Remove(path) // want "os.Remove is dropped"
	return zero, nil
}

func Later(paths []string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range paths {
			os.Remove(p) // want "os.Remove is dropped"
		}
	}()
	<-done
}

func Short(path string) {
	os.MkdirAll(path, 0o755) // want "os.MkdirAll is dropped"
}

func Caller(c *Command) {
	c.WriteUsageFile("usage.txt")
	Short("cache")
}
