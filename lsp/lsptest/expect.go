package lsptest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// DiagnosticFilter further restricts a diagnostics expectation.
type DiagnosticFilter func([]protocol.Diagnostic) (bool, string)

// DiagnosticsAt holds when diagnostics for path were published for
// document version (0: any version) and every filter passes.
func DiagnosticsAt(path string, version uint32, filters ...DiagnosticFilter) Expectation {
	return func(s *State) (bool, string) {
		desc := fmt.Sprintf("diagnostics for %s at version %d", path, version)
		p, ok := s.Diagnostics[fileURI(s, path)]
		if !ok || (version != 0 && p.Version != version) {
			return false, desc
		}
		for _, f := range filters {
			if ok, d := f(p.Diagnostics); !ok {
				return false, desc + ": " + d
			}
		}
		return true, desc
	}
}

// NoDiagnostics holds when path's last publication is empty (or it never
// had any).
func NoDiagnostics(path string) Expectation {
	return func(s *State) (bool, string) {
		p := s.Diagnostics[fileURI(s, path)]
		return len(p.Diagnostics) == 0, fmt.Sprintf("no diagnostics for %s", path)
	}
}

// Published holds when path received at least n publications.
func Published(path string, n int) Expectation {
	return func(s *State) (bool, string) {
		return s.Publications[fileURI(s, path)] >= n, fmt.Sprintf("%d publications for %s", n, path)
	}
}

// MessageContaining holds when a showMessage contains text.
func MessageContaining(text string) Expectation {
	return func(s *State) (bool, string) {
		for _, m := range s.Messages {
			if strings.Contains(m.Message, text) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("a message containing %q", text)
	}
}

// ProgressEnded holds when at least one work-done progress ended.
func ProgressEnded() Expectation {
	return func(s *State) (bool, string) {
		for _, p := range s.Progress {
			if m, ok := p.Value.(map[string]any); ok && m["kind"] == "end" {
				return true, ""
			}
		}
		return false, "a $/progress end"
	}
}

// OnLines passes when the diagnostics start exactly on these 1-based lines
// (one or more per line, no other line).
func OnLines(lines ...int) DiagnosticFilter {
	return func(ds []protocol.Diagnostic) (bool, string) {
		var got []int
		for _, d := range ds {
			if l := int(d.Range.Start.Line) + 1; !slices.Contains(got, l) {
				got = append(got, l)
			}
		}
		slices.Sort(got)
		want := slices.Clone(lines)
		slices.Sort(want)
		return slices.Equal(got, want), fmt.Sprintf("on lines %v (got %v)", want, got)
	}
}

// WithCode passes when some diagnostic has the rule id as its code.
func WithCode(rule string) DiagnosticFilter {
	return func(ds []protocol.Diagnostic) (bool, string) {
		for _, d := range ds {
			if d.Code == rule {
				return true, ""
			}
		}
		return false, "a diagnostic " + rule
	}
}

// Count passes when there are exactly n diagnostics.
func Count(n int) DiagnosticFilter {
	return func(ds []protocol.Diagnostic) (bool, string) {
		return len(ds) == n, fmt.Sprintf("%d diagnostics (got %d)", n, len(ds))
	}
}

// WithData passes when some diagnostic's data field has key = value.
func WithData(key, value string) DiagnosticFilter {
	return func(ds []protocol.Diagnostic) (bool, string) {
		for _, d := range ds {
			if m, ok := d.Data.(map[string]any); ok && m[key] == value {
				return true, ""
			}
		}
		return false, fmt.Sprintf("a diagnostic with data.%s = %q", key, value)
	}
}

func fileURI(s *State, path string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(filepath.Join(s.Dir, filepath.FromSlash(path))))
}

// LogContaining holds when a window/logMessage contains text.
func LogContaining(text string) Expectation {
	return func(s *State) (bool, string) {
		for _, m := range s.Logs {
			if strings.Contains(m.Message, text) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("a log message containing %q", text)
	}
}

// ProgressContaining holds when a $/progress begin, report or end says
// text (its title or message).
func ProgressContaining(text string) Expectation {
	return func(s *State) (bool, string) {
		for _, p := range s.Progress {
			if m, ok := p.Value.(map[string]any); ok {
				for _, k := range []string{"title", "message"} {
					if v, _ := m[k].(string); strings.Contains(v, text) {
						return true, ""
					}
				}
			}
		}
		return false, fmt.Sprintf("a $/progress saying %q", text)
	}
}
