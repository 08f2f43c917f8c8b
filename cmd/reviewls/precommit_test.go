package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/reviewls/reviewls/review/reviewtest"
)

// preCommitHook is an entry of .pre-commit-hooks.yaml, the part the
// pre-commit framework acts on.
type preCommitHook struct {
	ID            string   `yaml:"id"`
	Entry         string   `yaml:"entry"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	Stages        []string `yaml:"stages"`
}

// TestPreCommitHooksFile runs each hook of .pre-commit-hooks.yaml the way
// the pre-commit framework does — its entry, plus the message file for a
// commit-msg hook — in a repository with a staged secret and a message
// holding one: each blocks, and the README's snippet lists every id.
func TestPreCommitHooksFile(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	stages := map[string]string{}
	for _, h := range hooks {
		for _, s := range h.Stages {
			stages[s] = h.ID
		}
	}
	if stages["pre-commit"] == "" || stages["commit-msg"] == "" {
		t.Fatalf("hooks by stage %v: want a pre-commit and a commit-msg hook", stages)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := regexp.MustCompile(`(?m)^\s+- id: (\S+)$`).FindAllStringSubmatch(string(readme), -1)
	for _, h := range hooks {
		if !slices.ContainsFunc(listed, func(m []string) bool { return m[1] == h.ID }) {
			t.Errorf("the README's pre-commit snippet does not list %s", h.ID)
		}
	}

	const token = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"
	dir := reviewtest.RepoFromArchive(t, &txtar.Archive{Files: []txtar.File{
		{Name: "base/a.go", Data: []byte("package a\n")},
		{Name: "staged/a.go", Data: []byte("package a\n\nvar token = \"" + token + "\"\n")},
	}}).Dir
	msg := filepath.Join(dir, ".git", "COMMIT_EDITMSG")
	if err := os.WriteFile(msg, []byte("deploy with "+token+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("GIT_EDITOR", ":") // git commit -m
	for _, h := range hooks {
		args := strings.Fields(h.Entry)
		if args[0] != "reviewls" {
			t.Errorf("%s: entry %q does not run reviewls", h.ID, h.Entry)
			continue
		}
		args = args[1:]
		if slices.Contains(h.Stages, "commit-msg") && (h.PassFilenames == nil || *h.PassFilenames) {
			args = append(args, msg)
		}
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, nil, &stdout, &stderr); code != exitFindings {
			t.Errorf("%s: %q exits %d, want %d\n%s%s", h.ID, args, code, exitFindings, stdout.String(), stderr.String())
		}
		if !strings.Contains(stderr.String(), "commit blocked") || strings.Contains(stdout.String()+stderr.String(), token) {
			t.Errorf("%s: output does not say the commit is blocked, or shows the secret:\n%s%s", h.ID, stdout.String(), stderr.String())
		}
	}
}
