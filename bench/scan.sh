#!/usr/bin/env bash
# Measures the reviewls changed-file scan and full review against
# `git status` on a generated ~40,000-file repository (see
# bench/scanbench). Prints a markdown table; docs/performance.md holds the
# latest one.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/reviewls
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/reviewls
go run ./bench/scanbench -reviewls "$bin" "$@"
