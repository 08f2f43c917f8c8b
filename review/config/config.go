// Package config reads a repository's .reviewls.yaml into a
// [review.Config]. Unknown keys and bad values are errors that name the key
// and its line, as golangci-lint's config loader does, so a typo never
// silently changes what is reviewed.
//
// The file's schema is schemas/config.v1.schema.json; this package checks
// the same rules by hand so that review stays free of the schema layer.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/reviewls/reviewls/internal/regular"
	"github.com/reviewls/reviewls/internal/suggest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/llm"
)

// FileName is the configuration file at the repository root.
const FileName = ".reviewls.yaml"

// Error is a configuration problem at a line of the file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// MaxSize is the largest configuration file read: a thousand times what
// a long configuration (every rule listed, dozens of ignore globs) takes,
// and small enough that a hostile file costs no memory to speak of.
const MaxSize = 1 << 20

// Load reads <root>/.reviewls.yaml. A missing file is the default
// configuration (nil, nil). knownRules lists the rule ids of the catalog;
// a rule override naming another id is an error.
//
// Load reads it as a repository's file, which is untrusted: it must be a
// regular file of at most [MaxSize] bytes, and a symbolic link out of the
// work tree is refused. It honours every key; [Resolve] is what drops the
// privileged ones of an untrusted repository.
func Load(root string, knownRules []string) (*review.Config, error) {
	data, ok, err := readRepoFile(root)
	if err != nil || !ok {
		return nil, err
	}
	return Parse(FileName, data, knownRules)
}

// readRepoFile reads <root>/.reviewls.yaml as Load does; ok is false when
// there is no such file.
func readRepoFile(root string) (data []byte, ok bool, err error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", FileName, err)
	}
	defer r.Close()
	if fi, err := r.Lstat(FileName); err == nil && fi.Mode()&fs.ModeSymlink != 0 && !linkStaysIn(root, FileName) {
		return nil, false, &Error{File: FileName, Msg: "a symbolic link out of the work tree (refused: the configuration must be the repository's own file)"}
	}
	data, err = regular.ReadFileIn(r, FileName, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, readError(FileName, err)
	}
	return data, true, nil
}

// readError turns the error of reading a configuration file into one
// that names the file and the problem.
func readError(name string, err error) error {
	var nr *regular.Error
	if errors.As(err, &nr) {
		return &Error{File: name, Msg: "not a regular file (" + regular.Kind(nr.Mode) + ")"}
	}
	var se *regular.SizeError
	if errors.As(err, &se) {
		return &Error{File: name, Msg: fmt.Sprintf("larger than %d KiB, the most a configuration file may hold", MaxSize>>10)}
	}
	return fmt.Errorf("read %s: %w", name, err)
}

