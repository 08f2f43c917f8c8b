package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// fakeConn is a stream's connection over fixed input; what the stream
// writes back (its parse-error replies) collects in out.
type fakeConn struct {
	io.Reader
	out bytes.Buffer
}

func (c *fakeConn) Write(p []byte) (int, error) { return c.out.Write(p) }
func (c *fakeConn) Close() error                { return nil }

// readAll reads messages from input until the stream ends and returns
// them with the number of malformed frames the stream rejected.
func readAll(t testing.TB, input []byte) ([]jsonrpc2.Message, int) {
	t.Helper()
	bad := 0
	s := newStream(&fakeConn{Reader: bytes.NewReader(input)}, func(error) { bad++ })
	var msgs []jsonrpc2.Message
	for {
		msg, _, err := s.Read(context.Background())
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("Read: %v, want the end of the input", err)
			}
			return msgs, bad
		}
		msgs = append(msgs, msg)
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

const validCall = `{"jsonrpc":"2.0","id":7,"method":"shutdown"}`

// TestStreamBadHeaders checks header blocks the stream must reject and
// read past: the message after each still decodes.
func TestStreamBadHeaders(t *testing.T) {
	for name, bad := range map[string]string{
		// ToLower turns each invalid byte into a 3-byte U+FFFD, so an
		// offset found in the lowered line overshot the original one.
		"invalid utf-8 before the header name": "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xffContent-Length: x\r\n\r\n",
		"invalid utf-8 after a short prefix":   "\xc0\xc1Content-Length: 0\r\n\r\n",
		"invalid utf-8 value":                  "Content-Length: \xff\r\n\r\n",
		"invalid utf-8 header name":            "\xfe\xff: 3\r\n\r\n",
		"no content-length":                    "Content-Type: x\r\n\r\n",
		"negative length":                      "Content-Length: -1\r\n\r\n",
		"huge length":                          "Content-Length: 99999999999999999999\r\n\r\n",
		"no colon":                             "garbage\r\n\r\n",
		"body not json":                        frame("{not json"),
		"body not json-rpc":                    frame(`[1,2]`),
		"over-long header line":                "X-Pad: " + string(bytes.Repeat([]byte{'a'}, maxHeaderLine+10)) + "\r\n\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			msgs, rejected := readAll(t, []byte(bad+frame(validCall)))
			if rejected == 0 {
				t.Errorf("the bad frame was not rejected")
			}
			if len(msgs) != 1 || msgs[0].(*jsonrpc2.Call).Method() != "shutdown" {
				t.Fatalf("messages = %v, want the one valid call after the bad frame", msgs)
			}
		})
	}
}

// FuzzStream feeds the framing layer arbitrary bytes: it never panics,
// and a valid frame after bad ones still decodes. Each input is tried
// alone, and as the header block and then the body of bad frames followed
// by a valid call.
func FuzzStream(f *testing.F) {
	for _, seed := range []string{
		frame(validCall),
		"\xff\xff\xffContent-Length: 3\r\n\r\n{}}",
		"Content-Length: 5\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"a\":",
		"\r\n\r\n\r\n",
		"Content-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\nnull",
		"garbage: Content-Length: 2\r\n\r\n[]",
		"content-length:0\n\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		readAll(t, data)

		// Mixed: a bad header block (any Content-Length spelled out of
		// it), then a frame whose body is data, then a valid call.
		block := bytes.Map(func(r rune) rune {
			if r == 'h' || r == 'H' {
				return 'x' // no "content-length" can remain
			}
			return r
		}, data)
		mixed := string(block) + "\r\n\r\n" + frame(string(data)) + frame(validCall)
		msgs, _ := readAll(t, []byte(mixed))
		if len(msgs) == 0 {
			t.Fatalf("no message decoded from %q", mixed)
		}
		last, ok := msgs[len(msgs)-1].(*jsonrpc2.Call)
		if !ok || last.Method() != "shutdown" {
			got, _ := json.Marshal(msgs[len(msgs)-1])
			t.Fatalf("last message = %s, want the valid call after the bad frames", got)
		}
	})
}

// TestStreamTruncatedBody checks that a header announcing a large body
// that never comes costs what arrived, not what was announced.
func TestStreamTruncatedBody(t *testing.T) {
	input := []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n{}", maxFrame))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	msgs, _ := readAll(t, input)
	runtime.ReadMemStats(&after)
	if len(msgs) != 0 {
		t.Errorf("messages = %v, want none", msgs)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("reading a 2-byte body announced as %d bytes allocated %d bytes", maxFrame, got)
	}
}

// deep returns a JSON-RPC message whose params nest n arrays, with the
// given members before and after them.
func deep(before string, n int, after string) string {
	return "{" + before + `"params":` + strings.Repeat("[", n) + strings.Repeat("]", n) + after + "}"
}

