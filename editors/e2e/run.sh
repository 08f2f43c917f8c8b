#!/usr/bin/env bash
# run.sh [CLIENT...]: runs the editor end-to-end tests (nvim, vim, emacs,
# node, vscode by default) against one freshly built reviewls binary, each under a
# deadline, and exits non-zero when any fails. deps.sh installs what they
# need.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export REVIEWLS="$tmp/reviewls"
if ! go build -o "$REVIEWLS" ./cmd/reviewls; then
	echo "FAIL e2e: go build ./cmd/reviewls" >&2
	exit 1
fi

clients=("$@")
((${#clients[@]})) || clients=(nvim vim emacs node vscode)
declare -A limit=([nvim]=300 [vim]=300 [emacs]=300 [node]=300 [vscode]=900)
failed=()
for c in "${clients[@]}"; do
	script="$root/editors/e2e/$c/run.sh"
	if [[ ! -x $script ]]; then
		echo "FAIL $c: no executable $script" >&2
		failed+=("$c")
		continue
	fi
	echo "=== $c"
	start=$SECONDS
	timeout --kill-after=10 "${limit[$c]:-300}" "$script"
	rc=$?
	if ((rc == 124 || rc == 137)); then
		echo "FAIL $c: timed out after ${limit[$c]:-300}s" >&2
	fi
	if ((rc != 0)); then
		failed+=("$c")
	fi
	echo "=== $c: exit $rc in $((SECONDS - start))s"
done

if ((${#failed[@]})); then
	echo "editor e2e: FAILED: ${failed[*]}" >&2
	exit 1
fi
echo "editor e2e: all passed (${clients[*]})"
