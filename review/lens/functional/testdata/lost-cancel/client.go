package client

import (
	"context"
	"net/http"
	"time"
)

type Client struct {
	hc     *http.Client
	cancel context.CancelFunc
}

func (c *Client) Ping(ctx context.Context, url string) error {
	ctx, _ = context.WithTimeout(ctx, 5*time.Second) // want "discarded with `_`"
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Fetch(ctx context.Context, url string) error {
	tctx, cancel := context.WithTimeout(ctx, time.Second) // want "context.WithTimeout is never called"
	req, err := http.NewRequestWithContext(tctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	_ = req
	return nil
}

func Deadline(ctx context.Context, at time.Time, work func(context.Context) error) error {
	dctx, _ := context.WithDeadline(ctx, at) // want "context.WithDeadline is discarded"
	return work(dctx)
}

// Near misses.

func Deferred(ctx context.Context, work func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return work(ctx)
}

func Returned(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	return ctx, cancel
}

func (c *Client) Stored(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	c.cancel = cancel
	return ctx
}

func (c *Client) Field(ctx context.Context) {
	var ctx2 context.Context
	ctx2, c.cancel = context.WithCancel(ctx)
	_ = ctx2
}

func Passed(ctx context.Context, stop func(context.CancelFunc)) {
	_, cancel := context.WithCancel(ctx)
	stop(cancel)
}

func Called(ctx context.Context, work func(context.Context)) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	work(ctx)
	cancel()
}

func Named(ctx context.Context) (c context.Context, cancel context.CancelFunc) {
	c, cancel = context.WithCancel(ctx)
	return
}
