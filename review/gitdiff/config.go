package gitdiff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/reviewls/reviewls/internal/regular"
)

// gitConfig holds the configuration values reviewls needs, merged from the
// system, global, repository and worktree files in git's order of
// precedence. Include directives are not followed.
type gitConfig struct {
	vals map[string]string // "section.key", lower case -> last value
	home string
}

// loadConfig reads the configuration of the repository with the given git
// directories. Like git it honours GIT_CONFIG_NOSYSTEM, HOME and
// XDG_CONFIG_HOME.
func loadConfig(gitDir, commonDir string) (*gitConfig, error) {
	c := &gitConfig{vals: map[string]string{}, home: os.Getenv("HOME")}
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		c.readFile("/etc/gitconfig")
	}
	if x := xdgConfigHome(c.home); x != "" {
		c.readFile(filepath.Join(x, "git", "config"))
	}
	if c.home != "" {
		c.readFile(filepath.Join(c.home, ".gitconfig"))
	}
	if err := c.readRepo(gitDir, commonDir); err != nil {
		return nil, err
	}
	return c, nil
}

// repoConfig reads only the repository's own configuration files, where
// git looks for the settings that locate the work tree (core.bare,
// core.worktree).
func repoConfig(gitDir, commonDir string) (*gitConfig, error) {
	c := &gitConfig{vals: map[string]string{}}
	if err := c.readRepo(gitDir, commonDir); err != nil {
		return nil, err
	}
	return c, nil
}

// readRepo merges the repository's config and, with
// extensions.worktreeConfig, the worktree's config.worktree.
func (c *gitConfig) readRepo(gitDir, commonDir string) error {
	if err := c.readFile(filepath.Join(commonDir, "config")); err != nil {
		return err
	}
	if c.has("extensions", "worktreeconfig") && isTrue(c.get("extensions", "worktreeconfig")) {
		return c.readFile(filepath.Join(gitDir, "config.worktree"))
	}
	return nil
}

// readFile merges the file at path; a missing file is not an error.
func (c *gitConfig) readFile(path string) error {
	b, err := regular.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return fmt.Errorf("read config: %w", err)
	}
	cfg := format.New()
	if err := format.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return fmt.Errorf("parse config %s: %w", path, err)
	}
	for _, s := range cfg.Sections {
		sec := strings.ToLower(s.Name) + "."
		for _, o := range s.Options {
			c.vals[sec+strings.ToLower(o.Key)] = o.Value
		}
		// Subsection keys are "section.subsection.key", which never
		// collide with the "section.key" that get looks up.
		for _, sub := range s.Subsections {
			for _, o := range sub.Options {
				c.vals[sec+sub.Name+"."+strings.ToLower(o.Key)] = o.Value
			}
		}
	}
	return nil
}

// get returns the value of section.key, or "".
func (c *gitConfig) get(section, key string) string {
	return c.vals[strings.ToLower(section)+"."+strings.ToLower(key)]
}

// getSub returns the value of section.subsection.key, or "".
func (c *gitConfig) getSub(section, subsection, key string) string {
	return c.vals[strings.ToLower(section)+"."+subsection+"."+strings.ToLower(key)]
}

// has reports whether section.key is set.
func (c *gitConfig) has(section, key string) bool {
	_, ok := c.vals[strings.ToLower(section)+"."+strings.ToLower(key)]
	return ok
}

// fileMode reports core.fileMode: whether the executable bit of work tree
// files is compared (the default).
func (c *gitConfig) fileMode() bool {
	if !c.has("core", "filemode") {
		return true
	}
	return isTrue(c.get("core", "filemode"))
}

// excludesFile returns the path of core.excludesFile, defaulting to
// $XDG_CONFIG_HOME/git/ignore (or ~/.config/git/ignore).
func (c *gitConfig) excludesFile() string { return c.userFile("excludesfile", "ignore") }

// attributesFile returns the path of core.attributesFile, defaulting to
// $XDG_CONFIG_HOME/git/attributes (or ~/.config/git/attributes).
func (c *gitConfig) attributesFile() string { return c.userFile("attributesfile", "attributes") }

// userFile returns the path named by core.<key>, with "~/" expanded, or
// the file called name in git's XDG configuration directory.
func (c *gitConfig) userFile(key, name string) string {
	p := c.get("core", key)
	if p == "" {
		if x := xdgConfigHome(c.home); x != "" {
			return filepath.Join(x, "git", name)
		}
		return ""
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok && c.home != "" {
		return filepath.Join(c.home, rest)
	}
	return p
}

func xdgConfigHome(home string) string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return x
	}
	if home != "" {
		return filepath.Join(home, ".config")
	}
	return ""
}

// isTrue parses a git boolean; a key without a value is true.
func isTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true
	}
	return false
}
