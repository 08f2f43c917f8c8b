package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/engine"
)

// modelFlags are the review's model reviewer flags: the user's settings
// of this run, over the `model:` of the configuration files.
type modelFlags struct {
	name, endpoint, transcript *string
	replay, off                *bool
}

func addModelFlags(fs *flag.FlagSet) *modelFlags {
	return &modelFlags{
		name:       fs.String("model", "", "ask the model reviewer `NAME` for candidates after the rules, at the endpoint of your configuration or --model-endpoint (docs/model.md)"),
		endpoint:   fs.String("model-endpoint", "", "the model's OpenAI-compatible base `URL` (Ollama: http://127.0.0.1:11434/v1)"),
		transcript: fs.String("model-transcript", "", "record every model request and answer in `DIR`"),
		replay:     fs.Bool("model-replay", false, "answer the model's requests from the --model-transcript folder, asking nothing"),
		off:        fs.Bool("no-model", false, "do not ask the model reviewer, whatever the configuration says"),
	}
}

// set reports whether a flag other than --no-model asks for the model.
func (m *modelFlags) set() bool {
	return *m.name != "" || *m.endpoint != "" || *m.transcript != "" || *m.replay
}

// options puts the flags into the engine's options; the error names a
// bad combination.
func (m *modelFlags) options(o *engine.Options) error {
	if *m.off {
		if m.set() {
			return errors.New("--no-model cannot be combined with the other --model flags")
		}
		o.NoModel = true
		return nil
	}
	if !m.set() {
		return nil
	}
	mc := &review.ModelConfig{Name: *m.name, Endpoint: *m.endpoint, Replay: *m.replay}
	if *m.transcript != "" {
		// The flag names a folder from here, not from the repository.
		abs, err := filepath.Abs(*m.transcript)
		if err != nil {
			return fmt.Errorf("--model-transcript: %w", err)
		}
		mc.Transcript = abs
	}
	o.Model = mc
	return nil
}

// check says, for a run whose flags ask for the model, why the settings
// in effect cannot be used.
func (m *modelFlags) check(eng *engine.Engine) error {
	if !m.set() {
		return nil
	}
	mc, err := eng.ModelSettings()
	switch {
	case mc == nil:
		return errors.New("--model: no model to ask: pass --model NAME and --model-endpoint URL, or set model: in your configuration")
	case err != nil:
		return fmt.Errorf("--model: %w", err)
	}
	return nil
}

// modelMode is what a review asks of the model: a pre-commit hook asks it
// only when its findings may block the commit, which would otherwise wait
// for an answer that changes nothing.
func modelMode(eng *engine.Engine, hook bool) review.ModelMode {
	mc, _ := eng.ModelSettings()
	if mc == nil || hook && !mc.Blocking {
		return review.ModelNone
	}
	return review.ModelAsk
}

// askModel runs the model review res left pending, after the rules, with
// its progress report ("asking <model> at <host>"; forced reports it off a
// terminal), and says the one line of a run that sends code off the
// machine before it does.
func askModel(ctx context.Context, e *env, eng *engine.Engine, res *review.Result, forced bool) (*review.Result, error) {
	if res.Model.State != review.ModelPending {
		return res, nil
	}
	if n := res.Model.Notice; n != "" {
		fmt.Fprintf(e.stderr, "reviewls: %s\n", n)
	}
	prog := startProgress(e.stderr, forced, fmt.Sprintf("asking %s at %s", res.Model.Model, res.Model.Host))
	defer prog.Stop()
	return eng.ModelReview(ctx, res)
}

// modelLine is the model review's line of the report: the ledger's
// summary, or why it did not run; "" when it is off.
func modelLine(res *review.Result) string {
	line := res.Model.String()
	if line == "" {
		return ""
	}
	if n := res.AdvisoryCount(); n > 0 {
		line += fmt.Sprintf("; %s advisory: the verdict and --fail-on leave model findings out (set model.blocking to count them)", plural(n, "model finding"))
	}
	return line
}