// linkStaysIn reports whether the symbolic link rel, inside root, leads to
// a path inside root.
func linkStaysIn(root, rel string) bool {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	target, err := filepath.EvalSymlinks(filepath.Join(root, rel))
	if err != nil {
		return true // dangling: reading it finds nothing
	}
	r, err := filepath.Rel(realRoot, target)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// Keys returns the top-level keys in the order of the documentation.
func Keys() []string { return slices.Clone(keys) }

// keys lists the top-level keys in the order of the documentation.
var keys = []string{"profile", "depth", "perspectives", "rules", "ignore", "base", "fail-on", "size-cap", "function-length", "allow-secrets", "baseline", "analysis", "commit-reviews", "max-findings", "model", "policy", "gates"}

// Parse parses configuration data; name is used in errors.
func Parse(name string, data []byte, knownRules []string) (*review.Config, error) {
	cfg, _, err := parse(name, data, knownRules)
	return cfg, err
}

// parse is Parse that also returns the top-level keys the data sets.
func parse(name string, data []byte, knownRules []string) (*review.Config, []string, error) {
	cfg := &review.Config{}
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, nil, nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return cfg, nil, nil
	} else if err != nil {
		return nil, nil, &Error{File: name, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	// Only the first document would be read: a second one, whose keys
	// would silently do nothing, is an error unless it is empty.
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, nil, &Error{File: name, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	case len(next.Content) > 0 && (next.Content[0].Kind != yaml.ScalarNode || next.Content[0].Tag != "!!null" || next.Content[0].Value != ""):
		return nil, nil, &Error{File: name, Line: next.Line, Msg: "a second YAML document: the configuration is one document (merge the two, or remove the ---)"}
	}
	if len(doc.Content) == 0 {
		return cfg, nil, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		// An empty document ("---" and comments) sets nothing, like an
		// empty file; yaml puts its null past the last line.
		return cfg, nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, nil, &Error{File: name, Line: root.Line, Msg: "the configuration must be a mapping of keys to values"}
	}
	p := parser{name: name, known: knownRules}
	seen := map[string]*yaml.Node{}
	var set []string
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] != nil {
			return nil, nil, p.errorf(k, "duplicate key %q", k.Value)
		}
		seen[k.Value] = k
		if err := p.set(cfg, k, v); err != nil {
			return nil, nil, err
		}
		set = append(set, k.Value)
	}
	if err := p.effective(cfg, seen); err != nil {
		return nil, nil, err
	}
	return cfg, set, nil
}

// effective rejects a key that would silently do nothing given the rest
// of the file; keys holds the key nodes by name.
func (p *parser) effective(cfg *review.Config, keys map[string]*yaml.Node) error {
	if k := keys["perspectives"]; k != nil && cfg.Profile != review.ProfileCustom {
		selects := "sets no profile (so standard)"
		if cfg.Profile != "" {
			selects = "selects profile: " + string(cfg.Profile)
		}
		return p.errorf(k, "perspectives: only the custom profile reads them, and this file %s: add profile: custom, or remove perspectives", selects)
	}
	if k := keys["profile"]; k != nil && cfg.Profile == review.ProfileCustom && len(cfg.Perspectives) == 0 {
		return p.errorf(k, "profile: custom needs the perspectives to run: add perspectives: [functional, security, ...]")
	}
	if k := keys["function-length"]; k != nil && cfg.Rule(longFunction).Off {
		return p.errorf(k, "function-length: %s is off under rules, so its threshold does nothing: remove one of the two", longFunction)
	}
	return nil
}

// longFunction is the rule function-length sets the threshold of.
const longFunction = "standards/long-function"

type parser struct {
	name  string
	known []string
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: p.name, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) scalar(k, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", p.errorf(v, "%s: want a single value", k.Value)
	}
	return v.Value, nil
}

