package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// Trust. A cloned repository is untrusted input: its .reviewls.yaml may
// tune rules, severities, ignores and caps, but a setting that runs tools,
// sends code anywhere or writes outside the work tree is honoured only
// from the user — the command line, the editor's settings, the user
// configuration file ([UserDir]) — or from a repository the user trusted
// with `reviewls trust`, which records the repository's root and the
// SHA-256 of its .reviewls.yaml in the user's folder, as direnv and mise
// do. A changed file is untrusted again until the user trusts it anew.
//
// The privileged settings are the rows of one table, privileged. Each row
// names its key, says when a file's value asks for something privileged
// and what that does; [Resolve] drops the setting of every row that an
// untrusted repository's file asks for (and the user's file does not set
// itself), and says so in one line. Later privileged keys are one row
// each, as model (sends code to a model endpoint) and gates (runs
// project commands) are.

// privilege is a setting a repository's file may use only when trusted.
type privilege struct {
	// key is the top-level key (a key of fields).
	key string
	// asks returns the setting as the file spells it ("depth:
	// comprehensive") when cfg asks for the privileged behaviour.
	asks func(cfg *review.Config) (string, bool)
	// does says what honouring it does, in a few words.
	does string
}

// privileged are the settings a repository's file may use only when the
// user trusts it.
var privileged = []privilege{
	// The type-aware analysis runs `go list -export -compiled`: the Go
	// compiler, cgo and the C toolchain over the repository's code, and
	// writes to the build cache.
	{key: "depth", does: "runs the Go toolchain", asks: func(c *review.Config) (string, bool) {
		return "depth: comprehensive", c.Depth == review.DepthComprehensive
	}},
	{key: "analysis", does: "runs the Go toolchain", asks: func(c *review.Config) (string, bool) {
		return "analysis.budget: " + c.AnalysisBudget.String(), c.AnalysisBudget > 0
	}},
	// The model reviewer sends the change's code to its endpoint, reads
	// the key from the environment variable it names, and may write a
	// transcript anywhere: a cloned repository must never send its
	// reader's code to a host of its choosing. The whole mapping is
	// withheld.
	{key: "model", does: "sends code to a model endpoint", asks: func(c *review.Config) (string, bool) {
		if c.Model == nil {
			return "", false
		}
		if c.Model.Endpoint != "" {
			return "model.endpoint: " + c.Model.Endpoint, true
		}
		return "model", true
	}},
	// The project gates are commands of the repository's choosing, run
	// by the shell in the work tree (and only with --gates): a cloned
	// repository must never get its reader to run them.
	{key: "gates", does: "runs project commands with --gates", asks: func(c *review.Config) (string, bool) {
		return "gates", len(c.Gates) > 0
	}},
}

// asks returns the privileged settings cfg asks for, each as "<key as the
// file spells it> (<what it does>)", in table order, and their keys,
// leaving out the keys in except.
func asks(cfg *review.Config, except []string) (asked, keys []string) {
	if cfg == nil {
		return nil, nil
	}
	for _, p := range privileged {
		if s, ok := p.asks(cfg); ok && !slices.Contains(except, p.key) {
			asked = append(asked, s+" ("+p.does+")")
			keys = append(keys, p.key)
		}
	}
	return asked, keys
}

// Standing is where a repository stands with the user.
type Standing int

const (
	// Untrusted: the user has not trusted the repository.
	Untrusted Standing = iota
	// Trusted: the user trusted the repository with its configuration as
	// it is now.
	Trusted
	// Changed: the user trusted the repository, and its configuration
	// has changed since.
	Changed
	// NoUserDir: there is no user folder to record trust in ($HOME and
	// $XDG_CONFIG_HOME are unset).
	NoUserDir
)

