package provision

// Real shapes: a conversion error dropped in provisioning, a prompt error,
// and the (value, nil) form; near misses after.

import (
	"errors"
	"io"
	"io/fs"
	"log"
	"os"
)

func Provision(certs []string) error {
	for _, c := range certs {
		der, err := convert(c)
		if err != nil {
			return nil // want "returns a nil error right after `if err != nil`"
		}
		_ = der
	}
	return nil
}

func prompt() (string, error) {
	v, err := ask()
	if err != nil {
		return "", nil // want "returns a nil error"
	}
	return v, nil
}

func Near(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		// Nothing to migrate when the file is missing.
		return nil
	}
	if err := use(data); err != nil {
		log.Printf("use: %v", err)
		return nil
	}
	if _, err := read(); errors.Is(err, fs.ErrNotExist) || err == io.EOF {
		return nil
	}
	if err := use(nil); err != nil {
		log.Print("skipping")
		return nil
	}
	return walk(func(p string) error {
		if _, err := read(); err != nil {
			return nil
		}
		return nil
	})
}

// Migrations are function literals in a table, not callbacks.
var migrations = []func(driver string) error{
	func(driver string) error {
		if _, err := read(); err != nil {
			return nil // want "returns a nil error"
		}
		return nil
	},
}

// count does not return an error: returning 0 on failure is its contract.
func count() int {
	n, err := read()
	if err != nil {
		return 0
	}
	return n
}

func convert(s string) ([]byte, error) { return nil, nil }
func ask() (string, error)             { return "", nil }
func use([]byte) error                 { return nil }
func read() (int, error)               { return 0, nil }
func walk(func(string) error) error    { return nil }