func (p *parser) set(cfg *review.Config, k, v *yaml.Node) error {
	var err error
	switch k.Value {
	case "profile":
		var s string
		if s, err = p.scalar(k, v); err == nil {
			if cfg.Profile, err = review.ParseProfile(s); err != nil {
				return p.errorf(v, "profile: %v", err)
			}
		}
	case "depth":
		var s string
		if s, err = p.scalar(k, v); err == nil {
			if cfg.Depth, err = review.ParseDepth(s); err != nil {
				return p.errorf(v, "depth: %v", err)
			}
		}
	case "perspectives":
		var list []string
		if list, err = p.list(k, v); err == nil {
			set := map[review.Perspective]bool{}
			for i, s := range list {
				ps, perr := review.ParsePerspective(s)
				if perr != nil {
					return p.errorf(v.Content[i], "perspectives: %v", perr)
				}
				set[ps] = true
			}
			cfg.Perspectives = review.SortPerspectives(set)
		}
	case "rules":
		err = p.rules(cfg, k, v)
	case "ignore":
		var list []string
		if list, err = p.list(k, v); err == nil {
			for i, g := range list {
				if !doublestar.ValidatePattern(g) {
					return p.errorf(v.Content[i], "ignore: invalid glob %q", g)
				}
			}
			cfg.Ignore = list
		}
	case "base":
		if cfg.Base, err = p.scalar(k, v); err == nil && strings.TrimSpace(cfg.Base) == "" {
			return p.errorf(v, "base: want a branch or ref name")
		}
	case "fail-on":
		var s string
		if s, err = p.scalar(k, v); err == nil {
			if cfg.FailOn, err = review.ParseFailOn(strings.ToLower(s)); err != nil {
				return p.errorf(v, "fail-on: %v", err)
			}
		}
	case "size-cap":
		var s string
		if s, err = p.scalar(k, v); err == nil {
			if cfg.SizeCap, err = parseSize(s); err != nil {
				return p.errorf(v, "size-cap: %v", err)
			}
		}
	case "function-length":
		var s string
		if s, err = p.scalar(k, v); err == nil {
			n, cerr := strconv.Atoi(s)
			if cerr != nil || n < 1 {
				return p.errorf(v, "function-length: want a positive number of lines, got %q", s)
			}
			cfg.FunctionLength = n
		}
	case "allow-secrets":
		err = p.allowSecrets(cfg, k, v)
	case "baseline":
		var s string
		if s, err = p.scalar(k, v); err == nil {
			clean := path.Clean(strings.ReplaceAll(s, "\\", "/"))
			if strings.TrimSpace(s) == "" || path.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
				return p.errorf(v, "baseline: want a file path inside the repository, got %q", s)
			}
			if review.InGitDir(clean) {
				return p.errorf(v, "baseline: want a file path outside .git/, got %q (git's own files are never a baseline)", s)
			}
			cfg.Baseline = clean
		}
	case "analysis":
		err = p.analysis(cfg, k, v)
	case "commit-reviews":
		var s string
		if s, err = p.scalar(k, v); err == nil {
			switch {
			case v.ShortTag() == "!!bool" && strings.EqualFold(s, "true"):
				cfg.CommitReviews = true
			case v.ShortTag() == "!!bool" && strings.EqualFold(s, "false"):
			default:
				return p.errorf(v, "commit-reviews: want true or false, got %q", s)
			}
		}
	case "max-findings":
		err = p.maxFindings(cfg, v)
	case "model":
		err = p.model(cfg, v)
	case "policy":
		err = p.policy(cfg, v)
	case "gates":
		err = p.gates(cfg, v)
	default:
		if s := suggest.Closest(k.Value, keys); s != "" {
			return p.errorf(k, "unknown key %q: did you mean %q? (known keys: %s)", k.Value, s, strings.Join(keys, ", "))
		}
		return p.errorf(k, "unknown key %q (known keys: %s)", k.Value, strings.Join(keys, ", "))
	}
	return err
}

func (p *parser) list(k, v *yaml.Node) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v, "%s: want a list", k.Value)
	}
	out := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Value == "" {
			return nil, p.errorf(item, "%s: want a list of names", k.Value)
		}
		out = append(out, item.Value)
	}
	return out, nil
}

// mapping calls each with the keys of the mapping v, the value of the key
// name, and their values, in order: a key not in known, or one given
// twice, is an error. The caller checks that v is a mapping.
func (p *parser) mapping(name string, v *yaml.Node, known []string, each func(key string, val *yaml.Node) error) error {
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		key, val := v.Content[i], v.Content[i+1]
		if !slices.Contains(known, key.Value) {
			return p.errorf(key, "%s: unknown key %q (known keys: %s)", name, key.Value, strings.Join(known, ", "))
		}
		if seen[key.Value] {
			return p.errorf(key, "%s: duplicate key %q", name, key.Value)
		}
		seen[key.Value] = true
		if err := each(key.Value, val); err != nil {
			return err
		}
	}
	return nil
}

