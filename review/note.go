package review

import "fmt"

// NoteKind classifies a review-level note.
type NoteKind string

// Note kinds. Each whole-change rule produces notes of one kind.
const (
	// NoteMissingTests: source code changed while no test of its language
	// did (a testing recommendation).
	NoteMissingTests NoteKind = "missing-tests"
	// NoteUndocumentedAPI: a library's public API, flags, routes or
	// configuration changed while no documentation did (a recommended
	// action).
	NoteUndocumentedAPI NoteKind = "undocumented-api"
)

// Valid reports whether k is a known note kind.
func (k NoteKind) Valid() bool { return k == NoteMissingTests || k == NoteUndocumentedAPI }

// Testing reports whether notes of kind k are testing recommendations
// (hve-spec §8.1 testing_recommendations); the others are recommended
// actions.
func (k NoteKind) Testing() bool { return k == NoteMissingTests }

// String returns the kind's name.
func (k NoteKind) String() string { return string(k) }

// Note is a review-level observation about the change as a whole, such as
// missing tests or undocumented public changes. It is not a line finding:
// it cites no line, has no severity, never counts towards the verdict or a
// gate, and is never a diagnostic on a line. The report lists it under
// testing recommendations or recommended actions, by kind.
type Note struct {
	Kind NoteKind
	// Rule is the id of the rule that produced the note.
	Rule        string
	Perspective Perspective
	// Message says what was observed and why it matters, in one or two
	// sentences; Suggested says what to do.
	Message   string
	Suggested string
	// Paths are the changed files the note is about, sorted.
	Paths []string
}

// Text renders the note as one report line: the message, then what to do.
func (n Note) Text() string {
	if n.Suggested == "" {
		return n.Message
	}
	return fmt.Sprintf("%s %s", n.Message, n.Suggested)
}
