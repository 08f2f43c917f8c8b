package engine

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/secret"
)

// The rules see only added lines, but the outputs quote more: the removed
// and context lines of every hunk (pr-reference.xml), file and branch
// names, commit subjects. redactor runs the secret detector over those
// texts, so the run's redactor knows their secrets too, and gives it the
// detector for the texts built later (explanations, investigations, logs).
// Added lines are left to the rules and to the detector's final pass at
// each writer.

// redactor returns the run's redactor: the findings' secrets, those the
// detector finds in what the outputs quote besides added lines, and the
// detector itself.
func (e *Engine) redactor(t review.Target, cs *review.ChangeSet, hist *review.History, raw []*review.Finding) *review.Redactor {
	var secrets []string
	for _, f := range raw {
		secrets = append(secrets, f.Secrets...)
	}
	secrets = append(secrets, secret.Find(strings.Join([]string{t.Branch, t.BaseRef, t.HeadRef}, "\n"))...)
	if cs != nil {
		for _, f := range cs.Files {
			secrets = append(secrets, quotedOf(f).secrets...)
		}
	}
	if hist != nil {
		secrets = append(secrets, e.subjectSecrets(hist.Commits)...)
	}
	return review.NewRedactor(secrets).WithDetector(secret.Find)
}

// subjectSecrets returns the secrets in the subjects of commits, detected
// once per commit. Requires e.mu.
func (e *Engine) subjectSecrets(commits []review.Commit) []string {
	if e.subjects == nil {
		e.subjects = map[string][]string{}
	}
	var out []string
	for _, c := range commits {
		s, ok := e.subjects[c.Hash]
		if !ok {
			s = secret.Find(c.Subject + "\n" + c.Author)
			e.subjects[c.Hash] = s
		}
		out = append(out, s...)
	}
	return out
}

// quotedOnFile memoises a file's quoted secrets on the file, so an
// incremental run detects only in the files it re-diffed.
var quotedOnFile review.Memo[*quoted]

// quoted is what the detector found in the parts of one changed file that
// the outputs quote besides its added lines.
type quoted struct {
	secrets []string
	// removed are secrets of removed lines that the new content no longer
	// holds; context those of the unchanged lines around the change.
	removed, context []lineSecret
}

// lineSecret is a secret and the line it was found on.
type lineSecret struct {
	line  int // in the base version for removed lines, in the new one for context lines
	value string
}

func quotedOf(f *review.File) *quoted {
	return quotedOnFile.Of(f, func() *quoted { return detectQuoted(f) })
}

// detectQuoted runs the detector over a file's names and the removed and
// context lines of its hunks, each side read as the file it comes from.
func detectQuoted(f *review.File) *quoted {
	q := &quoted{secrets: secret.Find(f.Path + "\n" + f.OldPath)}
	if f.Skip != "" {
		return q // only the name is quoted
	}
	var removed, context side
	for _, h := range f.Hunks {
		oldN, newN := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			if l == "" {
				continue
			}
			switch l[0] {
			case ' ':
				context.add(l[1:], newN)
				oldN++
				newN++
			case '-':
				removed.add(l[1:], oldN)
				oldN++
			case '+':
				newN++
			}
		}
	}
	oldPath := f.Path
	if f.OldPath != "" {
		oldPath = f.OldPath
	}
	for _, h := range secret.ScanText(oldPath, removed.text.String()) {
		q.secrets = append(q.secrets, h.Values...)
		if v, gone := goneFrom(f.Content, h.Values); gone {
			q.removed = append(q.removed, lineSecret{removed.lineOf(v), v})
		}
	}
	for _, v := range secret.Values(f.Path, context.text.String()) {
		q.secrets = append(q.secrets, v)
		q.context = append(q.context, lineSecret{context.lineOf(v), v})
	}
	q.keyBlocks(f, removed.text.String())
	return q
}

