package files

import (
	"database/sql"
	"os"
	"sync"
)

func ReadAll(paths []string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close() // want "runs only when ReadAll returns"
	}
	return nil
}

func Poll(mu *sync.Mutex, db *sql.DB) {
	for {
		mu.Lock()
		defer mu.Unlock() // want "which deadlocks"
		rows, err := db.Query("SELECT 1")
		if err != nil {
			continue
		}
		defer rows.Close() // want "defer rows.Close\(\)"
	}
}

func Each(items []string, fn func(string)) {
	for i := 0; i < len(items); i++ {
		switch items[i] {
		case "":
			defer fn(items[i]) // want "in a loop"
			break
		}
	}
}

// Near misses.

func PerIteration(paths []string) error {
	for _, p := range paths {
		if err := func() error {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return nil
		}(); err != nil {
			return err
		}
	}
	return nil
}

func First(paths []string) (*os.File, error) {
	for _, p := range paths {
		if p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		defer f.Close()
		return f, nil
	}
	return nil, nil
}

func Once(mu *sync.Mutex, work []func()) {
	for _, w := range work {
		mu.Lock()
		defer mu.Unlock()
		w()
		break
	}
	defer mu.Unlock()
}

func Goroutines(paths []string) {
	for _, p := range paths {
		go func() {
			f, _ := os.Open(p)
			defer f.Close()
		}()
	}
}

type node struct {
	mu     sync.Mutex
	parent *node
}

func LockChain(n *node) {
	for p := n.parent; p != nil; p = p.parent {
		p.mu.Lock()
		defer p.mu.Unlock() // want "runs only when LockChain returns, not at the end of each iteration"
	}
}
