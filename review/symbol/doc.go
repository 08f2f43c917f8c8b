// Package symbol finds the symbols of a source file, for "Explain symbol"
// and "Investigate" in the review loop: what a changed line belongs to
// ([Enclosing]), what a declaration looks like ([Symbol]: signature, doc,
// fields, methods), how it changed between base and head ([Diff]), what
// it calls and which types it uses ([Calls], [TypesUsed]), and where its
// name is used ([References]).
//
// Go is parsed with go/parser, so its symbols are exact; go/types is not
// used, because without the imported packages it would resolve little
// more than the syntax already says. Python, JavaScript and TypeScript
// (JSX and TSX included), Java and Rust are read by a small tokenizer
// that skips comments and string literals (template substitutions, raw
// strings, lifetimes and regular expressions included) and then by their
// keywords, braces and, for Python, indentation. That is not a full
// parse: it is dependable on real code, and on malformed or half-typed
// code it returns what it can and never panics.
//
// Positions are 1-based lines and 1-based byte columns, as everywhere in
// the review engine. The package keeps no state: every function works on
// the content it is given and is safe for concurrent use.
package symbol
