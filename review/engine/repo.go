package engine

import (
	"github.com/reviewls/reviewls/review/config"
	"github.com/reviewls/reviewls/review/gitdiff"
)

// The repository layer, as the front ends (the CLI and the language
// server) see it: they import the engine, not review/gitdiff.

// Env is the git environment that selects the repository, work tree and
// index ($GIT_DIR, $GIT_WORK_TREE, $GIT_INDEX_FILE, ...).
type Env = gitdiff.Env

// ProcessEnv returns the git environment of the current process.
func ProcessEnv() Env { return gitdiff.ProcessEnv() }

// Repo is an open repository: its scan, refresh, history and objects.
type Repo = gitdiff.Repo

// Matcher answers whether paths of the work tree are ignored, as a scan
// does (see [Repo.Matcher]).
type Matcher = gitdiff.Matcher

// OpenRepo opens the repository that holds dir, for the commands that scan
// without reviewing (status, the hook's checks, validate). A directory
// outside any work tree is an error wrapping [review.ErrNotRepository].
func OpenRepo(dir string, env Env) (*Repo, error) {
	return gitdiff.Open(dir, gitdiff.Options{Env: env})
}

// ConfigFile is the configuration file at the repository root.
const ConfigFile = config.FileName

// ConfigError is the error of a configuration file that cannot be used
// (its path, line and why), which [Open] returns wrapped.
type ConfigError = config.Error
