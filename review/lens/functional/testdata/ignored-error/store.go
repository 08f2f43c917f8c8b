package store

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"
)

type Store struct {
	db   *sql.DB
	path string
}

func (s *Store) save(data []byte) error {
	return os.WriteFile(s.path, data, 0o644)
}

func (s *Store) count() int { return 0 }

func flush(w *bufio.Writer) error { return w.Flush() }

func Positives(ctx context.Context, s *Store, data []byte) {
	os.WriteFile("out.json", data, 0o644) // want "error returned by os.WriteFile is dropped: the file may be missing"
	_ = os.Rename("a.tmp", "a")           // want "os.Rename is discarded with `_ =`"
	os.MkdirAll("cache", 0o755)           // want "os.MkdirAll is dropped"
	os.Remove("stale.lock")               // want "os.Remove is dropped: the path stays behind"
	filepath.Walk(".", nil)               // want "filepath.Walk"
	var v map[string]any
	json.Unmarshal(data, &v)             // want "json.Unmarshal is dropped: on malformed input"
	_ = json.Unmarshal(data, &v)         // want "json.Unmarshal is discarded"
	json.NewDecoder(os.Stdin).Decode(&v) // want "json.NewDecoder\(...\).Decode"
	s.save(data)                         // want "s.save is dropped"
	flush(bufio.NewWriter(os.Stdout))    // want "flush is dropped"

	f, err := os.Create("report.txt")
	if err != nil {
		return
	}
	f.Write(data) // want "f.Write is dropped"
	f.Close()     // want "f.Close is dropped: data still in the kernel's buffers"

	tmp, err := os.CreateTemp("", "report")
	if err != nil {
		return
	}
	tmp.Close() // want "tmp.Close is dropped"
	return

	w := bufio.NewWriter(os.Stdout)
	w.Flush() // want "w.Flush is dropped: the buffered tail"

	zw := gzip.NewWriter(os.Stdout)
	zw.Close() // want "zw.Close is dropped: the output is truncated"

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	tx.Commit() // want "tx.Commit is dropped: the transaction may have been rolled back"

	var name string
	s.db.QueryRowContext(ctx, "SELECT name FROM users WHERE id = $1", 1).Scan(&name) // want "s.db.QueryRowContext\(...\).Scan is dropped"

	cmd := exec.CommandContext(ctx, "git", "gc")
	cmd.Run() // want "cmd.Run is dropped: a command that fails"

	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return nil })
	g.Wait() // want "g.Wait is dropped: errors returned by the group"

	http.ListenAndServe(":8080", nil) // want "http.ListenAndServe is dropped"
}

func NearMisses(ctx context.Context, s *Store, data []byte) error {
	// Conventionally ignored or never-failing calls.
	fmt.Println("saving")
	var buf bytes.Buffer
	buf.WriteString("x")
	var sb strings.Builder
	sb.WriteString("y")
	h := crc32.NewIEEE()
	h.Write(data)

	// Checked errors.
	if err := os.WriteFile("out.json", data, 0o644); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	err := os.MkdirAll("cache", 0o755)
	if err != nil {
		return err
	}

	// Deliberate discards of cleanup calls.
	_ = os.Remove("stale.lock")

	// Deferred calls are a separate question.
	f, err := os.Create("report.txt")
	if err != nil {
		return err
	}
	defer f.Close()
	defer func() {
		f.Close()
	}()

	// Closing on a path that already returns an error is cleanup.
	tmp, err := os.CreateTemp("", "x")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write: %w", err)
	}

	// A file opened read-only: Close cannot lose data.
	r, err := os.Open("in.txt")
	if err != nil {
		return err
	}
	r.Close()
	ro, err := os.OpenFile("in.txt", os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	ro.Close()

	// Rollback is conventionally ignored; go statements drop results by design.
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	tx.Rollback()
	go http.ListenAndServe(":8080", nil)

	// Same-file functions that do not return an error, and locals that
	// shadow them.
	s.count()
	flush := func() {}
	flush()

	// The receiver is not the method's receiver, so save is unknown here.
	var other interface{ save([]byte) error }
	other.save(data)
	return nil
}

func Acknowledged(dir string, env string) error {
	os.Setenv("STORE_MODE", "fast") // a literal key cannot fail
	os.Setenv(env, "1")             // want "os.Setenv is dropped"
	os.Chmod(dir, 0o700)            // best effort: the directory may be read-only
	// Ignore the error: the lock is recreated on the next run.
	os.Remove(dir + "/lock")
	if _, err := os.Stat(dir); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("stat: %w", err)
	}
	return nil
}