// why says why a repository's privileged settings were not honoured, and
// how to allow them.
func (s Standing) why() string {
	switch s {
	case Changed:
		return "its " + FileName + " changed since you trusted it (run `reviewls trust` again to allow it)"
	case NoUserDir:
		return "this repository is not trusted, and there is no user folder to trust it in (set $HOME or $XDG_CONFIG_HOME)"
	}
	return "this repository is not trusted (run `reviewls trust` to allow it)"
}

// Withheld is a privileged setting of an untrusted repository's file that
// was not honoured.
type Withheld struct {
	// Key is its top-level key; Setting says it as the file does, and
	// what it does: "depth: comprehensive (runs the Go toolchain)".
	Key, Setting string
}

// WithheldLine is the one line that says which settings of the
// repository's file were not honoured, why, and how to allow them; ""
// when none was.
func WithheldLine(ws []Withheld, s Standing) string {
	if len(ws) == 0 {
		return ""
	}
	settings := make([]string, len(ws))
	for i, w := range ws {
		settings[i] = w.Setting
	}
	return fmt.Sprintf("%s asks for %s; not done: %s", FileName, strings.Join(settings, " and "), s.why())
}

// Resolved is the configuration of a review from the files: the user's
// and the repository's.
type Resolved struct {
	// Config is the repository's file with the user's set over it (see
	// fields), the privileged settings of an untrusted repository
	// dropped; nil when neither file exists.
	Config *review.Config
	// Standing is the repository's.
	Standing Standing
	// UserKeys are the keys Config takes from the user's file.
	UserKeys []string
	// Withheld are the repository's settings that were not honoured
	// (see [WithheldLine]).
	Withheld []Withheld
}

// Resolve reads the configuration of the repository at root: its
// .reviewls.yaml (see [Load]) and the user configuration file of userDir
// ("" reads none, and trusts no repository), and drops the privileged
// settings of the repository's file unless the user trusts it.
func Resolve(root, userDir string, knownRules []string) (*Resolved, error) {
	data, ok, err := readRepoFile(root)
	if err != nil {
		return nil, err
	}
	var repo *review.Config
	if ok {
		if repo, _, err = parse(FileName, data, knownRules); err != nil {
			return nil, err
		}
	}
	user, userKeys, err := loadUser(userDir, knownRules)
	if err != nil {
		return nil, err
	}
	res := &Resolved{Standing: NoUserDir}
	if userDir != "" {
		if res.Standing, err = standing(userDir, root, data); err != nil {
			return nil, err
		}
	}
	if asked, keys := asks(repo, userKeys); len(asked) > 0 && res.Standing != Trusted {
		dropped := *repo
		for i, k := range keys {
			fields[k](&dropped, &review.Config{})
			res.Withheld = append(res.Withheld, Withheld{Key: k, Setting: asked[i]})
		}
		repo = &dropped
	}
	res.Config, res.UserKeys = merge(user, userKeys, repo), userKeys
	return res, nil
}

// TrustFileName is the file of trusted repositories in [UserDir].
const TrustFileName = "trusted.json"

// TrustedRepo is a repository the user trusted.
type TrustedRepo struct {
	// Root is the absolute path of its work tree, symbolic links resolved.
	Root string `json:"root"`
	// ConfigSHA256 is the hex SHA-256 of its .reviewls.yaml when trusted
	// (of no bytes when it had none).
	ConfigSHA256 string `json:"config_sha256"`
	// Trusted is when.
	Trusted time.Time `json:"trusted"`
}

// trustFile is the on-disk form of the trusted repositories.
type trustFile struct {
	Version      int           `json:"version"`
	Repositories []TrustedRepo `json:"repositories"`
}

// TrustedRepos returns the repositories the user trusted, as recorded in
// userDir; none when the file does not exist.
func TrustedRepos(userDir string) ([]TrustedRepo, error) {
	name := filepath.Join(userDir, TrustFileName)
	data, err := regular.ReadFileLimit(name, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read trusted repositories: %w", err)
	}
	var f trustFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("read trusted repositories %s: %w (fix or remove the file, then trust the repositories again)", name, err)
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("read trusted repositories %s: version %d, want 1", name, f.Version)
	}
	return f.Repositories, nil
}

