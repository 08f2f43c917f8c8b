package symbol

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// Ref is one use of a name.
type Ref struct {
	// Path is repo-relative; Line and Col (a byte column) are 1-based.
	Path      string
	Line, Col int
	// Text is the line of the use, trimmed.
	Text string
	// InTest reports a test file ([review.IsTestPath]).
	InTest bool
	// Call reports a name followed by "(".
	Call bool
}

// maxRefFile is the largest file References reads: the review's default
// size cap, since a bigger file is almost always generated and its
// matches are noise.
const maxRefFile = review.DefaultSizeCap

// binarySniff is how many leading bytes are checked for a NUL, the mark
// of a binary file, as git does.
const binarySniff = 8000

// References finds the whole-word uses of name in the files at paths
// (repo-relative, slash-separated), in the order of paths and then of
// position. A file's content comes from overlay when present there, else
// from disk under root. A qualified name ("Store.Get") is looked up by its
// last element: References matches words, it does not resolve them.
//
// In the languages whose syntax is known (Go, JavaScript and TypeScript,
// Java, C, C++, C#, Rust, Python, Ruby, shell), uses inside comments and
// string literals are skipped; in any other file every whole word counts.
// The definition site itself (def's Path, Line and NameCol) is left out
// when def is non-nil. It stops after maxRefs results (maxRefs <= 0 means
// no limit) and skips files bigger than 1 MiB, binary files and missing
// files. The error joins the failures to read other files; the results
// found are returned with it.
//
// Files are read by a few goroutines at once and filtered with
// bytes.Contains before they are tokenized, so most files cost a read and
// a scan.
func References(root string, paths []string, overlay map[string][]byte, name string, def *Symbol, maxRefs int) ([]Ref, error) {
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		name = name[i+1:]
	}
	if !isIdent(name) || len(paths) == 0 {
		return nil, nil
	}
	// Workers take files in path order, so every file before the last
	// one taken is searched: stopping at maxRefs keeps the first maxRefs
	// uses in order.
	type result struct {
		refs []Ref
		err  error
	}
	results := make([]result, len(paths))
	var next, found atomic.Int64
	var wg sync.WaitGroup
	for range min(refWorkers, (len(paths)+63)/64) {
		wg.Go(func() {
			var buf []byte
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) || maxRefs > 0 && found.Load() >= int64(maxRefs) {
					return
				}
				var r result
				r.refs, buf, r.err = refsInFile(root, paths[i], overlay, name, def, buf)
				results[i] = r
				found.Add(int64(len(r.refs)))
			}
		})
	}
	wg.Wait()
	var out []Ref
	var errs []error
	for _, r := range results {
		if r.err != nil {
			errs = append(errs, r.err)
		}
		out = append(out, r.refs...)
		if maxRefs > 0 && len(out) >= maxRefs {
			out = out[:maxRefs]
			break
		}
	}
	return out, errors.Join(errs...)
}

// refWorkers is how many files References reads at once. Reading is
// mostly system calls (open, fstat, read, close: a few microseconds each
// on a warm cache), so a handful of workers keep the cores busy, and more
// than eight gain nothing on a laptop.
const refWorkers = 8

// refsInFile returns the uses of name in the file at path, reading it into
// buf when it is not in overlay; it returns buf for reuse.
func refsInFile(root, path string, overlay map[string][]byte, name string, def *Symbol, buf []byte) ([]Ref, []byte, error) {
	content, ok := overlay[path]
	if !ok {
		var err error
		buf, err = readSmall(filepath.Join(root, filepath.FromSlash(path)), buf[:0])
		switch {
		case errors.Is(err, errTooBig), errors.Is(err, fs.ErrNotExist):
			return nil, buf, nil
		case err != nil:
			return nil, buf, fmt.Errorf("read %s: %w", path, err)
		}
		content = buf
	}
	if len(content) > maxRefFile || !bytes.Contains(content, []byte(name)) ||
		bytes.IndexByte(content[:min(len(content), binarySniff)], 0) >= 0 {
		return nil, buf, nil
	}
	return appendRefs(nil, path, content, name, def), buf, nil
}

var errTooBig = errors.New("file too big")

// readSmall reads the file at path into buf, or fails with errTooBig when
// it holds more than maxRefFile bytes.
func readSmall(path string, buf []byte) ([]byte, error) {
	f, err := regular.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		if fi.Size() > maxRefFile {
			return buf, errTooBig
		}
		if fi.IsDir() {
			return buf, fmt.Errorf("%s is a directory", path)
		}
		if need := int(fi.Size()) + 1; cap(buf) < need {
			buf = make([]byte, 0, need)
		}
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) > maxRefFile { // the file grew while being read
			return buf, errTooBig
		}
	}
}

// isIdent reports whether s is an identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !identRune(r) || i == 0 && r >= '0' && r <= '9' {
			return false
		}
	}
	return true
}

// appendRefs appends the uses of name in one file.
func appendRefs(out []Ref, path string, content []byte, name string, def *Symbol) []Ref {
	inTest := review.IsTestPath(path)
	lang := review.DetectLanguage(path, content)
	add := func(starts []int32, off int, call bool) {
		line := syntax.OffsetLine(starts, off)
		col := off - int(starts[line-1]) + 1
		if def != nil && def.Path == path && def.Line == line && def.NameCol == col {
			return
		}
		text := strings.TrimSpace(string(lineText(content, starts, line)))
		out = append(out, Ref{Path: path, Line: line, Col: col, Text: text, InTest: inTest, Call: call})
	}
	if syn := lang.Info().Tokens; syn.Known {
		lx := lex(content, syn)
		for i, t := range lx.Toks {
			if t.Kind == syntax.TokIdent && lx.Is(i, name) {
				add(lx.LineStart, int(t.Off), lx.Is(i+1, "("))
			}
		}
		return out
	}
	// An unknown syntax: every whole word counts.
	starts := syntax.LineStarts(content)
	for off := 0; ; {
		k := bytes.Index(content[off:], []byte(name))
		if k < 0 {
			return out
		}
		at := off + k
		off = at + len(name)
		before, _ := utf8.DecodeLastRune(content[:at])
		after, _ := utf8.DecodeRune(content[off:])
		if at > 0 && identRune(before) || off < len(content) && identRune(after) {
			continue
		}
		rest := bytes.TrimLeft(content[off:], " \t")
		add(starts, at, len(rest) > 0 && rest[0] == '(')
	}
}
