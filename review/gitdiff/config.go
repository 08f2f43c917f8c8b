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
	if err := c.readFile(filepath.Join(commonDir, "config")); err != nil {
		return nil, err
	}
	if c.has("extensions", "worktreeconfig") && isTrue(c.get("extensions", "worktreeconfig")) {
		c.readFile(filepath.Join(gitDir, "config.worktree"))
	}
	return c, nil
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
		for _, o := range s.Options {
			c.vals[strings.ToLower(s.Name)+"."+strings.ToLower(o.Key)] = o.Value
		}
	}
	return nil
}

// get returns the value of section.key, or "".
func (c *gitConfig) get(section, key string) string {
	return c.vals[strings.ToLower(section)+"."+strings.ToLower(key)]
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
func (c *gitConfig) excludesFile() string {
	p := c.get("core", "excludesfile")
	if p == "" {
		if x := xdgConfigHome(c.home); x != "" {
			return filepath.Join(x, "git", "ignore")
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
