// Package review is the model of a reviewls review: what changed
// ([ChangeSet], [File], [Hunk]), what a rule found ([Finding]), the
// change-risk evidence ([Risk]), the orientation state ([BoardItem],
// [Manifest]) and the outcome of a run ([Result]).
//
// The package is a leaf: it imports only the standard library, so every
// stage of the pipeline (review/gitdiff, review/risk, review/lens/...,
// review/process, review/orient) can share these types, and the
// orchestrator in review/engine sits above them all. It knows nothing of
// LSP, JSON-RPC, editors or artifact files.
//
// Positions are 1-based lines and 1-based byte columns; a column of 0 means
// "the whole line". UTF-16 conversion happens only in the language server.
package review
