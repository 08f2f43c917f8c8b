package security

import (
	"fmt"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
	"github.com/reviewls/reviewls/review/secret"
)

// The two secret rules are the voice of review/secret: it finds, they
// word the findings. report turns one hit into the report of its rule.

const rotateSuggestion = "Remove the value, load it from the environment or a secret manager at run time, and rotate the exposed credential."

// report words hit as its rule reports it; the value shows only redacted.
func report(h secret.Hit) lens.Report {
	r := lens.Report{Line: h.Line, Col: h.From + 1, EndCol: h.To + 1, Severity: h.Severity, Confidence: h.Confidence,
		Suggested: rotateSuggestion, Secrets: h.Values}
	value := ""
	if len(h.Values) > 0 {
		value = review.Redact(h.Values[len(h.Values)-1])
	}
	switch {
	case h.EndLine > 0: // a private key block
		r.EndLine, r.EndCol = h.EndLine, 0
		r.Title = "Hardcoded private key"
		r.Message = fmt.Sprintf("A private key block (%d lines of key material) is committed to source. Whoever reads "+
			"the repository can impersonate its owner or decrypt its traffic.", len(h.Values))
		r.Suggested = "Remove the key from the repository, load it from a secret store or a file outside the tree, and replace the compromised key pair."
	case h.URL != nil:
		u := h.URL
		title, target := "URL with an inline password", "the account"
		if u.Database {
			title, target = "Database URL with an inline password", "the database"
		}
		user := ""
		if u.User != "" {
			user = fmt.Sprintf(" for user %q", u.User)
		}
		r.Title = title
		r.Message = fmt.Sprintf("The %s URL for %s embeds the password %s%s. Anyone who can read the repository or its "+
			"history can use %s until the password is changed.", u.Scheme, u.Host, value, user, target)
		r.Suggested = "Build the URL at run time from a password held in the environment or a secret manager, and change the exposed password."
	case h.Key != "":
		r.Title = fmt.Sprintf("Possible hardcoded secret in %s", h.Key)
		r.Symbol = h.Key
		r.Message = fmt.Sprintf("%s is assigned %s, which %s. Anyone who can read the repository or its "+
			"history can use it until it is rotated.", h.Key, value, h.Why)
		r.Suggested = "Load the value from the environment or a secret manager at run time (os.Getenv, process.env, a mounted secret), and rotate the exposed value."
	case h.Class == secret.Fixed:
		r.Title = "Hardcoded " + h.Kind
		r.Message = fmt.Sprintf("%s %s is hardcoded. Anyone who can read the repository or its history can use "+
			"it until it is rotated.", h.Kind, value)
	default:
		r.Title = "Hardcoded " + h.Kind
		r.Message = fmt.Sprintf("%s %s is hardcoded. Anyone who can read the repository or its history "+
			"can use it until it is rotated.", article(h.Kind), value)
	}
	return r
}

// UnreadFindings returns the findings of security/hardcoded-secret and
// security/generic-secret for the hits of a scan of f, a changed file
// whose content the review does not read (why says why: its skip
// reason), as the rules would report them, with the reason in the
// message. Each cites the excerpt of its hit; state is the state of each
// hit's line. Rules turned off in cfg report nothing, and cfg's
// severities apply.
func UnreadFindings(f *review.File, why string, hits []secret.Hit, state review.LineState, cfg *review.Config) []*review.Finding {
	if len(hits) == 0 {
		return nil // most unread files: no set-up
	}
	stub := &review.File{Path: f.Path, Status: f.Status, Language: f.Language, Lines: map[int]review.LineState{}}
	passes := map[secret.Class]*lens.Pass{}
	for _, rule := range []*lens.Rule{HardcodedSecret, GenericSecret} {
		if !cfg.Rule(rule.ID).Off {
			class := secret.Fixed
			if rule == GenericSecret {
				class = secret.Generic
			}
			passes[class] = &lens.Pass{Rule: rule, File: stub, Config: cfg}
		}
	}
	var out []*review.Finding
	for _, h := range hits {
		p := passes[h.Class]
		if p == nil {
			continue
		}
		stub.Lines[h.Line] = state
		r := report(h)
		r.Code = h.Excerpt
		r.Message += fmt.Sprintf(" The review does not read %s (%s); the secret scan of every changed file found this.", f.Path, why)
		p.Report(r)
	}
	for _, class := range []secret.Class{secret.Fixed, secret.Generic} {
		if p := passes[class]; p != nil {
			out = append(out, p.Findings()...)
		}
	}
	return out
}
