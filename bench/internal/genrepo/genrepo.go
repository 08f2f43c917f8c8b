// Package genrepo provides the repositories the benchmarks run on: either
// generated (tracked Go files spread over a three-level directory tree, an
// ignored node_modules tree, committed with the git binary) or a throwaway
// clone of a real repository; and it applies the measured change to them.
package genrepo

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Repo is a repository the benchmarks measure.
type Repo struct {
	Root string
	// Tracked lists the repo-relative paths of the tracked Go files the
	// change generator and the language-server saves may edit (for a
	// clone: package files, not tests, vendored, test data or generated
	// code).
	Tracked []string
}

// Clone makes a throwaway clone of the repository src (a work tree or a
// bare repository; only its committed history is copied, with hard links
// where git can) at dst, which must not exist. The clone keeps its
// history and pack as they are; reviewls's artifact folder is excluded
// from git status. src is never written.
func Clone(src, dst string) (*Repo, error) {
	if out, err := exec.Command("git", "clone", "-q", src, dst).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("clone %s: %v\n%s", src, err, out)
	}
	r := &Repo{Root: dst}
	exclude := filepath.Join(dst, ".git", "info", "exclude")
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(exclude, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString("\n.copilot-tracking/\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	out, err := r.Output("ls-files", "-z", "--", "*.go")
	if err != nil {
		return nil, err
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if editable(p) && !r.generated(p) {
			r.Tracked = append(r.Tracked, p)
		}
	}
	if len(r.Tracked) == 0 {
		return nil, fmt.Errorf("clone %s: no tracked Go package files to change", src)
	}
	return r, nil
}

// generated reports whether the Go file rel is generated code ("Code
// generated ... DO NOT EDIT."), which reviewls does not review, or cannot
// be read as Go.
func (r *Repo) generated(rel string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(r.Root, filepath.FromSlash(rel)), nil, parser.PackageClauseOnly|parser.ParseComments)
	return err != nil || ast.IsGenerated(f)
}

// editable reports whether the tracked path p is a Go file of a real
// package of the project: not a test, not vendored, not test data.
func editable(p string) bool {
	if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
		return false
	}
	for _, elem := range strings.Split(path.Dir(p), "/") {
		if elem == "vendor" || elem == "testdata" || strings.HasPrefix(elem, ".") || strings.HasPrefix(elem, "_") {
			return false
		}
	}
	return true
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
	_, err := r.Output(args...)
	return err
}

// Output runs git in the repository with a fixed identity and returns its
// standard output.
func (r *Repo) Output(args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_NOSYSTEM=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// Change applies the measured local change: modified tracked Go files,
// spread evenly over Tracked, each get a new function at the end, and
// untracked new Go files appear beside the first modified ones, in their
// package. It returns the modified paths. The change compiles: the new
// identifiers are numbered and the package clauses are copied.
func (r *Repo) Change(modified, untracked int) ([]string, error) {
	if modified > len(r.Tracked) {
		return nil, fmt.Errorf("change %d files: the repository has only %d editable Go files", modified, len(r.Tracked))
	}
	var paths []string
	for i := 0; i < modified; i++ {
		p := r.Tracked[i*(len(r.Tracked)/modified)]
		paths = append(paths, p)
		if err := r.Append(p, fmt.Sprintf("\n// benchChanged%d is part of the measured change.\nfunc benchChanged%d() int { return %d }\n", i, i, i)); err != nil {
			return nil, err
		}
	}
	for i := 0; i < untracked; i++ {
		beside := r.Tracked[i%len(r.Tracked)]
		if i < len(paths) {
			beside = paths[i]
		}
		pkg, err := r.packageName(beside)
		if err != nil {
			return nil, err
		}
		p := path.Join(path.Dir(beside), fmt.Sprintf("bench_new_%d.go", i))
		if err := r.Write(p, fmt.Sprintf("package %s\n\n// BenchNew%d is part of the measured change.\nfunc BenchNew%d() int { return %d }\n", pkg, i, i, i)); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// Reset drops every local change: tracked files back to HEAD, the index
// too, and untracked (not ignored) files removed.
func (r *Repo) Reset() error {
	if err := r.Git("reset", "-q", "--hard", "HEAD"); err != nil {
		return err
	}
	return r.Git("clean", "-q", "-fd")
}

// packageName reads the package clause of a repo-relative Go file.
func (r *Repo) packageName(rel string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(r.Root, filepath.FromSlash(rel)), nil, parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("read the package of %s: %w", rel, err)
	}
	return f.Name.Name, nil
}
