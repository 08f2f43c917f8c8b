#!/usr/bin/env bash
# run.sh: end-to-end tests of reviewls through a Node LSP client built on
# vscode-languageserver-protocol (the library under VS Code's language
# client), on the shared fixture. Prints PASS/FAIL per test and exits
# non-zero on any failure.
#
#   REVIEWLS=/abs/path/reviewls editors/e2e/node/run.sh   # else built here
#   KEEP_WORK=1 keeps the temp dir (kept anyway on failure).
#   NODE_E2E_TIMEOUT (seconds, default 180) bounds the whole node run.
#
# Needs node >= 20, git and the packages of package-lock.json in
# node_modules (editors/e2e/deps.sh runs npm ci here).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
NODE_E2E_TIMEOUT=${NODE_E2E_TIMEOUT:-180}

# shellcheck source=../lib.sh
. "$here/../lib.sh"
e2e_need "" node git timeout
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)'; then
  echo "FAIL prerequisites: node $(node --version) is too old: the tests need node >= 20"
  exit 1
fi
if [[ ! -d $here/node_modules ]]; then
  echo "FAIL prerequisites: $here/node_modules is missing: run npm ci there (editors/e2e/deps.sh does)"
  exit 1
fi
# node_modules must hold exactly the versions package-lock.json pins.
if ! stale=$(cd "$here" && node -e '
  const fs = require("fs");
  const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
  const bad = [];
  for (const [path, p] of Object.entries(lock.packages)) {
    if (!path) continue;
    let have = "missing";
    try { have = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version; } catch {}
    if (have !== p.version) bad.push(`${path.replace(/^node_modules\//, "")} ${have} (lock: ${p.version})`);
  }
  if (bad.length) { console.log(bad.join(", ")); process.exit(1); }
'); then
  echo "FAIL prerequisites: $here/node_modules is stale: $stale: run npm ci there"
  exit 1
fi

e2e_setup node

# Fixtures (os.tmpdir()), HOME and the XDG dirs all live in $work.
e2e_home
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

cd "$here"
start=$(date +%s%N)
rc=0
# PASS/FAIL lines on stdout; the spec report (diffs, stacks) in $work.
timeout --kill-after=10 "$NODE_E2E_TIMEOUT" node --test --test-concurrency=4 \
  --test-reporter=./reporter.mjs --test-reporter-destination=stdout \
  --test-reporter=spec --test-reporter-destination="$work/spec.txt" \
  ./*.test.mjs </dev/null || rc=$?
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))

if ((rc == 124 || rc == 137)); then
  echo "FAIL node: timed out after ${NODE_E2E_TIMEOUT}s"
fi
if ((rc != 0)); then
  failed=1
  echo "--- failure details (full report: $work/spec.txt)"
  sed -n '/^✖ failing tests:/,$p' "$work/spec.txt" | head -200
  echo "node e2e: FAILED (exit $rc) in ${elapsed} ms"
  exit 1
fi
echo "node e2e: all passed in ${elapsed} ms"
