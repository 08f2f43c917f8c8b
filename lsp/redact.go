package lsp

import (
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// Every message the server sends passes the redactor on its way out (the
// stream calls redactMessage): the handlers redact what they build, and
// this catches what they cannot know of — an error quoting an argument, a
// file name in a URI, a log line forwarded as window/logMessage. Document
// URIs are redacted too: the client gets a diagnostic under the redacted
// name of a file whose name holds a secret rather than the secret.

// setRedactor records the redactor of a session's current review and
// rebuilds the one outgoing messages pass. redMu is a leaf lock: nothing is
// called out while it is held, so any goroutine may send a message
// whatever locks it holds.
func (s *server) setRedactor(ss *session, r *review.Redactor) {
	s.redMu.Lock()
	defer s.redMu.Unlock()
	if s.redactors == nil {
		s.redactors = map[*session]*review.Redactor{}
	}
	s.redactors[ss] = r
	all := engine.NewRedactor()
	for _, r := range s.redactors {
		all = all.Join(r)
	}
	s.red.Store(all)
}

// redactMessage redacts every string of an outgoing JSON-RPC message.
func (s *server) redactMessage(data []byte) []byte {
	r := s.red.Load()
	if r == nil {
		r = engine.NewRedactor()
	}
	out, err := r.JSON(data)
	if err != nil {
		// Not reachable: data was just marshalled. Send nothing raw.
		s.opts.Logger.Error("redact outgoing message", "err", err)
		return []byte(`{"jsonrpc":"2.0","error":{"code":-32603,"message":"internal error: message could not be redacted"},"id":null}`)
	}
	return out
}
