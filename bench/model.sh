#!/usr/bin/env bash
# Measures what a model reviewer adds to a save in the language server:
# bench/lspbench on DIR (a throwaway clone; -open, as an editor does) with
# no model, then with a model reviewer that answers every request after
# DELAY (editors/e2e/llmtest on loopback, default 2s). The rule
# diagnostics must not wait for the model: the two tables' save latencies
# should match.
#
#   bash bench/model.sh -repo DIR [-saves 200] [-delay 2s]
set -euo pipefail
cd "$(dirname "$0")/.."
repo="" saves=200 delay=2s
while [ $# -gt 0 ]; do
	case "$1" in
	-repo) repo=$2; shift 2 ;;
	-saves) saves=$2; shift 2 ;;
	-delay) delay=$2; shift 2 ;;
	*) echo "bench/model.sh: unknown argument $1 (see the usage at the top of the script)" >&2; exit 2 ;;
	esac
done
if [ -z "$repo" ]; then
	echo "bench/model.sh: -repo DIR is required: a clone of a real repository" >&2
	exit 2
fi
tmp=$(mktemp -d)
model=""
cleanup() {
	[ -n "$model" ] && kill "$model" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/reviewls" ./cmd/reviewls
go build -o "$tmp/llmtest" ./editors/e2e/llmtest
echo '[]' >"$tmp/findings.json"
"$tmp/llmtest" -findings "$tmp/findings.json" -url "$tmp/url" -events "$tmp/events" -delay "$delay" &
model=$!
for _ in $(seq 100); do
	[ -s "$tmp/url" ] || ! kill -0 "$model" 2>/dev/null && break
	sleep 0.1
done
if [ ! -s "$tmp/url" ]; then
	echo "bench/model.sh: the test model server (editors/e2e/llmtest) did not start" >&2
	exit 1
fi
echo "$("$tmp/reviewls" version 2>/dev/null | head -1); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null); $(date -u +%Y-%m-%d)"
echo
echo "Without a model:"
echo
go run ./bench/lspbench -reviewls "$tmp/reviewls" -repo "$repo" -saves "$saves" -open
echo
echo "With a model answering after $delay:"
echo
go run ./bench/lspbench -reviewls "$tmp/reviewls" -repo "$repo" -saves "$saves" -open -model "$(cat "$tmp/url")"
echo
echo "model requests: $(grep -c '^received' "$tmp/events" || true) received, $(grep -c '^answered' "$tmp/events" || true) answered, $(grep -c '^cancelled' "$tmp/events" || true) cancelled by the next save"