// keyBlocks adds the key material of the private key blocks of both
// versions of f. The hunks may cut a block — a key replaced in place keeps
// its BEGIN and END lines, which then are no lines of the diff, or far
// from it — so the lines of key material a diff quotes are recognised by
// reading the blocks of the whole versions. A block of the base version
// whose key the new content no longer holds is a removed secret.
func (q *quoted) keyBlocks(f *review.File, removed string) {
	const marker = "PRIVATE KEY"
	inNew := bytes.Contains(f.Content, []byte(marker))
	if inNew {
		for _, h := range secret.KeyBlocks(f.TextLines()) {
			q.secrets = append(q.secrets, h.Values...)
		}
	}
	if !inNew && !strings.Contains(removed, marker) {
		return // neither version holds a block: its marker would be in one or the other
	}
	old, ok := lens.OldContent(f)
	if !ok {
		return
	}
	for _, h := range secret.KeyBlocks(review.SplitLines(old)) {
		q.secrets = append(q.secrets, h.Values...)
		if v, gone := goneFrom(f.Content, h.Values); gone {
			q.removed = append(q.removed, lineSecret{h.Line, v})
		}
	}
}

// goneFrom returns the first of values that content no longer holds.
func goneFrom(content []byte, values []string) (string, bool) {
	for _, v := range values {
		if !bytes.Contains(content, []byte(v)) {
			return v, true
		}
	}
	return "", false
}

// side collects the lines of one kind from a file's hunks.
type side struct {
	text  strings.Builder
	lines []string
	nums  []int
}

func (s *side) add(line string, n int) {
	s.text.WriteString(line)
	s.text.WriteByte('\n')
	s.lines = append(s.lines, line)
	s.nums = append(s.nums, n)
}

// lineOf returns the number of the first line holding v.
func (s *side) lineOf(v string) int {
	for i, l := range s.lines {
		if strings.Contains(l, v) {
			return s.nums[i]
		}
	}
	return 0
}

// secretNotes returns the review-level notes on secrets that are not
// findings of this review: a secret the change removes is not introduced
// by it, but it stays in the repository's history and must be rotated (a
// recommended action); a secret on an unchanged line shown around the
// change predates it (an out-of-scope observation). Neither affects the
// verdict. Values appear only redacted.
func secretNotes(cs *review.ChangeSet) (actions []string, observations []review.Observation) {
	for _, f := range cs.Files {
		q := quotedOf(f)
		seen := map[string]bool{}
		for _, s := range q.removed {
			if seen[s.value] {
				continue
			}
			seen[s.value] = true
			actions = append(actions, fmt.Sprintf("Rotate the credential %s that the change removes from %s (line %d of the base version): "+
				"it stays readable in the repository's history.", review.Redact(s.value), f.Path, s.line))
		}
		for _, s := range q.context {
			if seen[s.value] {
				continue
			}
			seen[s.value] = true
			observations = append(observations, review.Observation{File: f.Path, Observation: fmt.Sprintf(
				"Unchanged line %d holds a hardcoded credential (%s) that predates this change; rotate it and load it from the environment or a secret manager.",
				s.line, review.Redact(s.value))})
		}
	}
	return actions, observations
}

// dropQuotingFixes removes the fixes whose new text would carry a secret:
// an edit is sent to the editor and printed in SARIF, and redacting its
// text would write the redacted form into the user's file. The finding
// stays; only its machine-applicable fix goes. Findings are shared with
// earlier results (the per-file cache), so a finding is replaced by a
// copy, never changed.
func dropQuotingFixes(findings []*review.Finding, r *review.Redactor) {
	for i, f := range findings {
		if f.Fix == nil {
			continue
		}
		for _, e := range f.Fix.Edits {
			if r.String(e.NewText) != e.NewText {
				c := *f
				c.Fix = nil
				findings[i] = &c
				break
			}
		}
	}
}

// NewRedactor returns a redactor that knows no secret yet and finds them
// with the secret rules' detector in whatever it redacts: for the front
// ends' own output (logs, messages) outside a review's result.
func NewRedactor() *review.Redactor { return review.NewRedactor(nil).WithDetector(secret.Find) }