// rules parses "rules: {<rule-id>: off|critical|high|medium|low}".
func (p *parser) rules(cfg *review.Config, k, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return p.errorf(v, "rules: want a mapping of rule ids to off or a severity")
	}
	cfg.Rules = map[string]review.RuleConfig{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		id, val := v.Content[i], v.Content[i+1]
		if p.known != nil && !slices.Contains(p.known, id.Value) {
			return p.errorf(id, "rules: unknown rule %q (run `reviewls rules` for the catalog)", id.Value)
		}
		if val.Kind != yaml.ScalarNode {
			return p.errorf(val, "rules.%s: want off or a severity", id.Value)
		}
		// YAML 1.1 readers see a bare off as false; accept both spellings.
		var rc review.RuleConfig
		switch s := strings.ToLower(val.Value); s {
		case "off", "false", "disabled":
			rc.Off = true
		default:
			sev, err := review.ParseSeverity(s)
			if err != nil {
				return p.errorf(val, "rules.%s: want off, critical, high, medium or low, got %q", id.Value, val.Value)
			}
			rc.Severity = sev
		}
		// The secret gate is not the configuration's to turn off: a known
		// value is let through by its fingerprint, never by the rule.
		if review.IsSecretRule(id.Value) && (rc.Off || rc.Severity < review.SecretSeverityFloor) {
			return p.errorf(val, "rules.%s: a secret rule cannot be turned off or set below %s (every review checks for secrets): to let a known value through, list its fingerprint under allow-secrets",
				id.Value, review.SecretSeverityFloor.Lower())
		}
		cfg.Rules[id.Value] = rc
	}
	return nil
}

// analysis parses "analysis: {budget: 5s}": the time the type-aware
// analysis may take, which lets it run at the recommended comprehensive
// depth too.
func (p *parser) analysis(cfg *review.Config, k, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return p.errorf(v, "analysis: want a mapping such as {budget: 5s}")
	}
	return p.mapping("analysis", v, []string{"budget"}, func(_ string, val *yaml.Node) error {
		if val.Kind != yaml.ScalarNode {
			return p.errorf(val, "analysis.budget: want a duration such as 5s or 1m")
		}
		d, err := time.ParseDuration(val.Value)
		if err != nil || d <= 0 {
			return p.errorf(val, "analysis.budget: want a positive duration such as 5s or 1m, got %q", val.Value)
		}
		cfg.AnalysisBudget = d
		return nil
	})
}

// modelKeys are the keys of the model mapping, in the order of the
// documentation.
var modelKeys = []string{"endpoint", "name", "api-key-env", "timeout", "max-findings", "context", "exclude", "allow-remote", "blocking", "stream", "transcript", "replay", "trigger"}

// envName is the name of an environment variable.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// model parses "model: {endpoint: http://127.0.0.1:11434/v1, name:
// qwen2.5-coder:7b, ...}": the model reviewer.
func (p *parser) model(cfg *review.Config, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return p.errorf(v, "model: want a mapping such as {endpoint: http://127.0.0.1:11434/v1, name: qwen2.5-coder:7b}")
	}
	m := &review.ModelConfig{}
	values := map[string]*yaml.Node{} // for the errors below
	if err := p.mapping("model", v, modelKeys, func(key string, val *yaml.Node) error {
		values[key] = val
		return p.modelKey(m, key, val)
	}); err != nil {
		return err
	}
	if m.Endpoint != "" && !m.AllowRemote {
		if ep, _ := llm.ParseEndpoint(m.Endpoint); !ep.Loopback {
			return p.errorf(values["endpoint"], "model.endpoint: %s is not on this machine: set allow-remote: true to send code to it", ep.Host)
		}
	}
	if m.Replay && m.Transcript == "" {
		return p.errorf(values["replay"], "model.replay: replay reads the answers from a transcript folder: set transcript too")
	}
	cfg.Model = m
	return nil
}

