#!/usr/bin/env bash
# deps.sh: installs what the editor end-to-end tests need and is missing:
# Debian's git, strace (the Go tests trace the binary), neovim, vim +
# vim-ale and emacs-nox + elpa-eglot (apt-get, as root or through sudo),
# the npm packages of the VS Code extension and of the Node client (npm
# ci), and code-server with its own Node 24 under
# editors/e2e/vscode/.cache (nothing is cached outside the clone).
#
# It changes nothing that is there: a Debian package that is installed
# (or whose program is on PATH) is never given to apt-get, which would
# upgrade it, and npm ci runs only where node_modules is older than
# package-lock.json. Each step prints one line, what was there and what
# it installed; the tools' own output goes to a log shown only when one
# fails. A second run installs nothing and prints only those lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
. editors/e2e/lib.sh

# The Go tests trace the binary: an untrusted repository runs no program.
e2e_debs deps git:git strace:strace neovim:nvim vim:vim \
  vim-ale:/usr/share/vim-ale/plugin/ale.vim emacs-nox:emacs \
  'elpa-eglot:/usr/share/emacs/site-lisp/elpa*/eglot*'

current=() installed=()
for dir in editors/vscode editors/e2e/node; do
  # npm ci writes node_modules/.package-lock.json last: newer than the
  # lock file, the install is the one the lock file pins.
  if [[ $dir/node_modules/.package-lock.json -nt $dir/package-lock.json ]]; then
    current+=("$dir")
    continue
  fi
  e2e_quietly deps env -C "$dir" npm ci --no-audit --no-fund --loglevel=error
  installed+=("$dir ($e2e_took s)")
done
line=
((${#current[@]})) && line="npm packages of ${current[*]} up to date"
((${#installed[@]})) && line="${line:+$line; }npm ci in ${installed[*]}"
echo "deps: $line"

editors/e2e/vscode/install.sh
