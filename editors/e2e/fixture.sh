#!/usr/bin/env bash
# fixture.sh DIR: builds the editor end-to-end fixture, a git repository
# with staged, unstaged and untracked changes whose findings are listed in
# expected.json (file, 1-based line, LSP severity, rule). Every editor test
# opens it, so all clients are held to the same expectations.
set -euo pipefail
dir="${1:?usage: fixture.sh DIR}"
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export GIT_CONFIG_NOSYSTEM=1 HOME="$dir/.home" GIT_AUTHOR_NAME=e2e GIT_AUTHOR_EMAIL=e2e@example.com \
  GIT_COMMITTER_NAME=e2e GIT_COMMITTER_EMAIL=e2e@example.com \
  GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
mkdir -p "$HOME" app web config
git init -q -b main

cat > go.mod <<'GO'
module example.com/shop

go 1.22
GO
cat > app/store.go <<'GO'
// Package app keeps the shop's records.
package app

// Store holds records in memory.
type Store struct {
	records map[string]string
}

// Get returns the record of key.
func (s *Store) Get(key string) string {
	return s.records[key]
}
GO
cat > app/handler.py <<'PY'
def load(path):
    with open(path) as f:
        return f.read()
PY
cat > web/cart.ts <<'TS'
export function total(prices: number[]): number {
  return prices.reduce((a, b) => a + b, 0);
}
TS
printf '.home/\n' > .gitignore
git add -A
git commit -q -m base

# Staged: a TODO in the Go store (line 12).
cat > app/store.go <<'GO'
// Package app keeps the shop's records.
package app

// Store holds records in memory.
type Store struct {
	records map[string]string
}

// Get returns the record of key.
func (s *Store) Get(key string) string {
	v := s.records[key]
	// TODO: report missing keys
	return v
}
GO
git add app/store.go

# Unstaged: a bare except that swallows every error (lines 4-5).
cat > app/handler.py <<'PY'
def load(path):
    try:
        with open(path) as f:
            return f.read()
    except:
        return ""
PY

# Untracked: a hardcoded AWS key and a debugger statement.
cat > config/creds.go <<'GO'
package config

// AccessKey is used by the uploader.
const AccessKey = "AKIAZ7Q2R5T6W3X4Y6B2"
GO
cat > web/debug.ts <<'TS'
export function checkout(total: number): number {
  debugger;
  return total;
}
TS
