package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"sort"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/reviewls/reviewls/artifacts"
	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// diagnosticData is the data field of a reviewls diagnostic: what a client
// (or a later code action) needs to know about the finding.
type diagnosticData struct {
	ID          string `json:"id"`
	Perspective string `json:"perspective"`
	LineState   string `json:"lineState"`
	Severity    string `json:"severity"`
	Rule        string `json:"rule"`
	// Rationale is the finding's message (redacted): what is wrong and
	// why. The diagnostic's message is only its headline; editors that
	// show a diagnostic in a float of its own (Neovim) show this too.
	Rationale string `json:"rationale"`
	// Model names the model of a model finding.
	Model string `json:"model,omitempty"`
}

// publisher sends diagnostics for one session: one publishDiagnostics per
// file whose diagnostics changed, with the document version the review
// saw, and an empty list for files that no longer have findings.
type publisher struct {
	srv *server
	ss  *session

	mu    sync.Mutex // guards state and announced
	state map[string]pubState
	// announced fingerprints the last reviewls/didReview sent.
	announced [32]byte
}

// pubState is what was last published for a path.
type pubState struct {
	hash    uint64
	version int32
	empty   bool
}

func newPublisher(srv *server, ss *session) *publisher {
	return &publisher{srv: srv, ss: ss, state: map[string]pubState{}}
}

