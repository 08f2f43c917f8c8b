package main

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// redactWriter passes every write through the secret detector: the last
// line of defence of stdout and stderr, behind the redactors of the
// outputs themselves, for what no review result knows of — an error
// naming a file or branch, a log record, the status listing. Each write
// is redacted whole; every writer in this package writes a message, a
// record or a document at once, so a secret is never split across two.
type redactWriter struct {
	w   io.Writer
	red *review.Redactor
}

// redacting wraps w in a redactWriter.
func redacting(w io.Writer) io.Writer {
	return &redactWriter{w: w, red: engine.NewRedactor()}
}

// Write redacts p and writes it; it reports len(p) written on success, as
// callers expect of a writer whatever the redaction changed.
func (rw *redactWriter) Write(p []byte) (int, error) {
	out := rw.red.Bytes(p)
	if !bytes.Equal(out, p) && json.Valid(p) {
		// A JSON document (--format json, sarif, river) is redacted string
		// by string, so the redacted form never cuts an escape in two.
		if compact, err := rw.red.JSON(bytes.TrimSpace(p)); err == nil {
			var b bytes.Buffer
			if json.Indent(&b, compact, "", "  ") == nil {
				if bytes.HasSuffix(p, []byte("\n")) {
					b.WriteByte('\n')
				}
				out = b.Bytes()
			}
		}
	}
	if _, err := rw.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
