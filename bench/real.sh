#!/usr/bin/env bash
# Measures reviewls on a real repository against `git status` (and
# gitleaks, when on PATH) in the same run: the CLI commands warm and with
# an empty GOCACHE, the cost per changed file, and the language server.
# Everything runs on throwaway clones of DIR; DIR is never written.
# Prints markdown tables; docs/performance.md holds the latest ones.
#
#   bash bench/real.sh -repo DIR [-reviewls BIN] [-rounds 5] [-changes 1,10,100,1000]
#                      [-change-rounds 3] [-saves 200] [-skip-lsp]
#
# -reviewls measures a prebuilt binary (e.g. an older one) instead of
# building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="" bin="" rounds=5 changes=1,10,100,1000 change_rounds=3 saves=200 lsp=1
while [ $# -gt 0 ]; do
	case "$1" in
	-repo) repo=$2; shift 2 ;;
	-reviewls) bin=$2; shift 2 ;;
	-rounds) rounds=$2; shift 2 ;;
	-changes) changes=$2; shift 2 ;;
	-change-rounds) change_rounds=$2; shift 2 ;;
	-saves) saves=$2; shift 2 ;;
	-skip-lsp) lsp=0; shift ;;
	*) echo "bench/real.sh: unknown argument $1 (see the usage at the top of the script)" >&2; exit 2 ;;
	esac
done
if [ -z "$repo" ]; then
	echo "bench/real.sh: -repo DIR is required: a clone of a real repository, e.g. git clone https://github.com/moby/moby" >&2
	exit 2
fi
repo=$(cd "$repo" && pwd)
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/reviewls
	trap 'rm -rf "$(dirname "$bin")"' EXIT
	go build -o "$bin" ./cmd/reviewls
fi
echo "reviewls $("$bin" version 2>/dev/null | head -1); $(git --version); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null); $(date -u +%Y-%m-%d)"
echo
go run ./bench/scanbench -reviewls "$bin" -repo "$repo" -rounds "$rounds" -changes "$changes" -change-rounds "$change_rounds"
if [ "$lsp" = 1 ]; then
	echo
	go run ./bench/lspbench -reviewls "$bin" -repo "$repo" -saves "$saves" -open
fi
