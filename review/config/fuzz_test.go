package config

import (
	"bytes"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/reviewls/reviewls/review"
)

// yamlLineRE finds the "line N:" that yaml.v3 puts in its syntax errors.
var yamlLineRE = regexp.MustCompile(`\bline (\d+):`)

// FuzzParse feeds arbitrary bytes to Parse: it either returns a
// configuration whose values are all valid, or a *Error that names the file
// and, when it names a line, a line of the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"profile: standard\n",
		"depth: comprehensive\nperspectives: [security, functional]\n",
		"rules:\n  readiness/todo-added: off\n  security/hardcoded-secret: High\n",
		"ignore:\n  - \"vendor/**\"\n  - \"**/*.pb.go\"\nbase: origin/main\nfail-on: medium\n",
		"size-cap: 2MiB\nfunction-length: 120\n",
		"profile: [\n",
		"- a\n",
		"a: &x {b: *x}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(FileName, data, known)
		if err != nil {
			if cfg != nil {
				t.Fatalf("Parse returned both a config and %v", err)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *config.Error", err, err)
			}
			if ce.File != FileName {
				t.Fatalf("error %v names file %q, want %q", err, ce.File, FileName)
			}
			lines := yamlLines(data)
			if ce.Line < 0 || ce.Line > lines {
				t.Fatalf("error %v: line %d outside the input's %d lines", err, ce.Line, lines)
			}
			for _, m := range yamlLineRE.FindAllStringSubmatch(ce.Msg, -1) {
				if n, _ := strconv.Atoi(m[1]); n < 1 || n > lines {
					t.Fatalf("error %v: line %d outside the input's %d lines", err, n, lines)
				}
			}
			return
		}
		if cfg == nil {
			t.Fatal("Parse returned neither a config nor an error")
		}
		checkConfig(t, cfg)
	})
}

// yamlLines counts the lines of data as YAML does: "\r\n", "\r", "\n" and
// the Unicode breaks NEL, LS and PS each end a line, in text that a byte
// order mark may declare UTF-16.
func yamlLines(data []byte) int {
	s := string(data)
	if len(data) >= 2 && (data[0] == 0xfe && data[1] == 0xff || data[0] == 0xff && data[1] == 0xfe) {
		units := make([]uint16, 0, len(data)/2)
		for i := 2; i+1 < len(data); i += 2 {
			if data[0] == 0xfe {
				units = append(units, uint16(data[i])<<8|uint16(data[i+1]))
			} else {
				units = append(units, uint16(data[i+1])<<8|uint16(data[i]))
			}
		}
		s = string(utf16.Decode(units))
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	n := 1
	for _, r := range s {
		switch r {
		case '\r', '\n', '\u0085', '\u2028', '\u2029':
			n++
		}
	}
	return n
}

// checkConfig checks that every value of a parsed configuration is one
// that the rest of the program accepts.
func checkConfig(t *testing.T, cfg *review.Config) {
	t.Helper()
	if p, err := review.ParseProfile(string(cfg.Profile)); cfg.Profile != "" && (err != nil || p != cfg.Profile) {
		t.Fatalf("invalid profile %q", cfg.Profile)
	}
	if cfg.Depth != 0 && !cfg.Depth.Valid() {
		t.Fatalf("invalid depth %v", cfg.Depth)
	}
	for id, rc := range cfg.Rules {
		if !slices.Contains(known, id) {
			t.Fatalf("override of unknown rule %q", id)
		}
		if !rc.Off && !rc.Severity.Valid() {
			t.Fatalf("rule %s: neither off nor a valid severity: %+v", id, rc)
		}
	}
	if cfg.SizeCap < 0 || cfg.FunctionLength < 0 {
		t.Fatalf("negative limit: size-cap %d, function-length %d", cfg.SizeCap, cfg.FunctionLength)
	}
	if cfg.Base != "" && len(bytes.TrimSpace([]byte(cfg.Base))) == 0 {
		t.Fatalf("blank base %q", cfg.Base)
	}
}