// TestStreamTooDeep checks that a message nested past maxDepth is never
// decoded (the decoder recursed per level and overflowed the stack): a
// request gets InvalidRequest under its id, a response fails the call it
// answers, a notification is dropped, and the next message decodes.
func TestStreamTooDeep(t *testing.T) {
	for _, tt := range []struct {
		name, before, after string
		reply               string // the error response the stream writes, "" for none
		response            bool   // Read returns an error response for the id
	}{
		{"request", `"jsonrpc":"2.0","id":9,"method":"textDocument/hover",`, "", `"error":{"code":-32600,"message":"invalid request: message nested deeper than 10000 levels"},"id":9}`, false},
		{"request with its id after the params", `"jsonrpc":"2.0","method":"x",`, `,"id":"r2"`, `"id":"r2"}`, false},
		{"notification", `"jsonrpc":"2.0","method":"textDocument/didChange",`, "", "", false},
		{"response", `"jsonrpc":"2.0","id":"c1",`, "", "", true},
		{"null id", `"jsonrpc":"2.0","id":null,"method":"x",`, "", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn := &fakeConn{Reader: strings.NewReader(frame(deep(tt.before, 2_000_000, tt.after)) + frame(validCall))}
			bad := 0
			s := newStream(conn, func(error) { bad++ })
			msg, _, err := s.Read(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tt.response {
				r, ok := msg.(*jsonrpc2.Response)
				if !ok || r.ID() != jsonrpc2.NewStringID("c1") || r.Err() == nil {
					t.Fatalf("first message = %#v, want an error response for call c1", msg)
				}
				if msg, _, err = s.Read(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if c, ok := msg.(*jsonrpc2.Call); !ok || c.Method() != "shutdown" {
				t.Fatalf("message = %#v, want the valid call after the deep one", msg)
			}
			if bad != 1 {
				t.Errorf("%d messages logged as refused, want 1", bad)
			}
			if got := conn.out.String(); tt.reply == "" && got != "" || !strings.Contains(got, tt.reply) {
				t.Errorf("wrote %q, want a reply containing %q", got, tt.reply)
			}
		})
	}
	// Depth up to the limit decodes; strings with brackets and escaped
	// quotes do not count.
	ok := `{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"[[[\"{{{\\","a":` + strings.Repeat("[", maxDepth-2) + strings.Repeat("]", maxDepth-2) + "}}"
	if msgs, bad := readAll(t, []byte(frame(ok))); len(msgs) != 1 || bad != 0 {
		t.Errorf("a message %d deep: %d messages, %d refused; want it decoded", maxDepth, len(msgs), bad)
	}
}

// repeatReader yields the same byte forever.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestStreamOversized checks that a body over maxFrame is read through
// without being kept: the request gets InvalidRequest under its id, and
// the frame after it decodes.
func TestStreamOversized(t *testing.T) {
	head := `{"jsonrpc":"2.0","id":"big","method":"textDocument/didOpen","params":"`
	length := int64(maxFrame + 1)
	conn := &fakeConn{Reader: io.MultiReader(
		strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", length, head)),
		io.LimitReader(repeatReader('x'), length-int64(len(head))),
		strings.NewReader(frame(validCall)))}
	bad := 0
	s := newStream(conn, func(error) { bad++ })
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	msg, _, err := s.Read(context.Background())
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := msg.(*jsonrpc2.Call); !ok || c.Method() != "shutdown" {
		t.Fatalf("message = %#v, want the valid call after the oversized one", msg)
	}
	want := fmt.Sprintf(`"error":{"code":-32600,"message":"invalid request: message of %d bytes over the limit of %d"},"id":"big"}`, length, maxFrame)
	if !strings.Contains(conn.out.String(), want) || bad != 1 {
		t.Errorf("wrote %q (%d logged), want a reply containing %q", conn.out.String(), bad, want)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("reading a %d-byte body allocated %d bytes", length, got)
	}
}

func TestEnvelope(t *testing.T) {
	for _, tt := range []struct {
		in, id string
		method bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"m","params":[]}`, "7", true},
		{` { "id" : "a\"b" , "result" : {"x":[1,{"id":2}]} }`, `"a\"b"`, false},
		{`{"params":{"id":3,"method":"x"},"method":"m"}`, "", true},
		{`{"method":"m","params":[[[`, "", true},
		{`{"id":12`, "", false}, // cut off: the number may go on
		{`[{"id":1}]`, "", false},
		{``, "", false},
	} {
		id, method := envelope([]byte(tt.in))
		if string(id) != tt.id || method != tt.method {
			t.Errorf("envelope(%s) = %s, %v; want %s, %v", tt.in, id, method, tt.id, tt.method)
		}
	}
}
