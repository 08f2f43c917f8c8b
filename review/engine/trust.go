package engine

import (
	"time"

	"github.com/reviewls/reviewls/review/config"
)

// Trust, as the front ends see it (see review/config): the user's folder,
// the repositories the user trusted, and where a repository stands.

// UserDir returns the user's reviewls folder from the environment
// (getenv is os.Getenv): $XDG_CONFIG_HOME/reviewls, by default
// ~/.config/reviewls; "" when neither is set.
func UserDir(getenv func(string) string) string { return config.UserDir(getenv) }

// UserConfigFile is the user configuration file's name in the user folder.
const UserConfigFile = config.UserFileName

// TrustFile is the name of the file of trusted repositories in the user
// folder.
const TrustFile = config.TrustFileName

// TrustedRepo is a repository the user trusted.
type TrustedRepo = config.TrustedRepo

// Standing is where a repository stands with the user.
type Standing = config.Standing

// The standings of a repository.
const (
	Untrusted = config.Untrusted
	Trusted   = config.Trusted
	Changed   = config.Changed
	NoUserDir = config.NoUserDir
)

// Trust records the repository whose work tree is root as trusted with
// its .reviewls.yaml as it is now, in the user folder userDir. It returns
// the record and the privileged settings the file asks for, which the
// repository may now use, each as "<setting> (<what it does>)". A file
// that cannot be read or parsed is an error, and nothing is recorded.
func Trust(userDir, root string) (TrustedRepo, []string, error) {
	return config.Trust(userDir, root, ruleIDs(Lenses()), time.Now())
}

// Revoke forgets the trust the user gave the repository whose work tree is
// root; it reports whether there was any.
func Revoke(userDir, root string) (bool, error) { return config.Revoke(userDir, root) }

// TrustedRepos returns the repositories the user trusted.
func TrustedRepos(userDir string) ([]TrustedRepo, error) { return config.TrustedRepos(userDir) }

// StandingOf returns where the repository whose work tree is root stands
// with the user.
func StandingOf(userDir, root string) (Standing, error) { return config.StandingOf(userDir, root) }
