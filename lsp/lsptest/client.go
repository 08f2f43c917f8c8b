package lsptest

import (
	"context"
	"encoding/json"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Client is the fake editor: it records what the server sends and answers
// the server's requests the way VS Code does.
type Client struct {
	mu      sync.Mutex
	state   State
	changed chan struct{} // closed and replaced on every update
	edits   []protocol.ApplyWorkspaceEditParams
}

func newClient() *Client {
	return &Client{
		state: State{
			Diagnostics:  map[protocol.DocumentURI]Publication{},
			Publications: map[protocol.DocumentURI]int{},
		},
		changed: make(chan struct{}),
	}
}

var _ protocol.Client = (*Client)(nil)

// update applies fn to the state under the lock and wakes waiters.
func (c *Client) update(fn func(s *State)) {
	c.mu.Lock()
	fn(&c.state)
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// snapshot returns a copy of the state and a channel closed on the next
// update.
func (c *Client) snapshot() (*State, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.state
	s.Diagnostics = map[protocol.DocumentURI]Publication{}
	for u, p := range c.state.Diagnostics {
		s.Diagnostics[u] = p
	}
	s.Publications = map[protocol.DocumentURI]int{}
	for u, n := range c.state.Publications {
		s.Publications[u] = n
	}
	s.Messages = append([]protocol.ShowMessageParams(nil), c.state.Messages...)
	s.Logs = append([]protocol.LogMessageParams(nil), c.state.Logs...)
	s.Progress = append([]protocol.ProgressParams(nil), c.state.Progress...)
	s.Reviews = append([]json.RawMessage(nil), c.state.Reviews...)
	return &s, c.changed
}

// Diagnostics returns the last diagnostics published for a URI.
func (c *Client) Diagnostics(u protocol.DocumentURI) []protocol.Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state.Diagnostics[u].Diagnostics
}

// Messages returns the window/showMessage notifications received.
func (c *Client) Messages() []protocol.ShowMessageParams {
	s, _ := c.snapshot()
	return s.Messages
}

// PublishDiagnostics records a publication.
func (c *Client) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.update(func(s *State) {
		s.Diagnostics[p.URI] = Publication{Version: p.Version, Diagnostics: p.Diagnostics}
		s.Publications[p.URI]++
	})
	return nil
}

// ShowMessage records a message.
func (c *Client) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	c.update(func(s *State) { s.Messages = append(s.Messages, *p) })
	return nil
}

// LogMessage records a log line.
func (c *Client) LogMessage(_ context.Context, p *protocol.LogMessageParams) error {
	c.update(func(s *State) { s.Logs = append(s.Logs, *p) })
	return nil
}

// Progress records a $/progress notification.
func (c *Client) Progress(_ context.Context, p *protocol.ProgressParams) error {
	c.update(func(s *State) { s.Progress = append(s.Progress, *p) })
	return nil
}

// WorkDoneProgressCreate accepts every token.
func (c *Client) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}

// ShowMessageRequest answers with no choice.
func (c *Client) ShowMessageRequest(context.Context, *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	return nil, nil
}

// Telemetry ignores telemetry.
func (c *Client) Telemetry(context.Context, any) error { return nil }

// RegisterCapability accepts registrations.
func (c *Client) RegisterCapability(context.Context, *protocol.RegistrationParams) error { return nil }

// UnregisterCapability accepts unregistrations.
func (c *Client) UnregisterCapability(context.Context, *protocol.UnregistrationParams) error {
	return nil
}

// ApplyEdit records the edit and reports it applied.
func (c *Client) ApplyEdit(_ context.Context, p *protocol.ApplyWorkspaceEditParams) (bool, error) {
	c.mu.Lock()
	c.edits = append(c.edits, *p)
	c.mu.Unlock()
	return true, nil
}

// Configuration answers every item with null, as a client without
// settings does.
func (c *Client) Configuration(_ context.Context, p *protocol.ConfigurationParams) ([]any, error) {
	return make([]any, len(p.Items)), nil
}

// WorkspaceFolders answers with no folders.
func (c *Client) WorkspaceFolders(context.Context) ([]protocol.WorkspaceFolder, error) {
	return nil, nil
}

// Publications returns how many times diagnostics were published for u.
func (c *Client) Publications(u protocol.DocumentURI) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state.Publications[u]
}

// custom records the server's own notifications (reviewls/didReview) and
// answers any other unknown method with MethodNotFound.
func (c *Client) custom(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() == "reviewls/didReview" {
		params := append(json.RawMessage(nil), req.Params()...)
		c.update(func(s *State) { s.Reviews = append(s.Reviews, params) })
		return reply(ctx, nil, nil)
	}
	return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
}