// modelKey parses one key of the model mapping into m.
func (p *parser) modelKey(m *review.ModelConfig, key string, v *yaml.Node) error {
	if key == "exclude" {
		list, err := p.list(&yaml.Node{Value: "model.exclude"}, v)
		if err != nil {
			return err
		}
		for i, g := range list {
			if !doublestar.ValidatePattern(g) {
				return p.errorf(v.Content[i], "model.exclude: invalid glob %q", g)
			}
		}
		m.Exclude = list
		return nil
	}
	if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
		return p.errorf(v, "model.%s: want a single value", key)
	}
	s := strings.TrimSpace(v.Value)
	flag := func(dst *bool) error {
		if v.ShortTag() != "!!bool" {
			return p.errorf(v, "model.%s: want true or false, got %q", key, s)
		}
		*dst = strings.EqualFold(s, "true")
		return nil
	}
	count := func(dst *int, what string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return p.errorf(v, "model.%s: want a positive number of %s, got %q", key, what, s)
		}
		*dst = n
		return nil
	}
	switch key {
	case "endpoint":
		if _, err := llm.ParseEndpoint(s); err != nil {
			return p.errorf(v, "model.endpoint: %v", err)
		}
		m.Endpoint = s
	case "name":
		m.Name = s
	case "api-key-env":
		if !envName.MatchString(s) {
			// Never echo it: it may be the key itself.
			return p.errorf(v, "model.api-key-env: want the name of the environment variable that holds the key, got %s (never the key itself)", review.Redact(s))
		}
		m.APIKeyEnv = s
	case "timeout":
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return p.errorf(v, "model.timeout: want a positive duration such as 30s or 2m, got %q", s)
		}
		m.Timeout = d
	case "max-findings":
		return count(&m.MaxFindings, "findings")
	case "context":
		return count(&m.Context, "tokens")
	case "allow-remote":
		return flag(&m.AllowRemote)
	case "blocking":
		return flag(&m.Blocking)
	case "stream":
		return flag(&m.Stream)
	case "replay":
		return flag(&m.Replay)
	case "transcript":
		m.Transcript = s
	case "trigger":
		t, err := review.ParseModelTrigger(s)
		if err != nil {
			return p.errorf(v, "model.trigger: %v", err)
		}
		m.Trigger = t
	}
	return nil
}

// maxFindings parses "max-findings: {per-file: 50, per-review: 1000}":
// the finding caps, 0 meaning none; a key left out keeps its default.
func (p *parser) maxFindings(cfg *review.Config, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return p.errorf(v, "max-findings: want a mapping such as {per-file: 50, per-review: 1000}")
	}
	return p.mapping("max-findings", v, []string{"per-file", "per-review"}, func(key string, val *yaml.Node) error {
		n, err := strconv.Atoi(val.Value)
		if val.Kind != yaml.ScalarNode || err != nil || n < 0 {
			return p.errorf(val, "max-findings.%s: want a number of findings (0: no cap), got %q", key, val.Value)
		}
		if n == 0 {
			n = -1 // no cap; 0 in review.FindingCaps is the default
		}
		if key == "per-file" {
			cfg.MaxFindings.PerFile = n
		} else {
			cfg.MaxFindings.PerReview = n
		}
		return nil
	})
}

// policy parses "policy: {forbidden-paths: [...], forbidden-imports:
// [...], forbidden-dependencies: [...]}": what no change may add.
func (p *parser) policy(cfg *review.Config, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return p.errorf(v, "policy: want a mapping such as {forbidden-imports: [github.com/pkg/errors]}")
	}
	known := []string{"forbidden-paths", "forbidden-imports", "forbidden-dependencies"}
	return p.mapping("policy", v, known, func(key string, val *yaml.Node) error {
		list, err := p.list(&yaml.Node{Value: "policy." + key}, val)
		if err != nil {
			return err
		}
		switch key {
		case "forbidden-paths":
			for i, g := range list {
				if !doublestar.ValidatePattern(g) {
					return p.errorf(val.Content[i], "policy.forbidden-paths: invalid glob %q", g)
				}
			}
			cfg.Policy.Paths = list
		case "forbidden-imports":
			cfg.Policy.Imports = list
		case "forbidden-dependencies":
			cfg.Policy.Dependencies = list
		}
		return nil
	})
}

