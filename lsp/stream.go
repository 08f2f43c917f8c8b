package lsp

import (
	"bufio"
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
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			return nil, total, err // EOF or a broken pipe: the stream is over
		}
		line = strings.TrimSpace(line)
		// After a bad frame the body of that frame may run into the next
		// header: resynchronise on the next Content-Length.
		if i := strings.Index(strings.ToLower(line), "content-length:"); i > 0 {
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
	body := make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, total, fmt.Errorf("read message body: %w", err)
	}
	return body, total, nil
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
