package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// settings are the client-side options, from initializationOptions or
// workspace/didChangeConfiguration (under a "reviewls" key or bare).
type settings struct {
	// Scope is "worktree" (staged, unstaged and untracked changes,
	// including unsaved buffers; the default) or "staged" (what the next
	// commit holds: the index against HEAD).
	Scope string `json:"scope"`
	// Profile, Depth and Perspectives override .reviewls.yaml.
	Profile      string   `json:"profile"`
	Depth        string   `json:"depth"`
	Perspectives []string `json:"perspectives"`
	// Base makes the review a branch diff against this ref.
	Base string `json:"base"`
	// QuietWindow is the debounce delay in milliseconds.
	QuietWindow int `json:"quietWindow"`
	// CodeLens says which changed symbols carry the loop's lenses:
	// "symbols" (functions, methods and types; the default), "all" (every
	// changed declaration, constants and variables too) or "off".
	CodeLens string `json:"codeLens"`
	// Model is the model reviewer: an object with the keys of the
	// configuration's model: (endpoint, name, ...), set over the
	// configuration files' key by key, or false to turn it off.
	Model json.RawMessage `json:"model"`

	// model and noModel are Model decoded.
	model   *review.ModelConfig
	noModel bool
}

// parseSettings decodes raw settings and checks every value; the error
// names the bad key.
func parseSettings(raw any) (settings, error) {
	var st settings
	if raw == nil {
		return st, nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return st, err
	}
	var wrapped struct {
		Reviewls *json.RawMessage `json:"reviewls"`
	}
	if json.Unmarshal(data, &wrapped) == nil && wrapped.Reviewls != nil {
		data = *wrapped.Reviewls
	}
	if string(data) == "null" {
		return st, nil
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return settings{}, fmt.Errorf("reviewls settings: %w", err)
	}
	switch st.Scope {
	case "", "worktree", "staged":
	default:
		return settings{}, fmt.Errorf("reviewls settings: scope: unknown scope %q (want worktree or staged)", st.Scope)
	}
	switch st.CodeLens {
	case "", "symbols", "all", "off":
	default:
		return settings{}, fmt.Errorf("reviewls settings: codeLens: unknown value %q (want symbols, all or off)", st.CodeLens)
	}
	if st.Profile != "" {
		if _, err := review.ParseProfile(st.Profile); err != nil {
			return settings{}, fmt.Errorf("reviewls settings: profile: %w", err)
		}
	}
	if st.Depth != "" {
		if _, err := review.ParseDepth(st.Depth); err != nil {
			return settings{}, fmt.Errorf("reviewls settings: depth: %w", err)
		}
	}
	for _, p := range st.Perspectives {
		if _, err := review.ParsePerspective(p); err != nil {
			return settings{}, fmt.Errorf("reviewls settings: perspectives: %w", err)
		}
	}
	if st.QuietWindow < 0 {
		return settings{}, fmt.Errorf("reviewls settings: quietWindow: want milliseconds >= 0, got %d", st.QuietWindow)
	}
	switch m := strings.TrimSpace(string(st.Model)); {
	case m == "" || m == "null" || m == "true":
	case m == "false":
		st.noModel = true
	case strings.HasPrefix(m, "{"):
		if st.model, err = engine.ParseModelSettings("reviewls settings", st.Model); err != nil {
			return settings{}, err
		}
	default:
		return settings{}, fmt.Errorf("reviewls settings: model: want an object such as {\"endpoint\": \"http://127.0.0.1:11434/v1\", \"name\": \"qwen2.5-coder:7b\"}, or false")
	}
	return st, nil
}

// request fills the review request fields the settings control.
func (st settings) request(req *review.Request) {
	req.Staged = st.Scope == "staged"
	if !req.Staged {
		req.Base = st.Base
	}
	if st.Profile != "" {
		req.Profile, _ = review.ParseProfile(st.Profile)
	}
	if st.Depth != "" {
		req.Depth, _ = review.ParseDepth(st.Depth)
	}
	for _, p := range st.Perspectives {
		ps, _ := review.ParsePerspective(p)
		req.Perspectives = append(req.Perspectives, ps)
	}
	if len(req.Perspectives) > 0 && req.Profile == "" {
		req.Profile = review.ProfileCustom
	}
}

// quiet returns the debounce delay: the client's quietWindow when set,
// else the server default.
func (st settings) quiet(def time.Duration) time.Duration {
	if st.QuietWindow > 0 {
		return time.Duration(st.QuietWindow) * time.Millisecond
	}
	return def
}
