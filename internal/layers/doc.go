// Package layers enforces the import rules of docs/architecture.md in a
// test, so a layering mistake fails `go test` even where golangci-lint's
// depguard (configured in .golangci.yml) does not run.
package layers