// Trust records the repository at root as trusted with its .reviewls.yaml
// as it is now, replacing an earlier record. It returns the record and
// the privileged settings the file asks for (see asks), which the
// repository may now use. A file that cannot be read or parsed is an
// error, and nothing is recorded.
func Trust(userDir, root string, knownRules []string, now time.Time) (TrustedRepo, []string, error) {
	root, err := canonical(root)
	if err != nil {
		return TrustedRepo{}, nil, err
	}
	data, ok, err := readRepoFile(root)
	if err != nil {
		return TrustedRepo{}, nil, err
	}
	var cfg *review.Config
	if ok {
		if cfg, err = Parse(FileName, data, knownRules); err != nil {
			return TrustedRepo{}, nil, err
		}
	}
	repos, err := TrustedRepos(userDir)
	if err != nil {
		return TrustedRepo{}, nil, err
	}
	rec := TrustedRepo{Root: root, ConfigSHA256: hash(data), Trusted: now.UTC().Truncate(time.Second)}
	repos = slices.DeleteFunc(repos, func(r TrustedRepo) bool { return r.Root == root })
	repos = append(repos, rec)
	slices.SortFunc(repos, func(a, b TrustedRepo) int { return strings.Compare(a.Root, b.Root) })
	if err := writeTrusted(userDir, repos); err != nil {
		return TrustedRepo{}, nil, err
	}
	asked, _ := asks(cfg, nil)
	return rec, asked, nil
}

// Revoke removes the repository at root from the trusted ones; it reports
// whether it was there.
func Revoke(userDir, root string) (bool, error) {
	root, err := canonical(root)
	if err != nil {
		return false, err
	}
	repos, err := TrustedRepos(userDir)
	if err != nil {
		return false, err
	}
	n := len(repos)
	repos = slices.DeleteFunc(repos, func(r TrustedRepo) bool { return r.Root == root })
	if len(repos) == n {
		return false, nil
	}
	return true, writeTrusted(userDir, repos)
}

// StandingOf returns where the repository at root stands with the user:
// trusted with its .reviewls.yaml as it is now, changed since, or not
// trusted.
func StandingOf(userDir, root string) (Standing, error) {
	if userDir == "" {
		return NoUserDir, nil
	}
	data, _, err := readRepoFile(root)
	if err != nil {
		return Untrusted, err
	}
	return standing(userDir, root, data)
}

// standing is StandingOf for the repository file's content data.
func standing(userDir, root string, data []byte) (Standing, error) {
	root, err := canonical(root)
	if err != nil {
		return Untrusted, err
	}
	repos, err := TrustedRepos(userDir)
	if err != nil {
		return Untrusted, err
	}
	for _, r := range repos {
		if r.Root != root {
			continue
		}
		if r.ConfigSHA256 == hash(data) {
			return Trusted, nil
		}
		return Changed, nil
	}
	return Untrusted, nil
}

// hash is the hex SHA-256 of a configuration file's content.
func hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// canonical returns root as it is recorded: absolute, symbolic links
// resolved, so that one repository reached by two paths is one record.
func canonical(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("resolve repository root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolve repository root: %w", err)
	}
	return real, nil
}

// writeTrusted replaces the file of trusted repositories with repos,
// atomically, readable by the user alone: the folder is created 0700 and
// the file is 0600.
func writeTrusted(userDir string, repos []TrustedRepo) error {
	if repos == nil {
		repos = []TrustedRepo{}
	}
	data, err := json.MarshalIndent(trustFile{Version: 1, Repositories: repos}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(userDir, 0o700); err != nil {
		return fmt.Errorf("write trusted repositories: %w", err)
	}
	if err := regular.WriteFile(filepath.Join(userDir, TrustFileName), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write trusted repositories: %w", err)
	}
	return nil
}
