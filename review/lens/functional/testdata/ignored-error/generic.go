package store

// Calls no list names, known from their signatures: the standard
// library's index and this package's declarations.

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

type client struct {
	conn net.Conn
	hc   *http.Client
}

func (c *client) ping() error { return nil }

func Generic(c *client, path string, cmd *exec.Cmd, w io.Writer) {
	os.Chmod(path, 0o600)                       // want "error returned by os.Chmod is dropped"
	os.Stdout.Truncate(0)                       // want "os.Stdout.Truncate is dropped"
	cmd.Start()                                 // want "cmd.Start is dropped"
	c.ping()                                    // want "c.ping is dropped"
	req, _ := http.NewRequest("GET", path, nil) // want "http.NewRequest discarded with `_`"
	http.DefaultClient.Do(req)                  // want "http.DefaultClient.Do is dropped"
	f, _ := os.Open(path)                       // want "os.Open discarded with `_`"
	data, _ := io.ReadAll(f)                    // want "io.ReadAll is assigned to `_`, and data is used"
	n, _ := strconv.Atoi(strings.TrimSpace(path))
	resp, _ := c.hc.Get(path) // want "c.hc.Get discarded"
	_, _ = data, resp

	// Near misses: printers and writers whose errors are conventionally
	// unchecked, Close, constant arguments, results without an error.
	fmt.Fprintf(w, "%d\n", n)
	fmt.Println(n)
	var buf bytes.Buffer
	buf.WriteString("x")
	h := sha256.New()
	h.Write(data)
	w.Write(data)
	f.Close()
	resp.Body.Close()
	port, _ := strconv.Atoi("8080")
	var m sync.Map
	v, _ := m.Load("k")
	s, _ := lookup("k")
	_, _, _ = port, v, s
	if err := c.ping(); err != nil {
		return
	}
}

func deadline() (t struct{}) { return }

func lookup(k string) (string, bool) { return k, true }

func Moot(c *client, cmd *exec.Cmd, pw *io.PipeWriter, w http.ResponseWriter, r io.Reader) {
	// Near misses: errors that are moot when dropped, and a parse whose
	// zero value is the default.
	io.Copy(w, r)
	c.conn.SetReadDeadline(deadline())
	cmd.Process.Kill()
	pw.CloseWithError(nil)
	json.NewEncoder(w).Encode(c)
	c.ping() //nolint:errcheck
	port, _ := strconv.Atoi(os.Getenv("PORT"))
	_ = port
}

func Tested(path string) {
	// Near miss: the value kept from the blank is tested at once.
	if f, _ := os.Open(path); f != nil {
		f.Close()
	}
}
