package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Transcript is a folder of requests and answers, one pair of files per
// request, named by the request's key:
//
//	<key>.request.json   the request: model, parameters, messages (each
//	                     message's content as a list of lines, so a prompt
//	                     change reads as a diff), the answer schema
//	<key>.response.json  the answer: mode, finish reason, usage, elapsed
//	                     time, and the answer itself as JSON ("answer"),
//	                     or the raw text when it is not JSON ("content"),
//	                     or why none came ("failure")
//	context.json         the context size the recording run used
//	pending/<key>.json   in replay mode, a request the folder holds no
//	                     answer for
//
// Recording writes every pair; replaying reads the answers instead of
// asking the endpoint, so a run is repeated byte for byte, and leaves a
// request without an answer in pending/ with its candidates unverified:
// a person (or another model) answers it offline by writing
// <key>.response.json with {"answer": {"findings": [...]}}, and the run
// can be repeated. Every text in it is redacted, as the request was.
type Transcript struct {
	Dir string
	// Replay reads answers instead of recording them.
	Replay bool
}

// requestFile is the on-disk form of a request.
type requestFile struct {
	Key         string          `json:"key"`
	Model       string          `json:"model"`
	Files       []string        `json:"files"`
	Part        int             `json:"part,omitempty"`
	Parts       int             `json:"parts,omitempty"`
	Temperature float64         `json:"temperature"`
	MaxTokens   int             `json:"max_tokens"`
	Messages    []messageFile   `json:"messages"`
	Schema      json.RawMessage `json:"response_schema"`
}

type messageFile struct {
	Role    string   `json:"role"`
	Content []string `json:"content"`
}

// responseFile is the on-disk form of a response.
type responseFile struct {
	Key          string          `json:"key"`
	Mode         Mode            `json:"mode,omitempty"`
	FinishReason string          `json:"finish_reason,omitempty"`
	Usage        Usage           `json:"usage"`
	ElapsedMS    int64           `json:"elapsed_ms"`
	Answer       json.RawMessage `json:"answer,omitempty"`
	Content      *string         `json:"content,omitempty"`
	Failure      *Failure        `json:"failure,omitempty"`
}

// contextFile records the context size of a recorded run.
type contextFile struct {
	Tokens int    `json:"tokens"`
	Source string `json:"source"`
}

// MarshalRequest renders r as its transcript file: indented JSON whose
// messages are lists of lines.
func MarshalRequest(r *Request) []byte {
	rf := requestFile{Key: r.Key, Model: r.Model, Files: r.Files, Part: r.Part, Parts: r.Parts,
		MaxTokens: r.MaxTokens, Schema: compactSchema}
	for _, m := range r.Messages {
		rf.Messages = append(rf.Messages, messageFile{Role: m.Role, Content: strings.Split(m.Content, "\n")})
	}
	return marshalFile(rf)
}

// marshalFile renders v as indented JSON ending in a newline, without
// HTML escaping (code is full of < and &).
func marshalFile(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic("llm: marshal transcript file: " + err.Error()) // plain strings, numbers and valid raw JSON
	}
	return b.Bytes()
}

// Record writes the request and its response.
func (t *Transcript) Record(r *Request, resp *Response) error {
	rf := responseFile{Key: r.Key, Mode: resp.Mode, FinishReason: resp.FinishReason, Usage: resp.Usage,
		ElapsedMS: resp.Elapsed.Milliseconds(), Failure: resp.Failure}
	if resp.Failure == nil {
		if body := strings.TrimSpace(resp.Content); json.Valid([]byte(body)) {
			rf.Answer = json.RawMessage(body)
		} else {
			content := resp.Content
			rf.Content = &content
		}
	}
	if err := writeAtomic(filepath.Join(t.Dir, r.Key+".request.json"), MarshalRequest(r)); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(t.Dir, r.Key+".response.json"), marshalFile(rf))
}

// Answer returns the recorded response to r; ok is false when the
// transcript holds none.
func (t *Transcript) Answer(r *Request) (resp *Response, ok bool, err error) {
	name := filepath.Join(t.Dir, r.Key+".response.json")
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read transcript answer: %w", err)
	}
	var rf responseFile
	if err := json.Unmarshal(data, &rf); err != nil {
		return nil, false, fmt.Errorf("read transcript answer %s: %w", name, err)
	}
	resp = &Response{Mode: rf.Mode, FinishReason: rf.FinishReason, Usage: rf.Usage,
		Elapsed: time.Duration(rf.ElapsedMS) * time.Millisecond, Failure: rf.Failure}
	switch {
	case rf.Failure != nil:
	case rf.Content != nil:
		resp.Content = *rf.Content
	case rf.Answer != nil:
		resp.Content = string(rf.Answer)
	default:
		return nil, false, fmt.Errorf("read transcript answer %s: no answer, content or failure", name)
	}
	return resp, true, nil
}

// Pend writes r to pending/, for someone to answer.
func (t *Transcript) Pend(r *Request) error {
	dir := filepath.Join(t.Dir, "pending")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write pending request: %w", err)
	}
	return writeAtomic(filepath.Join(dir, r.Key+".json"), MarshalRequest(r))
}

// SaveContext records the context size a recording run used.
func (t *Transcript) SaveContext(tokens int, source string) error {
	return writeAtomic(filepath.Join(t.Dir, "context.json"), marshalFile(contextFile{tokens, source}))
}

// LoadContext returns the recorded context size; ok is false when none
// was recorded.
func (t *Transcript) LoadContext() (tokens int, source string, ok bool, err error) {
	data, err := os.ReadFile(filepath.Join(t.Dir, "context.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, "", false, nil
	}
	if err != nil {
		return 0, "", false, fmt.Errorf("read transcript context: %w", err)
	}
	var cf contextFile
	if err := json.Unmarshal(data, &cf); err != nil || cf.Tokens <= 0 {
		return 0, "", false, fmt.Errorf("read transcript context %s: not a context size", filepath.Join(t.Dir, "context.json"))
	}
	return cf.Tokens, cf.Source, true, nil
}

// writeAtomic writes data to name through a temporary file in the same
// folder, so a reader never sees half a file.
func writeAtomic(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write transcript %s: %w", name, err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("write transcript %s: %w", name, err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write transcript %s: %w", name, err)
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write transcript %s: %w", name, err)
	}
	return nil
}
