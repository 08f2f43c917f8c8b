package api

// Real shapes: a client's Do whose body is decoded but never closed, a
// ping whose response is only checked for its status, and http.Get with
// the response discarded; near misses after.

import (
	"encoding/json"
	"io"
	"net/http"
)

type Client struct {
	http *http.Client
	base string
}

func (c *Client) User(req *http.Request) (string, error) {
	resp, err := c.http.Do(req) // want "the body of the response from c.http.Do is never closed"
	if err != nil {
		return "", err
	}
	var u struct{ Login string }
	err = json.NewDecoder(resp.Body).Decode(&u)
	return u.Login, err
}

func Ping(endpoint string) bool {
	client := &http.Client{}
	resp, err := client.Get(endpoint + "_ping") // want "never closed"
	return err == nil && resp.StatusCode == http.StatusOK
}

func Touch(url string) {
	_, _ = http.Get(url) // want "discarded with `_`"
}

func Closed(c *Client, req *http.Request) error {
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return nil
}

func Handed(c *Client, req *http.Request) (*http.Response, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	check(resp)
	r2, err := http.Get(c.base)
	return r2, err
}

func check(*http.Response) {}

func Wrapped(c *Client, req *http.Request) (io.ReadCloser, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	return wrap(resp.Body), nil
}

func wrap(r io.ReadCloser) io.ReadCloser { return r }
