#!/usr/bin/env bash
# Measures `reviewls review` on a change that makes a flood of findings:
# FILES new JavaScript files of LINES lines each, every line
# `console.log("x"); // TODO` (two findings a line: standards/debug-statement
# and readiness/todo-added), 200,000 lines by default as in issue 26. It
# prints the wall time and peak RSS (/usr/bin/time -v) of the review, the
# wall time of `git status` on the same repository as the reference, the
# findings reported, the findings the caps cut and the size of the artifact
# folder. The repository is generated in a temporary directory and removed.
#
#   bash bench/findings.sh [-reviewls BIN] [-files 200] [-lines 1000] [-format text]
#
# -reviewls measures a prebuilt binary (e.g. an older one) instead of
# building this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="" files=200 lines=1000 format=text
while (($#)); do
	case $1 in
	-reviewls) bin=$2 ;;
	-files) files=$2 ;;
	-lines) lines=$2 ;;
	-format) format=$2 ;;
	*)
		sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
		exit 2
		;;
	esac
	shift 2
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $bin ]]; then
	bin=$tmp/reviewls
	go build -o "$bin" ./cmd/reviewls
fi
[[ -x /usr/bin/time ]] || { echo "findings.sh: needs GNU time at /usr/bin/time" >&2; exit 2; }

repo=$tmp/repo
mkdir -p "$repo/src"
git -C "$repo" init -q -b main
git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -q --allow-empty -m init
line='console.log("x"); // TODO'
awk -v n="$lines" -v l="$line" 'BEGIN { for (i = 0; i < n; i++) print l }' >"$tmp/one.js"
for ((i = 0; i < files; i++)); do cp "$tmp/one.js" "$repo/src/f$i.js"; done

start=$(date +%s.%N)
git -C "$repo" status --porcelain >/dev/null
end=$(date +%s.%N)
git_s=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')

set +e
(cd "$repo" && /usr/bin/time -v "$bin" review --format "$format" >"$tmp/out" 2>"$tmp/err")
code=$?
set -e
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/err")
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/err")
art=$(du -sk "$repo/.copilot-tracking" 2>/dev/null | cut -f1)
echo "change: $files files x $lines lines = $((files * lines)) lines"
echo "reviewls review --format $format: exit $code, wall $wall, max RSS $((rss / 1024)) MiB, artifacts $((${art:-0} / 1024)) MiB"
echo "git status: ${git_s} s"
grep -E '^verdict:|not shown' "$tmp/out" || true
grep -v -E '^\s|^Command being timed|: [0-9]' "$tmp/err" | grep -v '^$' | head -5 || true
