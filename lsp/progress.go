package lsp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
)

var progressSeq atomic.Int64

// progressReporter reports one piece of work through $/progress.
type progressReporter struct {
	srv   *server
	token protocol.ProgressToken
	once  sync.Once
}

// beginProgress creates a progress token and sends begin, when the client
// supports work-done progress; otherwise it returns nil.
func (s *server) beginProgress(ctx context.Context, title, message string) *progressReporter {
	s.stateMu.Lock()
	supported := s.caps.Window != nil && s.caps.Window.WorkDoneProgress
	s.stateMu.Unlock()
	if !supported {
		return nil
	}
	token := *protocol.NewProgressToken(fmt.Sprintf("reviewls/%d", progressSeq.Add(1)))
	if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
		s.logger.Debug("workDoneProgress/create", "err", err)
		return nil
	}
	p := &progressReporter{srv: s, token: token}
	p.send(&protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: title, Message: message})
	return p
}

func (p *progressReporter) send(value any) {
	if err := p.srv.client.Progress(context.Background(), &protocol.ProgressParams{Token: p.token, Value: value}); err != nil {
		p.srv.logger.Debug("$/progress", "err", err)
	}
}

// end closes the progress with a final message.
func (p *progressReporter) end(message string) {
	p.once.Do(func() {
		p.send(&protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: message})
	})
}