// publish sends the diagnostics of res. versions maps open documents to
// the version the review saw; mustPub lists paths edited since the last
// publish, which are republished even when unchanged so a client waiting
// for a version sees it. Diagnostics are only built for paths whose
// findings changed: a cheap fingerprint of the findings decides.
func (p *publisher) publish(res *review.Result, versions map[string]int32, mustPub map[string]bool) {
	byPath := map[string][]*review.Finding{}
	if res != nil && res.ChangeSet != nil {
		for _, f := range res.Findings {
			// A file the review does not read has findings only when the
			// secret scan found a secret in it (review/engine's scan of
			// unread files): those show too.
			if file := res.ChangeSet.File(f.Span.Path); file != nil && (file.Reviewed() || f.IsSecret()) {
				byPath[f.Span.Path] = append(byPath[f.Span.Path], f)
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	paths := map[string]bool{}
	for path := range byPath {
		paths[path] = true
	}
	for path, st := range p.state {
		if !st.empty {
			paths[path] = true
		}
	}
	for path := range mustPub {
		paths[path] = true
	}
	ordered := make([]string, 0, len(paths))
	for path := range paths {
		ordered = append(ordered, path)
	}
	// The files the editor just changed first: those are what the user
	// waits for; then the rest in path order.
	sort.Slice(ordered, func(i, j int) bool {
		if mi, mj := mustPub[ordered[i]], mustPub[ordered[j]]; mi != mj {
			return mi
		}
		return ordered[i] < ordered[j]
	})
	for _, path := range ordered {
		findings := byPath[path]
		st := pubState{hash: fingerprint(findings), version: versions[path], empty: len(findings) == 0}
		prev, seen := p.state[path]
		if seen && prev == st && !mustPub[path] {
			continue
		}
		if !seen && st.empty && !mustPub[path] {
			continue // never published, nothing to say
		}
		p.state[path] = st
		diags := []protocol.Diagnostic{}
		if len(findings) > 0 {
			file := res.ChangeSet.File(path)
			m := newMapper(p.ss.textOf(file))
			for _, f := range findings {
				diags = append(diags, diagnostic(res, file, m, f))
			}
		}
		params := &protocol.PublishDiagnosticsParams{
			URI:         protocol.DocumentURI(uri.File(p.ss.absPath(path))),
			Diagnostics: diags,
		}
		if v, open := versions[path]; open && v > 0 {
			params.Version = uint32(v)
		}
		if err := p.srv.client.PublishDiagnostics(context.Background(), params); err != nil {
			p.srv.logger.Warn("publishDiagnostics", "uri", params.URI, "err", err)
		}
	}
}

// fingerprint identifies what a file's diagnostics would say: the same
// findings at the same places with the same text give the same value. It
// runs for every file with findings on every save, so it is a fast hash.
func fingerprint(findings []*review.Finding) uint64 {
	var h maphash.Hash
	h.SetSeed(fingerprintSeed)
	var buf [8]byte
	num := func(n int) {
		binary.LittleEndian.PutUint64(buf[:], uint64(n))
		h.Write(buf[:])
	}
	str := func(s string) {
		num(len(s))
		h.WriteString(s)
	}
	for _, f := range findings {
		str(f.ID)
		str(f.RuleID)
		num(f.Span.StartLine)
		num(f.Span.StartCol)
		num(f.Span.EndLine)
		num(f.Span.EndCol)
		num(int(f.Severity))
		str(string(f.LineState))
		str(f.Message)
	}
	return h.Sum64()
}

var fingerprintSeed = maphash.MakeSeed()

// clear publishes empty lists for every path with diagnostics (a session
// closing, or a folder removed).
func (p *publisher) clear() {
	p.publish(&review.Result{ChangeSet: &review.ChangeSet{}}, nil, nil)
}

// diagnostic converts one finding: its message is the headline (the
// rationale is in its data and the hover, the rule's documentation on its
// page, codeDescription). Its
// range stays on changed lines: a
// span that also covers unchanged lines is cut to its first line.
func diagnostic(res *review.Result, file *review.File, m *mapper, f *review.Finding) protocol.Diagnostic {
	return protocol.Diagnostic{
		Range:           findingRange(file, m, f),
		Severity:        severity(f.Severity),
		Code:            f.RuleID,
		CodeDescription: &protocol.CodeDescription{Href: uri.URI(artifacts.RuleHelpURI(f.RuleID))},
		Source:          "reviewls",
		Message:         res.Redactor.String(f.Headline()),
		Data: diagnosticData{
			ID:          f.ID,
			Perspective: string(f.Perspective),
			LineState:   string(f.LineState),
			Severity:    f.Severity.String(),
			Rule:        f.RuleID,
			Rationale:   res.Redactor.String(f.Message),
			Model:       f.Model,
		},
	}
}

// unreadTextLimit bounds what is read of a file the review skipped, to
// place its secrets' diagnostics: far above any file an editor opens.
const unreadTextLimit = 64 << 20

// textOf returns the text the review saw of file: its content, or, for a
// file the review does not read (skipped for size, encoding, vendoring),
// the open buffer or the file on disk, read only when it has a finding.
func (ss *session) textOf(file *review.File) []byte {
	if file.Content != nil {
		return file.Content
	}
	if text, open := ss.srv.openText(ss, file.Path); open {
		return text
	}
	abs := ss.absPath(file.Path)
	data, err := regular.ReadFileLimit(abs, unreadTextLimit)
	if err != nil {
		ss.logger.Debug("read skipped file for its diagnostics", "path", file.Path, "err", err)
		return nil
	}
	return data
}

// findingRange maps a finding's span to an LSP range on changed lines.
func findingRange(file *review.File, m *mapper, f *review.Finding) protocol.Range {
	s := f.Span
	end := s.Last()
	for n := s.StartLine; n <= end; n++ {
		if !file.Changed(n) {
			end = s.StartLine
			break
		}
	}
	r := m.lineRange(s.StartLine, end)
	if s.StartCol > 0 {
		r.Start = m.position(s.StartLine, s.StartCol)
		if s.EndCol > 0 && s.EndLine <= end {
			r.End = m.position(max(s.EndLine, s.StartLine), s.EndCol)
		}
	}
	return r
}

// methodDidReview is the server's notification of a settled review: the
// verdict, the counts and the board's statuses, sent when any of them
// changed. Editors drive their status bar and board view from it.
const methodDidReview = "reviewls/didReview"

// didReviewParams are the params of reviewls/didReview.
type didReviewParams struct {
	Root string `json:"root"` // the repository's URI
	reviewSummary
	Phase review.Phase `json:"currentPhase"`
	Board []boardState `json:"board"`
	// Error says why the review failed; the summary is then empty.
	Error string `json:"error,omitempty"`
}

type boardState struct {
	ID     string `json:"id"`
	Area   string `json:"area"`
	Status string `json:"status"`
}

// announce sends reviewls/didReview for res unless the client was
// already told the same. The caller must not hold ss.resultMu.
func (p *publisher) announce(res *review.Result) {
	if res == nil || res.ChangeSet == nil || p.srv.conn == nil {
		return // no client: the scheduler's unit tests
	}
	// Loop commands sync the result's loop state under resultMu.
	p.ss.resultMu.Lock()
	params := didReviewParams{Root: string(uri.File(p.ss.root)), reviewSummary: summarize(p.ss, res), Board: []boardState{}}
	if res.Loop != nil {
		params.Phase = res.Loop.Phase
		for _, it := range res.Loop.Board {
			params.Board = append(params.Board, boardState{ID: it.ID, Area: it.Area, Status: it.Status})
		}
	}
	p.ss.resultMu.Unlock()
	p.notify(params)
}

// announceFailure sends reviewls/didReview saying the review failed, so
// the editor's status stops showing the last success.
func (p *publisher) announceFailure(failure error) {
	if p.srv.conn == nil {
		return
	}
	p.notify(didReviewParams{Root: string(uri.File(p.ss.root)), Board: []boardState{}, Error: "review failed: " + failure.Error()})
}

// notify sends params as reviewls/didReview unless they are those sent
// last.
func (p *publisher) notify(params didReviewParams) {
	data, err := json.Marshal(params)
	if err != nil {
		return
	}
	sum := sha256.Sum256(data)
	p.mu.Lock()
	if sum == p.announced {
		p.mu.Unlock()
		return
	}
	p.announced = sum
	p.mu.Unlock()
	if err := p.srv.conn.Notify(context.Background(), methodDidReview, json.RawMessage(data)); err != nil {
		p.srv.logger.Debug(methodDidReview, "err", err)
	}
}
