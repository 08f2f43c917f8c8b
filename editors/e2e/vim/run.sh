#!/usr/bin/env bash
# run.sh: end-to-end test of reviewls serve in real Vim 9 + ALE (Debian's vim
# and vim-ale) on the shared fixture: diagnostics on the changed lines only,
# the Explain code action and its artifact, an unsaved fix, a bad command
# argument, shutdown and exit 0. Prints PASS/FAIL per check and exits
# non-zero on any failure.
#
#   REVIEWLS=/abs/path/reviewls editors/e2e/vim/run.sh   # else built here
#   KEEP_WORK=1 keeps the temp dir (kept anyway on failure).
#   E2E_EXPECTED: expectations (default editors/e2e/expected.json).
#   ALE_DIR: where ALE is installed (default /usr/share/vim-ale, Debian's).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
ale_dir=${ALE_DIR:-/usr/share/vim-ale}
VIM_TIMEOUT=${VIM_TIMEOUT:-120}

# shellcheck source=../lib.sh
. "$here/../lib.sh"
e2e_need "apt-get install -y vim vim-ale" vim git timeout
if [[ ! -f "$ale_dir/plugin/ale.vim" ]]; then
  echo "FAIL prerequisites: ALE not found in $ale_dir (apt-get install -y vim-ale, or set ALE_DIR)"
  exit 1
fi

e2e_setup vim
e2e_home
"$root/editors/e2e/fixture.sh" "$work/repo" >/dev/null

want="start diagnostics secret-redacted code-action-explain unsaved-fix bad-argument shutdown"
results=$work/results.txt
start=$(date +%s%N)
rc=0
E2E_REVIEWLS=$REVIEWLS E2E_REPO=$work/repo E2E_EXPECTED=${E2E_EXPECTED:-$root/editors/e2e/expected.json} \
  E2E_RESULTS=$results E2E_ALE_DIR=$ale_dir \
  timeout -k 5 "$VIM_TIMEOUT" vim -N -u NONE -i NONE -n -es -S "$here/driver.vim" </dev/null >"$work/vim.out" 2>&1 || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))

[[ -f $results ]] && cat "$results"
for name in $want; do
  if ! grep -qE "^(PASS|FAIL) $name( |:)" "$results" 2>/dev/null; then
    echo "FAIL $name: no result (vim exited with status $rc$([[ $rc == 124 ]] && echo ", killed after ${VIM_TIMEOUT}s"))"
    failed=1
  fi
done
if [[ $rc != 0 ]] || grep -q '^FAIL ' "$results" 2>/dev/null; then
  failed=1
fi
printf 'time vim: %d.%03d s (exit %d)\n' $((ms / 1000)) $((ms % 1000)) "$rc"
if [[ $failed != 0 ]]; then
  echo "vim e2e: FAILED"
  exit 1
fi
echo "vim e2e: all checks passed"
