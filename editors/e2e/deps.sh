#!/usr/bin/env bash
# deps.sh: installs what the editor end-to-end tests need, skipping what is
# already there: Debian's git, strace (the Go tests trace the binary),
# neovim, vim + vim-ale and emacs-nox + elpa-eglot (apt-get, as root), the npm
# packages of the VS Code extension and of the Node client (npm ci), and
# code-server with its own Node 24 under editors/e2e/vscode/.cache (nothing
# is cached outside the clone).
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v git >/dev/null 2>&1 || need+=(git)
# The Go tests trace the binary: an untrusted repository runs no program.
command -v strace >/dev/null 2>&1 || need+=(strace)
command -v nvim >/dev/null 2>&1 || need+=(neovim)
command -v vim >/dev/null 2>&1 || need+=(vim)
[[ -f /usr/share/vim-ale/plugin/ale.vim ]] || need+=(vim-ale)
command -v emacs >/dev/null 2>&1 || need+=(emacs-nox)
compgen -G '/usr/share/emacs/site-lisp/elpa*/eglot*' >/dev/null || need+=(elpa-eglot)
if ((${#need[@]})); then
	if [[ $(id -u) != 0 ]]; then
		echo "deps: missing ${need[*]}: install them (apt-get install -y ${need[*]}) or run as root" >&2
		exit 1
	fi
	echo "deps: apt-get install ${need[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

for dir in editors/vscode editors/e2e/node; do
	echo "deps: npm ci in $dir"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
done

editors/e2e/vscode/install.sh
