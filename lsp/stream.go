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
// stream reads on, so one bad message never takes the server down. A
// message too large (maxFrame) or too deeply nested (maxDepth) to decode
// safely is refused before decoding: a request gets an InvalidRequest
// error under its id, a reply to the server's own call fails that call,
// and anything else is logged and dropped.
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
// editor sends (the review skips files over 1 MiB by default), and stops a
// header from making the server allocate gigabytes. A larger body is read
// through and discarded, not buffered.
const maxFrame = 64 << 20

// maxDepth bounds the nesting of a message's arrays and objects. The
// JSON-RPC library's decoder (segmentio/encoding) recurses once per level
// with no limit: two million levels overflowed the stack and killed the
// server, one million took 1.3 GB. LSP messages nest a few dozen levels,
// settings included; 10,000 is encoding/json's own limit.
const maxDepth = 10000

// maxEnvelope is how much of a refused message is searched for its id
// (and method): both come before the params in every client we know, and
// 64 KiB is past any header-like prefix.
const maxEnvelope = 64 << 10

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
			var big *oversizeError
			switch {
			case errors.As(err, &big):
				if msg := s.refuse(ctx, big.head, err); msg != nil {
					return msg, total, nil
				}
				continue
			case errors.As(err, &bad):
				s.reject(ctx, err)
				continue
			}
			return nil, total, err
		}
		if tooDeep(body, maxDepth) {
			// Never decoded: the decoder would recurse once per level.
			if msg := s.refuse(ctx, body, fmt.Errorf("message nested deeper than %d levels", maxDepth)); msg != nil {
				return msg, total, nil
			}
			continue
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

// oversizeError is a frame whose body, longer than maxFrame, was read
// through and discarded; head is its beginning, to find its id in.
type oversizeError struct {
	length int64
	head   []byte
}

func (e *oversizeError) Error() string {
	return fmt.Sprintf("message of %d bytes over the limit of %d", e.length, maxFrame)
}

// readFrame reads one header block and its body. A header block without a
// valid Content-Length is a bad frame: the stream replies and reads on.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64 = 0, -1
	var bad string
	over := false
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
			if err != nil || n <= 0 {
				bad = fmt.Sprintf("invalid Content-Length %q", value)
				continue
			}
			length, over = n, n > maxFrame
		}
	}
	if bad == "" && length < 0 {
		bad = "missing Content-Length header"
	}
	if bad != "" {
		return nil, total, &badFrameError{bad}
	}
	if over {
		// Read the body through, keeping its beginning only: the frame
		// after it is the next message.
		head := make([]byte, maxEnvelope)
		n, err := io.ReadFull(s.in, head)
		total += int64(n)
		if err == nil {
			var rest int64
			rest, err = io.CopyN(io.Discard, s.in, length-int64(n))
			total += rest
		}
		if err != nil {
			return nil, total, fmt.Errorf("read message body: %w", err)
		}
		return nil, total, &oversizeError{length: length, head: head}
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

// refuse turns away a message that must not be decoded (err says why),
// from what its beginning head holds: a request gets an InvalidRequest
// error under its id; a response, to a call of the server's, becomes an
// error response for that call, which refuse returns for the connection
// to deliver; a notification, or a message whose id cannot be found, is
// logged and dropped.
func (s *stream) refuse(ctx context.Context, head []byte, err error) jsonrpc2.Message {
	if s.onBadFrame != nil {
		s.onBadFrame(err)
	}
	raw, method := envelope(head)
	var id jsonrpc2.ID
	// An id is a string or a number; null (or anything else) is none.
	if len(raw) == 0 || raw[0] != '"' && raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') || id.UnmarshalJSON(raw) != nil {
		return nil
	}
	resp, rerr := jsonrpc2.NewResponse(id, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "invalid request: "+err.Error()))
	if rerr != nil {
		return nil
	}
	if !method {
		return resp
	}
	_, _ = s.Write(ctx, resp)
	return nil
}

// tooDeep reports whether the JSON text b nests arrays and objects more
// than limit deep. It scans bytes, skipping strings, and validates
// nothing: the decoder does that once the depth is known to be safe.
func tooDeep(b []byte, limit int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
		case '[', '{':
			if depth++; depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// stringEnd returns the index of the quote that closes the string opened
// at b[i], or len(b) when it is not closed.
func stringEnd(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return len(b)
		}
		i += 1 + j
		// Escaped when an odd number of backslashes precede it; the runs
		// are disjoint, so the counting stays linear.
		k := i - 1
		for b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i
		}
	}
}

// envelope finds, without decoding, the raw id of the JSON-RPC message
// that b holds or begins, and whether it names a method: a scan of the
// top-level object's members that steps over nested values by counting
// brackets. A member cut off by the end of b ends the scan.
func envelope(b []byte) (id []byte, method bool) {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return nil, false
	}
	for i++; ; i++ {
		i = skipSpace(b, i)
		if i == len(b) || b[i] != '"' {
			return id, method
		}
		end := stringEnd(b, i)
		if end == len(b) {
			return id, method
		}
		key := string(b[i+1 : end])
		i = skipSpace(b, end+1)
		if i == len(b) || b[i] != ':' {
			return id, method
		}
		start := skipSpace(b, i+1)
		i = valueEnd(b, start)
		if i > len(b) {
			return id, method
		}
		switch key {
		case "id":
			id = b[start:i]
		case "method":
			method = true
		}
		i = skipSpace(b, i)
		if i == len(b) || b[i] != ',' {
			return id, method
		}
	}
}

// valueEnd returns the index just past the JSON value that starts at
// b[i], or len(b)+1 when b ends before it does.
func valueEnd(b []byte, i int) int {
	if i == len(b) {
		return len(b) + 1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i) + 1
	case '[', '{':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i)
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b) + 1
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return len(b) + 1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
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
