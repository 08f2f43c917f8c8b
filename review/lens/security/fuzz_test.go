package security

import (
	"strings"
	"testing"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// FuzzShellCommands checks the command lines of a shell-like file: they
// partition its lines in order, each joins the comment-free code of its
// lines, the masked code differs from it only by blanks after a quote, and
// every offset maps back to one of the command's lines.
func FuzzShellCommands(f *testing.F) {
	for _, s := range []string{"", "echo a \\\n  b # c\n", "RUN apt-get update && \\\n    apt-get install -y curl\n", "x='\\\n", "\"$(a \"b\")\"", "\\"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := &review.File{Path: "run.sh", Language: review.LangShell, Content: data}
		lines := lens.Lines(file)
		next := 1
		for _, c := range shellCommands(file) {
			if c.Start != next || c.End < c.Start || c.End > len(lines) || len(c.offs) != c.End-c.Start+1 {
				t.Fatalf("command %d-%d (%d offsets) after line %d of %d", c.Start, c.End, len(c.offs), next-1, len(lines))
			}
			next = c.End + 1
			var parts []string
			for n := c.Start; n <= c.End; n++ {
				code := stripShellComment(lines[n-1])
				if !strings.HasPrefix(lines[n-1], code) {
					t.Fatalf("line %d %q: code %q is not its start", n, lines[n-1], code)
				}
				if n < c.End && !strings.HasSuffix(code, "\\") {
					t.Fatalf("line %d %q joins the next without a continuation", n, lines[n-1])
				}
				parts = append(parts, strings.TrimSuffix(code, "\\"))
			}
			if want := strings.Join(parts, " "); c.Text != want {
				t.Fatalf("command %d-%d: text %q, want %q", c.Start, c.End, c.Text, want)
			}
			if len(c.Code) != len(c.Text) {
				t.Fatalf("command %d-%d: code %q, text %q", c.Start, c.End, c.Code, c.Text)
			}
			for i := range len(c.Text) {
				// A blanked byte follows a quote that opens a string.
				if c.Code[i] != c.Text[i] && (c.Code[i] != ' ' || !strings.ContainsAny(c.Code[:i], `"'`)) {
					t.Fatalf("command %d-%d: code %q, text %q differ at %d", c.Start, c.End, c.Code, c.Text, i)
				}
			}
			prev := c.Start
			for off := 0; off <= len(c.Text); off++ {
				if n := c.Line(off); n < prev || n > c.End {
					t.Fatalf("command %d-%d: offset %d on line %d after %d", c.Start, c.End, off, n, prev)
				} else {
					prev = n
				}
			}
		}
		if next != len(lines)+1 {
			t.Fatalf("commands end at line %d of %d", next-1, len(lines))
		}
	})
}

// FuzzAssignments checks the secret-keyed values found on a line, in code
// and in configuration syntax: each is the text of the line between its
// bounds, under a secret key, and no two overlap.
func FuzzAssignments(f *testing.F) {
	for _, s := range []string{"", `api_key = "abc"`, "export DB_PASSWORD=hunter2", `{"client_secret": "x", "token": 'y'}`,
		"ENV API_TOKEN abc", "password: s3cret # c", `os.Setenv("API_TOKEN", "v")`, `env['SECRET_KEY'] = "\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, cfg := range []bool{false, true} {
			as := assignments(line, cfg)
			for i, a := range as {
				if a.from < 0 || a.from > a.to || a.to > len(line) || line[a.from:a.to] != a.value ||
					a.key == "" || a.class == keyNone || secretKey(a.key) != a.class {
					t.Fatalf("cfg %v: assignment %+v of %q", cfg, a, line)
				}
				for _, b := range as[:i] {
					if a.from < b.to && b.from < a.to {
						t.Fatalf("cfg %v: assignments %+v and %+v overlap", cfg, a, b)
					}
				}
			}
		}
	})
}