// gates parses "gates: [go test ./..., {name: lint, run: golangci-lint
// run, timeout: 5m}]": the project's own checks, run on request only.
func (p *parser) gates(cfg *review.Config, v *yaml.Node) error {
	if v.Kind != yaml.SequenceNode {
		return p.errorf(v, "gates: want a list of commands such as [go test ./...]")
	}
	names := map[string]bool{}
	cfg.Gates = []review.Gate{}
	for _, item := range v.Content {
		var g review.Gate
		switch item.Kind {
		case yaml.ScalarNode:
			g.Command = strings.TrimSpace(item.Value)
		case yaml.MappingNode:
			err := p.mapping("gates", item, []string{"run", "name", "timeout"}, func(key string, val *yaml.Node) error {
				if val.Kind != yaml.ScalarNode {
					return p.errorf(val, "gates.%s: want a single value", key)
				}
				switch key {
				case "run":
					g.Command = strings.TrimSpace(val.Value)
				case "name":
					g.Name = strings.TrimSpace(val.Value)
				case "timeout":
					d, err := time.ParseDuration(val.Value)
					if err != nil || d <= 0 {
						return p.errorf(val, "gates.timeout: want a positive duration such as 5m, got %q", val.Value)
					}
					g.Timeout = d
				}
				return nil
			})
			if err != nil {
				return err
			}
		default:
			return p.errorf(item, "gates: want a command or a mapping {run: ..., name: ..., timeout: ...}")
		}
		if g.Command == "" {
			return p.errorf(item, "gates: a gate needs a command (run: go test ./...)")
		}
		if g.Name == "" {
			g.Name = g.Command
		}
		if names[g.Name] {
			return p.errorf(item, "gates: two gates named %q", g.Name)
		}
		names[g.Name] = true
		cfg.Gates = append(cfg.Gates, g)
	}
	return nil
}

// fingerprintRE is a secret fingerprint as review.Finding.SecretFingerprint
// prints it: "<rule-id>:<path>:<16 hex digits>".
var fingerprintRE = regexp.MustCompile(`^([a-z]+/[a-z0-9-]+):(.+):([0-9a-f]{16})$`)

// allowSecrets parses "allow-secrets: [<fingerprint>, ...]": the secrets
// let through the gate, each named by the fingerprint a blocked run
// printed, never by its value.
func (p *parser) allowSecrets(cfg *review.Config, k, v *yaml.Node) error {
	list, err := p.list(k, v)
	if err != nil {
		return err
	}
	for i, fp := range list {
		m := fingerprintRE.FindStringSubmatch(fp)
		if m == nil {
			return p.errorf(v.Content[i], "allow-secrets: %q is not a secret fingerprint (want <rule-id>:<path>:<16 hex digits>, as a blocked review prints it)", review.Redact(fp))
		}
		if p.known != nil && !slices.Contains(p.known, m[1]) {
			return p.errorf(v.Content[i], "allow-secrets: unknown rule %q (run `reviewls rules` for the catalog)", m[1])
		}
		if !review.IsSecretRule(m[1]) {
			return p.errorf(v.Content[i], "allow-secrets: %s finds no secrets, so this entry would allow nothing (the secret rules are %s)", m[1], strings.Join(review.SecretRules, ", "))
		}
	}
	cfg.AllowSecrets = list
	return nil
}

// parseSize parses a byte count: 1048576, 512KiB, 2MiB, 1MB.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}} {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("want a positive size such as 1048576, 512KiB or 2MiB")
	}
	return n * mult, nil
}
