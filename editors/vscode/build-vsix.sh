#!/usr/bin/env bash
# build-vsix.sh: builds the extension package, editors/vscode/reviewls.vsix,
# from this clone: installs the npm packages package-lock.json pins (npm ci),
# compiles the TypeScript and packages it with vsce, offline. Needs Node.js
# 20 or later and npm. Prints the command that installs the package.
set -euo pipefail
cd "$(dirname "$0")"
for tool in node npm; do
	command -v "$tool" >/dev/null || { echo "build-vsix.sh: $tool not found: install Node.js 20 or later" >&2; exit 1; }
done
npm ci --no-audit --no-fund --loglevel=error
npm run --silent package # vscode:prepublish compiles first
echo "built $PWD/reviewls.vsix; install it with: code --install-extension $PWD/reviewls.vsix"
