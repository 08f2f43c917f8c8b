package security

import (
	"go/format"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

const (
	ghToken = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"
	awsKey  = "AKIAZ7Q2R5T6W3X4Y6B2"
)

// TestEnvFix checks the secret's quick fix in each language family: the
// literal becomes a read from the environment in the language's idiom,
// with the import the read needs, and the fixed file still parses.
// Where no code fix exists, none is offered.
func TestEnvFix(t *testing.T) {
	tests := []struct {
		name, path, src string
		rule            *lens.Rule
		want            string // the fixed file; "" for no fix
	}{
		{
			name: "go var, import missing", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\nvar apiKey = \"" + ghToken + "\"\n",
			want: "package a\n\nimport \"os\"\n\nvar apiKey = os.Getenv(\"API_KEY\")\n",
		},
		{
			name: "go grouped imports keep their order", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\n\t\"example.com/x\"\n)\n\nfunc f() { fmt.Println(strings.ToLower(x.Y), \"" + ghToken + "\") }\n",
			want: "package a\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n\n\t\"example.com/x\"\n)\n\nfunc f() { fmt.Println(strings.ToLower(x.Y), os.Getenv(\"GITHUB_TOKEN\")) }\n",
		},
		{
			name: "go single import, lone const becomes var", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\nimport \"fmt\"\n\nconst AWSKeyID = \"" + awsKey + "\"\n\nvar _ = fmt.Sprint\n",
			want: "package a\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nvar AWSKeyID = os.Getenv(\"AWS_KEY_ID\")\n\nvar _ = fmt.Sprint\n",
		},
		{
			name: "go single import after os, with its comment", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\n// Imports.\nimport s \"strings\" // for ToLower\n\nvar key = s.ToLower(\"" + awsKey + "\")\n",
			want: "package a\n\n// Imports.\nimport (\n\t\"os\"\n\ts \"strings\" // for ToLower\n)\n\nvar key = s.ToLower(os.Getenv(\"AWS_ACCESS_KEY_ID\"))\n",
		},
		{
			name: "go group on one line", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\nimport (\"fmt\"; \"strings\")\n\nvar key = fmt.Sprint(strings.ToLower(\"" + awsKey + "\"))\n",
			want: "package a\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n)\n\nvar key = fmt.Sprint(strings.ToLower(os.Getenv(\"AWS_ACCESS_KEY_ID\")))\n",
		},
		{
			name: "go group, os first", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\nimport (\n\t\"strings\"\n)\n\nvar key = strings.ToLower(\"" + awsKey + "\")\n",
			want: "package a\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nvar key = strings.ToLower(os.Getenv(\"AWS_ACCESS_KEY_ID\"))\n",
		},
		{
			name: "go two lone imports: the first becomes the group", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\nimport \"fmt\"\nimport \"strings\"\n\nvar key = fmt.Sprint(strings.ToLower(\"" + awsKey + "\"))\n",
			want: "package a\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\nimport \"strings\"\n\nvar key = fmt.Sprint(strings.ToLower(os.Getenv(\"AWS_ACCESS_KEY_ID\")))\n",
		},
		{
			name: "go cgo import stays alone", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\n// #include <stdlib.h>\nimport \"C\"\n\nvar key = \"" + awsKey + "\"\n",
			want: "package a\n\n// #include <stdlib.h>\nimport \"C\"\nimport \"os\"\n\nvar key = os.Getenv(\"KEY\")\n",
		},
		{
			name: "go renamed os import, struct field key", path: "a.go", rule: HardcodedSecret,
			src:  "package a\n\nimport xos \"os\"\n\nvar c = Config{Token: `" + ghToken + "`}\n\nvar _ = xos.Args\n",
			want: "package a\n\nimport xos \"os\"\n\nvar c = Config{Token: xos.Getenv(\"TOKEN\")}\n\nvar _ = xos.Args\n",
		},
		{
			name: "go const group: no fix", path: "a.go", rule: HardcodedSecret,
			src: "package a\n\nconst (\n\tkey = \"" + awsKey + "\"\n\tother = 1\n)\n",
		},
		{
			name: "go struct tag: no fix", path: "a.go", rule: HardcodedSecret,
			src: "package a\n\ntype T struct {\n\tX int `" + awsKey + "`\n}\n",
		},
		{
			name: "go secret inside a longer string: no fix", path: "a.go", rule: HardcodedSecret,
			src: "package a\n\nvar h = \"Bearer " + ghToken + "\"\n",
		},
		{
			name: "go comment: no fix", path: "a.go", rule: HardcodedSecret,
			src: "package a\n\n// old key: \"" + awsKey + "\"\nvar x = 1\n",
		},
		{
			name: "go Setenv: no fix", path: "a.go", rule: GenericSecret,
			src: "package a\n\nimport \"os\"\n\nfunc init() { os.Setenv(\"API_TOKEN\", \"f3Jk9QzL2mXw8RtV5nBc7HyD4pGs\") }\n",
		},
		{
			name: "python, after the docstring and __future__", path: "app/settings.py", rule: GenericSecret,
			src:  "\"\"\"Settings.\n\nMore.\n\"\"\"\nfrom __future__ import annotations\n\nimport sys\n\nclient_secret = 'prvu5IfijoySjTneAAvIDAdn'\n",
			want: "\"\"\"Settings.\n\nMore.\n\"\"\"\nfrom __future__ import annotations\nimport os\n\nimport sys\n\nclient_secret = os.environ[\"CLIENT_SECRET\"]\n",
		},
		{
			name: "python, os already imported, keyword argument", path: "a.py", rule: HardcodedSecret,
			src:  "import os, sys\n\nclient = Client(token=r\"" + ghToken + "\")\n",
			want: "import os, sys\n\nclient = Client(token=os.environ[\"TOKEN\"])\n",
		},
		{
			name: "python, no imports, dict key", path: "a.py", rule: GenericSecret,
			src:  "#!/usr/bin/env python3\n# Config.\nCONFIG = {\"api_key\": \"f3Jk9QzL2mXw8RtV5nBc7HyD4pGs\"}\n",
			want: "#!/usr/bin/env python3\n# Config.\nimport os\nCONFIG = {\"api_key\": os.environ[\"API_KEY\"]}\n",
		},
		{
			name: "python f-string: no fix", path: "a.py", rule: HardcodedSecret,
			src: "tok = f\"" + ghToken + "\"\n",
		},
		{
			name: "javascript", path: "a.js", rule: GenericSecret,
			src:  "const client = new Client({ apiKey: 'f3Jk9QzL2mXw8RtV5nBc7HyD4pGs' });\n",
			want: "const client = new Client({ apiKey: process.env.API_KEY });\n",
		},
		{
			name: "typescript, detector name", path: "a.ts", rule: HardcodedSecret,
			src:  "export function client(): Client {\n  return new Client(`" + ghToken + "`);\n}\n",
			want: "export function client(): Client {\n  return new Client(process.env.GITHUB_TOKEN);\n}\n",
		},
		{
			name: "shell, quoted", path: "deploy.sh", rule: HardcodedSecret,
			src:  "#!/bin/sh\nexport GH_TOKEN='" + ghToken + "'\n",
			want: "#!/bin/sh\nexport GH_TOKEN=\"${GH_TOKEN}\"\n",
		},
		{
			name: "shell, bare word", path: "deploy.sh", rule: HardcodedSecret,
			src:  "#!/bin/sh\ncurl -H \"x: 1\" https://hooks.slack.com/services/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 -d x\n",
			want: "#!/bin/sh\ncurl -H \"x: 1\" \"${SLACK_WEBHOOK_URL}\" -d x\n",
		},
		{name: "yaml: no code fix", path: "deploy.yaml", rule: HardcodedSecret, src: "token: \"" + ghToken + "\"\n"},
		{name: ".env: no code fix", path: ".env", rule: HardcodedSecret, src: "GITHUB_TOKEN=" + ghToken + "\n"},
		{name: "json: no code fix", path: "a.json", rule: HardcodedSecret, src: "{\"token\": \"" + ghToken + "\"}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := lenstest.NewFile(tt.path, []byte(tt.src))
			got := lenstest.Check(t, tt.rule, f, 0, nil)
			if len(got) != 1 {
				t.Fatalf("got %d findings, want 1", len(got))
			}
			fd := got[0]
			if tt.want == "" {
				if fd.Fix != nil {
					t.Errorf("fix %q offered, want none: %+v", fd.Fix.Title, fd.Fix.Edits)
				}
				return
			}
			if fd.Fix == nil {
				t.Fatal("no fix")
			}
			fixed, err := review.ApplyEdits(f.Content, fd.Fix.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(fixed)); diff != "" {
				t.Errorf("fixed file (-want +got):\n%s", diff)
			}
			if err := lenstest.Parses(f.Language, fixed); err != nil {
				t.Errorf("the fixed file does not parse: %v", err)
			}
			if f.Language == review.LangGo {
				// As goimports would leave it: gofmt changes nothing.
				if formatted, err := format.Source(fixed); err != nil || string(formatted) != string(fixed) {
					t.Errorf("the fixed file is not gofmt-clean (%v); gofmt makes it:\n%s", err, formatted)
				}
			}
			if again := lenstest.Check(t, tt.rule, lenstest.NewFile(tt.path, fixed), 0, nil); len(again) != 0 {
				t.Errorf("still reported after the fix: %s", again[0].Message)
			}
		})
	}
}

func TestEnvName(t *testing.T) {
	for _, tt := range []struct{ before, kind, want string }{
		{"apiKey := ", "GitHub token", "API_KEY"},                  // a credential name wins
		{"var slack = ", "Slack token", "SLACK_TOKEN"},             // a provider name does not
		{"var maps string = ", "Google API key", "GOOGLE_API_KEY"}, // typed Go var
		{"f(", "GitHub token", "GITHUB_TOKEN"},                     // no name: the detector
		{"var settings = ", "private key", "SETTINGS"},             // unknown kind: the name after all
		{"f(", "Possible token", "POSSIBLE_TOKEN"},                 // nothing else: the kind
		{`env["db_password"] = `, "", "DB_PASSWORD"},
		{`if (password === `, "", "PASSWORD"},
	} {
		if got := envName(tt.before, tt.kind); got != tt.want {
			t.Errorf("envName(%q, %q) = %q, want %q", tt.before, tt.kind, got, tt.want)
		}
	}
}

func TestUpperSnake(t *testing.T) {
	for in, want := range map[string]string{
		"apiKey": "API_KEY", "APIKey": "API_KEY", "ghToken": "GH_TOKEN", "awsSecretAccessKey": "AWS_SECRET_ACCESS_KEY",
		"HTTPServerToken": "HTTP_SERVER_TOKEN", "db-password": "DB_PASSWORD", "client_secret": "CLIENT_SECRET",
		"API_TOKEN": "API_TOKEN", "OAuth2Token": "O_AUTH2_TOKEN", "token2": "TOKEN2", "npm access token": "NPM_ACCESS_TOKEN",
	} {
		if got := upperSnake(in); got != want {
			t.Errorf("upperSnake(%q) = %q, want %q", in, got, want)
		}
	}
}
