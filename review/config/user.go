package config

import (
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/review"
)

// UserFileName is the user's configuration file in [UserDir].
const UserFileName = "config.yaml"

// UserDir returns the user's reviewls configuration folder, which holds
// the user configuration file and the trusted repositories:
// $XDG_CONFIG_HOME/reviewls, by default ~/.config/reviewls (on every
// system, as direnv and mise do, so a dotfiles repository carries it).
// getenv is os.Getenv or a test's stand-in. It returns "" when neither
// variable holds an absolute path (the XDG specification ignores a
// relative one).
func UserDir(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "reviewls")
	}
	home := getenv("HOME")
	if home == "" && runtime.GOOS == "windows" {
		home = getenv("USERPROFILE")
	}
	if filepath.IsAbs(home) {
		return filepath.Join(home, ".config", "reviewls")
	}
	return ""
}

// loadUser reads the user configuration file of dir ("" or a missing
// file: none) and returns it with the keys it sets. The file is the
// user's own: a symbolic link is followed wherever it leads (dotfiles
// managers link it), but it is bounded as a repository's is.
func loadUser(dir string, knownRules []string) (*review.Config, []string, error) {
	if dir == "" {
		return nil, nil, nil
	}
	name := filepath.Join(dir, UserFileName)
	data, err := regular.ReadFileLimit(name, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, readError(name, err)
	}
	return parse(name, data, knownRules)
}

// fields sets one top-level key of dst from src. Merging the user's file
// over a repository's takes each key the user's file sets from it; rules
// are merged rule by rule, the finding caps cap by cap, and the ignore and
// allow-secrets lists add to the repository's. A zero src clears the key:
// how a privileged setting is dropped.
var fields = map[string]func(dst, src *review.Config){
	"profile":      func(d, s *review.Config) { d.Profile = s.Profile },
	"depth":        func(d, s *review.Config) { d.Depth = s.Depth },
	"perspectives": func(d, s *review.Config) { d.Perspectives = s.Perspectives },
	"rules": func(d, s *review.Config) {
		if s.Rules == nil {
			d.Rules = nil
			return
		}
		merged := maps.Clone(d.Rules)
		if merged == nil {
			merged = map[string]review.RuleConfig{}
		}
		maps.Copy(merged, s.Rules)
		d.Rules = merged
	},
	"ignore":          func(d, s *review.Config) { d.Ignore = union(d.Ignore, s.Ignore) },
	"base":            func(d, s *review.Config) { d.Base = s.Base },
	"fail-on":         func(d, s *review.Config) { d.FailOn = s.FailOn },
	"size-cap":        func(d, s *review.Config) { d.SizeCap = s.SizeCap },
	"function-length": func(d, s *review.Config) { d.FunctionLength = s.FunctionLength },
	"allow-secrets":   func(d, s *review.Config) { d.AllowSecrets = union(d.AllowSecrets, s.AllowSecrets) },
	"baseline":        func(d, s *review.Config) { d.Baseline = s.Baseline },
	"analysis":        func(d, s *review.Config) { d.AnalysisBudget = s.AnalysisBudget },
	"commit-reviews":  func(d, s *review.Config) { d.CommitReviews = s.CommitReviews },
	// Whole: the user's mapping is all there is of the model, never a
	// repository's endpoint under the user's name.
	"model":  func(d, s *review.Config) { d.Model = s.Model },
	"policy": func(d, s *review.Config) { d.Policy = s.Policy },
	"gates":  func(d, s *review.Config) { d.Gates = s.Gates },
	"max-findings": func(d, s *review.Config) {
		// Cap by cap: the one the user's file leaves out stays.
		if s.MaxFindings == (review.FindingCaps{}) {
			d.MaxFindings = review.FindingCaps{}
			return
		}
		if s.MaxFindings.PerFile != 0 {
			d.MaxFindings.PerFile = s.MaxFindings.PerFile
		}
		if s.MaxFindings.PerReview != 0 {
			d.MaxFindings.PerReview = s.MaxFindings.PerReview
		}
	},
}

// union returns a's items followed by those of b that a lacks.
func union(a, b []string) []string {
	if b == nil {
		return nil // clearing the key (dropping a privileged setting)
	}
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// merge returns repo with the keys of user set over it (see fields); nil
// when both are nil.
func merge(user *review.Config, userKeys []string, repo *review.Config) *review.Config {
	switch {
	case user == nil:
		return repo
	case repo == nil:
		return user
	}
	out := *repo
	for _, k := range userKeys {
		fields[k](&out, user)
	}
	return &out
}
