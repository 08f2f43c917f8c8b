#!/usr/bin/env bash
# Measures the language server's save-to-diagnostics latency, initial
# review time and peak RSS on generated repositories (see bench/lspbench).
# Prints a markdown table; docs/performance.md holds the latest one.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/reviewls
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/reviewls
go run ./bench/lspbench -reviewls "$bin" "$@"
