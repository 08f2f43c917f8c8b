package security

import (
	"context"
	"strings"
	"sync"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens"
)

// secretLens runs the two secret rules, and only them, for [Secrets].
var secretLens = sync.OnceValue(func() review.Lens {
	return lens.New(review.Security, HardcodedSecret, GenericSecret)
})

// Secrets returns the raw secret values that security/hardcoded-secret and
// security/generic-secret recognise anywhere in text, read as the content
// of a file at path (the path picks the language, which decides how values
// are found; "" reads text as configuration, the widest reading). Every
// line counts, not only changed ones: it is the detector behind the
// redactor, run over what leaves the process besides added lines — removed
// and context lines, quoted code, names, messages. Findings are not
// produced and the user's configuration does not apply: redaction never
// turns off.
func Secrets(path, text string) []string {
	if !mayHoldSecret(text) {
		return nil
	}
	content := []byte(text)
	f := &review.File{Path: path, Status: review.StatusUntracked, Content: content, Lines: map[int]review.LineState{}}
	if path != "" {
		f.Language = review.DetectLanguage(path, content)
	}
	for i := range lens.SplitLines(content) {
		f.Lines[i+1] = review.LineUntracked
	}
	cs := &review.ChangeSet{Files: []*review.File{f}}
	found, _ := secretLens().Check(context.Background(), cs, nil, review.CheckOptions{Depth: review.DepthBasic})
	var out []string
	for _, fd := range found {
		out = append(out, fd.Secrets...)
	}
	return out
}

// Find returns the raw secret values in text that is not a file's content:
// a branch or file name, a commit message, a rendered document, a log
// line. It is a [review.Detector].
func Find(text string) []string { return Secrets("", text) }

// minSecret is the length of the shortest value either rule reports (a
// password of a URL or a secret-named key, eight characters); a text
// without a run of token characters that long holds no secret, which
// spares almost every short string the rules' set-up.
const minSecret = 8

// mayHoldSecret reports whether text has a run of at least minSecret
// characters other than white space and ASCII punctuation that delimits
// values.
func mayHoldSecret(text string) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		if strings.IndexByte(" \t\r\n\"'`,;()[]{}<>|", text[i]) >= 0 {
			run = 0
			continue
		}
		if run++; run >= minSecret {
			return true
		}
	}
	return false
}
