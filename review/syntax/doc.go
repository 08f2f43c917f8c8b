// Package syntax holds the language-aware scanners that more than one
// stage reads, memoised on the review.File they scan so a file is scanned
// once per content: the comment scanner (its syntax from the language's
// row of the table in review/language.go), the Python scanner
// ([Python], [ParsePython]) and the markup scanner of HTML, JSX, Vue and
// Svelte ([MarkupFile], [ScanMarkup]). The rules, the risk assessment and the
// orientation read these instead of scanning source themselves.
package syntax
