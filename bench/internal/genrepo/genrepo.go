// Package genrepo generates the large repositories the benchmarks run on:
// tracked Go files spread over a three-level directory tree, an ignored
// node_modules tree, committed with the git binary.
package genrepo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Repo is a generated repository.
type Repo struct {
	Root    string
	Tracked []string // repo-relative paths of the tracked files
}

// Generate writes files tracked files in dirs directories and ignored files
// under node_modules/, and commits the tracked ones.
func Generate(root string, files, dirs, ignored int) (*Repo, error) {
	r := &Repo{Root: root}
	dirNames := make([]string, dirs)
	for i := range dirNames {
		dirNames[i] = fmt.Sprintf("pkg%02d/sub%02d/leaf%03d", i%30, (i/30)%10, i)
	}
	for i := 0; i < files; i++ {
		p := fmt.Sprintf("%s/file%05d.go", dirNames[i%dirs], i)
		r.Tracked = append(r.Tracked, p)
		if err := r.Write(p, fmt.Sprintf("package leaf\n\n// Value%d returns %d.\nfunc Value%d() int {\n\treturn %d\n}\n", i, i, i, i)); err != nil {
			return nil, err
		}
	}
	for i := 0; i < ignored; i++ {
		if err := r.Write(fmt.Sprintf("node_modules/dep%03d/lib/file%05d.js", i%500, i), "module.exports = 1;\n"); err != nil {
			return nil, err
		}
	}
	if err := r.Write(".gitignore", "node_modules/\n*.log\n.copilot-tracking/\n"); err != nil {
		return nil, err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "generated"}} {
		if err := r.Git(args...); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Write writes a repo-relative file.
func (r *Repo) Write(rel, content string) error {
	full := filepath.Join(r.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	return os.WriteFile(full, []byte(content), 0o644)
}

// Append appends to a repo-relative file.
func (r *Repo) Append(rel, content string) error {
	f, err := os.OpenFile(filepath.Join(r.Root, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Git runs git in the repository with a fixed identity.
func (r *Repo) Git(args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// Change applies the measured local change: n tracked files spread over
// the tree get a new function, and two untracked files appear.
func (r *Repo) Change(n int) error {
	for i := 0; i < n; i++ {
		if err := r.Append(r.Tracked[i*(len(r.Tracked)/n)], fmt.Sprintf("\n// Changed%d notes a change.\nfunc Changed%d() {}\n", i, i)); err != nil {
			return err
		}
	}
	if err := r.Write("pkg00/sub00/new_a.go", "package leaf\n\n// NewA is new.\nfunc NewA() {}\n"); err != nil {
		return err
	}
	return r.Write("pkg01/sub01/new_b.go", "package leaf\n\n// NewB is new.\nfunc NewB() {}\n")
}
