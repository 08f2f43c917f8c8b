package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// stream frames JSON-RPC messages with LSP's Content-Length headers. Unlike
// jsonrpc2.NewStream it survives a malformed message: a frame whose body is
// not a JSON-RPC message gets a parse-error response (id null) and the
// stream reads on, so one bad message never takes the server down.
type stream struct {
	in  *bufio.Reader
	out io.Writer
	c   io.Closer

	mu sync.Mutex // guards out: replies and notifications come from many goroutines

	// onBadFrame is told about each malformed frame (logging).
	onBadFrame func(error)
	// redact, when set, rewrites each outgoing message before it is framed.
	redact func([]byte) []byte
}

func newStream(rwc io.ReadWriteCloser, onBadFrame func(error)) *stream {
	return &stream{in: bufio.NewReader(rwc), out: rwc, c: rwc, onBadFrame: onBadFrame}
}

var _ jsonrpc2.Stream = (*stream)(nil)

// maxFrame bounds a message body: 64 MiB is far above any document an
// editor sends, and stops a corrupt header from allocating gigabytes.
const maxFrame = 64 << 20

// maxHeaderLine bounds one header line: LSP knows two short headers, so
// 64 KiB is generous, and a client that never sends a newline cannot make
// the server buffer without end.
const maxHeaderLine = 64 << 10

// Read implements [jsonrpc2.Stream].
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		body, n, err := s.readFrame()
		total += n
		if err != nil {
			var bad *badFrameError
			if errors.As(err, &bad) {
				s.reject(ctx, err)
				continue
			}
			return nil, total, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			s.reject(ctx, fmt.Errorf("decode message: %w", err))
			continue
		}
		return msg, total, nil
	}
}

// badFrameError is a malformed frame the stream can skip.
type badFrameError struct{ msg string }

func (e *badFrameError) Error() string { return e.msg }

// readFrame reads one header block and its body. A header block without a
// valid Content-Length is a bad frame: the stream replies and reads on.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64 = 0, -1
	var bad string
	for {
		raw, n, err := s.readLine()
		total += n
		if err != nil {
			return nil, total, err // EOF or a broken pipe: the stream is over
		}
		if raw == nil {
			bad = fmt.Sprintf("header line longer than %d bytes", maxHeaderLine)
			continue
		}
		line := strings.TrimSpace(string(raw))
		// After a bad frame the body of that frame may run into the next
		// header: resynchronise on the next Content-Length. The search
		// folds ASCII only, so its offset is one in line (a Unicode
		// lowering changes the length of invalid UTF-8).
		if i := indexFoldASCII(line, "content-length:"); i > 0 {
			line = line[i:]
		}
		if line == "" {
			if total <= 2 {
				continue // a stray blank line between frames
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("invalid header line %q", line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 || n > maxFrame {
				bad = fmt.Sprintf("invalid Content-Length %q", value)
				continue
			}
			length = n
		}
	}
	if bad == "" && length < 0 {
		bad = "missing Content-Length header"
	}
	if bad != "" {
		return nil, total, &badFrameError{bad}
	}
	// The body grows as it arrives: a header alone must not cost the
	// memory it announces.
	var body bytes.Buffer
	body.Grow(int(min(length, 64<<10)))
	n, err := io.CopyN(&body, s.in, length)
	total += n
	if err != nil {
		return nil, total, fmt.Errorf("read message body: %w", err)
	}
	return body.Bytes(), total, nil
}

// readLine reads one header line with its newline, and the bytes it
// consumed. A line longer than maxHeaderLine is consumed whole but comes
// back nil. Only a read error ends it early.
func (s *stream) readLine() ([]byte, int64, error) {
	var line []byte
	var total int64
	for {
		chunk, err := s.in.ReadSlice('\n')
		total += int64(len(chunk))
		if total <= maxHeaderLine {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return nil, total, err
		}
		if total > maxHeaderLine {
			return nil, total, nil
		}
		return line, total, nil
	}
}

// indexFoldASCII is strings.Index of sub (lowercase ASCII) in s, matching
// ASCII letters of either case and any other byte exactly.
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// reject answers a malformed frame with a JSON-RPC parse error.
func (s *stream) reject(ctx context.Context, err error) {
	if s.onBadFrame != nil {
		s.onBadFrame(err)
	}
	resp, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": jsonrpc2.ParseError, "message": "parse error: " + err.Error()},
	})
	_, _ = s.write(resp)
}

// Write implements [jsonrpc2.Stream].
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshal message: %w", err)
	}
	return s.write(data)
}

func (s *stream) write(data []byte) (int64, error) {
	if s.redact != nil {
		data = s.redact(data)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n", len(data))
	total := int64(n)
	if err == nil {
		n, err = s.out.Write(data)
		total += int64(n)
	}
	return total, err
}

// Close implements [jsonrpc2.Stream].
func (s *stream) Close() error { return s.c.Close() }
