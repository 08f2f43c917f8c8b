#!/usr/bin/env bash
# abba.sh BASE NEW PKG REGEXP [ROUNDS]: compares the Go benchmarks REGEXP
# of package PKG (e.g. ./review/lens) at two commits on this machine. It
# builds one test binary per commit, then runs them in ABBA order (base,
# new, new, base) ROUNDS times (default 4), so drift in a noisy machine's
# speed falls on both sides alike, and prints each benchmark's median
# ns/op and B/op per side and the ratio new/base.
#
#   bench/abba.sh c4d2aeb HEAD ./review/lens 'Catalog(Go|TSX|Python|HTML)$|ScanMarkupHTML$'
#
# BENCHTIME (default 2s) is passed as -test.benchtime.
set -euo pipefail
if (($# < 4)); then
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
base=$1 new=$2 pkg=$3 re=$4 rounds=${5:-4}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1; git worktree remove --force "$tmp/new" >/dev/null 2>&1; rm -rf "$tmp"' EXIT

for side in base new; do
	rev=${!side}
	git worktree add -q --detach "$tmp/$side" "$rev"
	(cd "$tmp/$side" && go test -c -o "$tmp/$side.test" "$pkg")
	echo "abba: $side = $(git rev-parse --short "$rev")" >&2
done

run() { # run SIDE: one pass of the benchmarks, "side name ns bytes" lines
	(cd "$tmp/$1/$pkg" && "$tmp/$1.test" -test.run '^$' -test.bench "$re" -test.benchmem -test.count 1 \
		-test.benchtime "${BENCHTIME:-2s}") |
		awk -v side="$1" '/^Benchmark/ { name=$1; sub(/-[0-9]+$/, "", name); ns=""; by="";
			for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") ns=$i; if ($(i+1) == "B/op") by=$i }
			print side, name, ns, by }'
}
for ((r = 1; r <= rounds; r++)); do
	echo "abba: round $r of $rounds" >&2
	for side in base new new base; do run "$side"; done
done >"$tmp/results"

printf "%-34s %5s %14s %14s %7s %12s %12s\n" benchmark runs "base ns/op" "new ns/op" ratio "base B/op" "new B/op"
awk '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
{ ns[$1, $2] = ns[$1, $2] " " $3; by[$1, $2] = by[$1, $2] " " $4; names[$2] = 1; runs[$1, $2]++ }
END {
	for (n in names) {
		if (!runs["base", n] || !runs["new", n]) { printf "%-34s only at %s\n", n, runs["base", n] ? "base" : "new"; continue }
		b = median(ns["base", n]); w = median(ns["new", n])
		printf "%-34s %5d %14.0f %14.0f %7.3f %12.0f %12.0f\n", n, runs["new", n], b, w, w / b, median(by["base", n]), median(by["new", n])
	}
}' "$tmp/results" | sort
