#!/usr/bin/env bash
# run.sh: end-to-end test of the reviewls Neovim plugin (editors/nvim) in a
# real headless Neovim on the shared fixture. Prints PASS/FAIL per check and
# exits non-zero on any failure.
#
#   REVIEWLS=/abs/path/reviewls editors/e2e/nvim/run.sh   # else built here
#   KEEP_WORK=1 keeps the temp dir (kept anyway on failure).
#
# Six nvim runs, each under `timeout`: main (diagnostics, code action,
# commands, unsaved fix, the secret's quick fix, shutdown), norepo (a file
# outside any repository), missing (a missing server binary), lspconfig (the
# config table alone), render (the diagnostic float and the hover as a
# second nvim draws them in a 160x40 terminal; the screens are kept in
# .cache/float.txt and .cache/hover.txt beside this script, or in
# E2E_CAPTURES) and model (the model reviewer against a scripted model
# server, editors/e2e/llmtest: the rule diagnostics first, the model's
# second, and an edit cancelling a model request in flight).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
NVIM_TIMEOUT=${NVIM_TIMEOUT:-120}

# shellcheck source=../lib.sh
. "$here/../lib.sh"
e2e_need "Neovim: apt-get install -y neovim" nvim git timeout
e2e_need "Go's gofmt checks the secret's quick fix" gofmt

e2e_setup nvim
e2e_home
mkdir -p "$work/plain"
printf 'package notes\n' > "$work/plain/notes.go"
"$root/editors/e2e/fixture.sh" "$work/repo" >/dev/null

captures=${E2E_CAPTURES:-$here/.cache}
mkdir -p "$work/screen" "$captures"
rm -f "$captures/float.txt" "$captures/hover.txt"
export E2E_PLUGIN=${E2E_PLUGIN:-$root/editors/nvim} E2E_REVIEWLS=$REVIEWLS E2E_REPO=$work/repo E2E_PLAIN=$work/plain \
  E2E_EXPECTED=$root/editors/e2e/expected.json E2E_DRIVER=$here/driver.lua E2E_SCREEN_DIR=$work/screen \
  E2E_CAPTURES=$(cd "$captures" && pwd)

# Checks each run must report; a run that dies early fails the missing ones.
declare -A want=(
  [main]="attach diagnostics code-action-explain board-quickfix walkthrough unsaved-fix statusline explain-command investigate bad-request secret-fix shutdown no-stray-errors"
  [norepo]="outside-repository"
  [missing]="missing-binary"
  [lspconfig]="lspconfig-table"
  [render]="float hover"
  [model]="model-second-wave model-cancel"
)

# The model run's own fixture, and a scripted model server built from this
# module (editors/e2e/llmtest): it answers with one candidate on line 11
# of app/store.go and hangs a request that holds the marker.
"$root/editors/e2e/fixture.sh" "$work/model-repo" >/dev/null
(cd "$root" && go build -o "$work/llmtest" ./editors/e2e/llmtest) || e2e_die "go build ./editors/e2e/llmtest failed"
printf '[{"File": "app/store.go", "Line": 11, "Quote": "v := s.records[key]", "Severity": "medium", "Title": "A missing key returns the empty string, as a stored empty string does"}]\n' >"$work/model-findings.json"
"$work/llmtest" -findings "$work/model-findings.json" -url "$work/model-url" -events "$work/model-events" -hang-on E2E-HANG-MARKER &
llm_pid=$!
trap 'kill "$llm_pid" 2>/dev/null; e2e_cleanup' EXIT
for _ in $(seq 100); do [[ -s $work/model-url ]] && break; sleep 0.1; done
[[ -s $work/model-url ]] || e2e_die "the model server did not start"

total_start=$(date +%s%N)
for mode in main norepo missing lspconfig render model; do
  out=$work/nvim-$mode.out
  start=$(date +%s%N)
  rc=0
  repo=$work/repo
  [[ $mode == model ]] && repo=$work/model-repo
  E2E_MODE=$mode E2E_REPORT=$work/report-$mode.json E2E_REPO=$repo \
    E2E_MODEL_URL=$(cat "$work/model-url") E2E_MODEL_EVENTS=$work/model-events E2E_MODEL_HANG=E2E-HANG-MARKER \
    timeout -k 5 "$NVIM_TIMEOUT" nvim --headless --clean \
    -c "lua local ok, e = pcall(dofile, '$here/driver.lua') if not ok then io.stdout:write('FAIL driver: ' .. tostring(e) .. '\\n') vim.cmd('cquit 2') end" </dev/null >"$out" 2>"$work/nvim-$mode.err" || rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  grep -E '^(PASS|FAIL) ' "$out" || true
  for name in ${want[$mode]}; do
    if ! grep -qE "^(PASS|FAIL) $name(:| \(|$)" "$out"; then
      echo "FAIL $name: no result (nvim run '$mode' exited with status $rc$([[ $rc == 124 ]] && echo ", killed after ${NVIM_TIMEOUT}s"); see $work/nvim-$mode.err)"
      failed=1
    fi
  done
  if grep -q '^FAIL ' "$out" || [[ $rc != 0 ]]; then
    failed=1
  fi
  printf 'time nvim %s: %d.%03d s (exit %d, report %s)\n' "$mode" $((ms / 1000)) $((ms % 1000)) "$rc" "$work/report-$mode.json"
done
ms=$((($(date +%s%N) - total_start) / 1000000))
printf 'time nvim total: %d.%03d s\n' $((ms / 1000)) $((ms % 1000))

if [[ $failed != 0 ]]; then
  lsplog=$(find "$work/xdg" -name lsp.log 2>/dev/null | head -1)
  [[ -n "$lsplog" ]] && echo "nvim LSP log (server stderr): $lsplog"
  echo "nvim e2e: FAILED"
  exit 1
fi
echo "nvim e2e: all checks passed"
