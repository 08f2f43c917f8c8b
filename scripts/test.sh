#!/usr/bin/env bash
# test.sh: the whole test suite, on a fresh machine: installs what the
# editor tests need, runs the Go tests with the race detector, then the
# end-to-end tests in real editor clients (Neovim, Vim + ALE, Emacs +
# Eglot, a Node LSP client, VS Code in code-server). Exits non-zero when any
# test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. editors/e2e/lib.sh
editors/e2e/deps.sh
# The Go modules first, in one line rather than a "go: downloading" line
# each from go test.
e2e_quietly test.sh go mod download
echo "test.sh: Go modules in the module cache ($e2e_took s)"
# cmd/reviewls (the real binary over the matrix and scripts) takes 3.5
# minutes with -race on 2 cores from empty caches; a busy machine can
# take several times that, so the limit is raised from go test's 10 min.
go test -race -timeout 30m ./...
editors/e2e/run.sh
