package api

import "errors"

func ParseConfig(b []byte) error { return nil } // want "Exported function ParseConfig has no doc comment"

type Client struct{} // want "Exported type Client"

func (c *Client) Do() error { // want "Exported method Client.Do"
	return nil
}

func (c *Client) Name() string { return "client" }

var ErrClosed = errors.New("closed") // want "Exported variable ErrClosed"

const MaxRetries = 3 // want "Exported constant MaxRetries"

type (
	Request  struct{} // want "Exported type Request"
	response struct{}
)

// Near misses.

// Open opens a client.
func Open() *Client { return &Client{} }

func (c *Client) String() string { return "client" }

func (r response) Send() {}

func helper() {}

// Modes of a client.
const (
	ModeA = iota
	ModeB
)

var (
	// ErrTimeout is returned when a call takes too long.
	ErrTimeout = errors.New("timeout")
	internal   = 1
)

// Server is documented.
type Server struct {
	Addr string
}

// Level is a logging level.
type Level int

const (
	Debug Level = iota
	Info
)

const (
	ColorRed = iota + 1
	ColorBlue
)
