package readiness

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

const serveGo = `package main

import (
	"flag"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", ":8080", "listen address")
	drain := flag.Duration("drain-timeout", 0, "drain timeout")
	token := os.Getenv("SERVE_TOKEN")
	http.HandleFunc("GET /healthz", health)
	_, _, _ = addr, drain, token
}
`

const appPy = `import argparse
import os

from flask import Flask

app = Flask(__name__)


@app.route("/users/<id>")
def user(id):
    return os.environ.get("USER_API_URL")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--verbose", action="store_true")
    return parser
`

const serverJS = `const express = require('express');
const app = express();
app.get('/api/items', (req, res) => res.json([]));
const port = process.env.PORT || 3000;
const mode = process.env.NODE_ENV;
module.exports = { app, port, mode };
`

const packageJSON = `{
  "name": "tool",
  "version": "1.2.0",
  "bin": {
    "tool": "bin/tool.js"
  },
  "scripts": {
    "test": "vitest"
  }
}
`

func TestUndocumentedChangeSingleFiles(t *testing.T) {
	lenstest.Run(t, UndocumentedChange, "testdata/undocumented-change")
}

func TestUndocumentedChange(t *testing.T) {
	tests := []struct {
		name    string
		changed map[string]string
		want    []string
	}{
		{"go flags, env and route", map[string]string{"cmd/serve/main.go": serveGo}, []string{"cmd/serve/main.go:10"}},
		{"python route, env and argument", map[string]string{"app.py": appPy}, []string{"app.py:9"}},
		{"express route and env", map[string]string{"server.js": serverJS}, []string{"server.js:3"}},
		{"package.json bin", map[string]string{"package.json": packageJSON}, []string{"package.json:4"}},
		{"documented in the changelog", map[string]string{"server.js": serverJS, "CHANGELOG.md": "## 1.3.0\n"}, nil},
		{"documented under docs/", map[string]string{"app.py": appPy, "docs/cli.rst": "CLI\n===\n"}, nil},
		{"tests are not surface", map[string]string{"server.test.js": serverJS}, nil},
		{"plain code", map[string]string{"lib/sum.js": "export const sum = (a, b) => a + b;\nconst x = cfg.get('/x');\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := scriptCheck(t, UndocumentedChange, scriptChangeSet(t, tt.changed, nil))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUndocumentedChangeMessage checks the listed triggers.
func TestUndocumentedChangeMessage(t *testing.T) {
	_, got := scriptCheck(t, UndocumentedChange, scriptChangeSet(t, map[string]string{"cmd/serve/main.go": serveGo}, nil))
	if len(got) != 1 {
		t.Fatalf("got %d findings, want 1", len(got))
	}
	want := "cmd/serve/main.go changes the public surface (flag -addr; flag -drain-timeout; environment variable SERVE_TOKEN; and 1 more)"
	if got[0].Message[:len(want)] != want {
		t.Errorf("message = %q, want prefix %q", got[0].Message, want)
	}
}

// TestUndocumentedChangeOnlyNewEnv checks that an environment variable the
// file already read is not new.
func TestUndocumentedChangeOnlyNewEnv(t *testing.T) {
	f := lenstest.NewFile("server.js", []byte("const a = process.env.API_URL;\nconst b = process.env.API_URL + '/v2';\n"))
	f.Lines = map[int]review.LineState{2: review.LineUnstaged}
	cs := &review.ChangeSet{Files: []*review.File{f}}
	if got, _ := scriptCheck(t, UndocumentedChange, cs); len(got) != 0 {
		t.Errorf("got %v, want nothing", got)
	}
}

// TestUndocumentedChangeGoAPI checks exported signature changes, which
// need the removed lines of the diff.
func TestUndocumentedChangeGoAPI(t *testing.T) {
	src := "package store\n\n// Get returns a record.\nfunc Get(ctx context.Context, key string) (string, error) { return \"\", nil }\n\n// Put stores a record.\nfunc Put(key string) {}\n\nfunc helper() {}\n"
	f := lenstest.NewFile("store/store.go", []byte(src))
	f.Status = review.StatusModified
	f.Lines = map[int]review.LineState{4: review.LineUnstaged, 9: review.LineUnstaged}
	f.Hunks = []review.Hunk{{OldStart: 4, OldLines: 1, NewStart: 4, NewLines: 1, Lines: []string{
		"-func Get(key string) (string, error) { return \"\", nil }",
		"+func Get(ctx context.Context, key string) (string, error) { return \"\", nil }",
	}}, {OldStart: 9, OldLines: 2, NewStart: 9, NewLines: 1, Lines: []string{
		"-func Delete(key string) {}",
		"-func helper2() {}",
		"+func helper() {}",
	}}}
	cs := &review.ChangeSet{Files: []*review.File{f}}
	_, got := scriptCheck(t, UndocumentedChange, cs)
	if len(got) != 1 || got[0].Span.StartLine != 4 {
		t.Fatalf("got %+v, want one finding on line 4", got)
	}
	want := "store/store.go changes the public surface (signature of exported Get changed; exported Delete removed)"
	if got[0].Message[:len(want)] != want {
		t.Errorf("message = %q, want prefix %q", got[0].Message, want)
	}
	// Rewriting the doc comment along with the signature documents it.
	f.Lines[3] = review.LineUnstaged
	if _, got := scriptCheck(t, UndocumentedChange, cs); len(got) != 1 || !strings.Contains(got[0].Message, "exported Delete removed") || strings.Contains(got[0].Message, "Get") {
		t.Errorf("with Get's doc comment changed: got %+v, want only the removal of Delete", got)
	}
	// A new exported function is documented by its doc comment.
	g := lenstest.NewFile("store/store.go", []byte(src))
	if got, _ := scriptCheck(t, UndocumentedChange, &review.ChangeSet{Files: []*review.File{g}}); len(got) != 0 {
		t.Errorf("new file: got %v, want nothing", got)
	}
}
