#!/usr/bin/env bash
# run.sh: end-to-end test of `reviewls serve` driven by real Emacs + Eglot
# (Debian: apt-get install -y emacs-nox elpa-eglot; Emacs 28.2, Eglot 1.9)
# on the shared fixture (../fixture.sh, ../expected.json). driver.el does
# the work and writes a JSON report; this script prints one PASS/FAIL line
# per check from it and exits non-zero on any failure.
#
#   REVIEWLS=/abs/path/reviewls editors/e2e/emacs/run.sh   # else built here
#   KEEP_WORK=1 keeps the temp dir (kept anyway on failure).
#   EMACS_TIMEOUT (120 s) bounds the Emacs run.
#
# Checks (driver.el's header says what each asserts): start diagnostics
# flymake code-action-explain bad-command server-requests shutdown secret.
# A check missing from the report (Emacs died or was killed) is a FAIL.
# The work dir holds report.json, report.json.events.log (Eglot's JSON-RPC
# log), report.json.stderr.log (server stderr) and emacs.err (messages).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
EMACS_TIMEOUT=${EMACS_TIMEOUT:-120}
checks=(start diagnostics flymake code-action-explain bad-command server-requests shutdown secret)
total_start=$(date +%s%N)

declare -A install=([emacs]="apt-get install -y emacs-nox elpa-eglot" [git]="apt-get install -y git" [timeout]="coreutils")
for tool in emacs git timeout; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL prerequisites: $tool not found (${install[$tool]})"
    exit 1
  fi
done
# Emacs 28 has no built-in Eglot: Debian's elpa-eglot puts it under site-lisp/elpa.
eglot_dir=
for d in /usr/share/emacs/site-lisp/elpa/eglot* /usr/share/emacs/site-lisp/elpa*/eglot*; do
  if [[ -d $d ]]; then
    eglot_dir=$d
    break
  fi
done
if [[ -z $eglot_dir ]] && ! emacs -Q --batch --eval '(kill-emacs (if (locate-library "eglot") 0 1))' </dev/null >/dev/null 2>&1; then
  echo "FAIL prerequisites: no Eglot (no /usr/share/emacs/site-lisp/elpa*/eglot*, none built into $(emacs --version | head -1)): apt-get install -y elpa-eglot"
  exit 1
fi

# shellcheck source=../lib.sh
. "$here/../lib.sh"
e2e_setup emacs
e2e_home
"$root/editors/e2e/fixture.sh" "$work/repo" >/dev/null

report=$work/report.json
start=$(date +%s%N)
rc=0
E2E_REVIEWLS=$REVIEWLS E2E_REPO=$work/repo E2E_EXPECTED=$root/editors/e2e/expected.json \
  E2E_REPORT=$report E2E_ELPA=${eglot_dir:+$(dirname "$eglot_dir")} \
  timeout -k 5 "$EMACS_TIMEOUT" emacs -Q --batch -l "$here/driver.el" \
  </dev/null >"$work/emacs.out" 2>"$work/emacs.err" || rc=$?
ms=$((($(date +%s%N) - start) / 1000000))

# One line per check of the report: "PASS name: detail (N ms)".
out=$work/checks.txt
: >"$out"
if [[ -s $report ]]; then
  E2E_REPORT=$report emacs -Q --batch --eval '
(let ((r (json-parse-string
          (with-temp-buffer (insert-file-contents (getenv "E2E_REPORT")) (buffer-string))
          :object-type (quote plist) :array-type (quote list) :false-object nil :null-object nil)))
  (dolist (c (plist-get r :checks))
    (princ (format "%s %s: %s (%s ms)\n" (if (plist-get c :ok) "PASS" "FAIL")
                   (plist-get c :name) (replace-regexp-in-string "\n" " " (or (plist-get c :detail) ""))
                   (plist-get c :ms)))))' </dev/null >"$out" 2>"$work/print.err" ||
    echo "FAIL report: cannot read $report ($(head -c 300 "$work/print.err"))" >>"$out"
fi
cat "$out"
for name in "${checks[@]}"; do
  if ! grep -qE "^(PASS|FAIL) $name:" "$out"; then
    why="emacs exited with status $rc"
    ((rc == 124 || rc == 137)) && why="emacs killed after ${EMACS_TIMEOUT}s"
    echo "FAIL $name: no result ($why; see $work/emacs.err)"
    failed=1
  fi
done
if grep -q '^FAIL ' "$out"; then
  failed=1
elif [[ $rc != 0 ]]; then
  echo "FAIL emacs: exited with status $rc although every check passed"
  failed=1
fi

printf 'time emacs: %d.%03d s (exit %d, report %s)\n' $((ms / 1000)) $((ms % 1000)) "$rc" "$report"
ms=$((($(date +%s%N) - total_start) / 1000000))
printf 'time emacs total: %d.%03d s\n' $((ms / 1000)) $((ms % 1000))

if [[ $failed != 0 ]]; then
  echo "Emacs messages: $work/emacs.err; Eglot events: $report.events.log; server stderr: $report.stderr.log"
  echo "emacs e2e: FAILED"
  exit 1
fi
echo "emacs e2e: all checks passed"
