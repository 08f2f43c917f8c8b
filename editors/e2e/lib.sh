# lib.sh: sourced by the editor end-to-end scripts (editors/e2e/*/run.sh).
#
#   e2e_need HINT TOOL...  checks the tools are on PATH; HINT says how to
#                    install them ("" for none).
#   e2e_setup NAME   makes $work (a temp dir, removed at exit unless a
#                    check failed, failed != 0, or KEEP_WORK=1), and sets
#                    and exports REVIEWLS: the binary given (an absolute
#                    path to an executable) or one built from this clone.
#   e2e_home         moves HOME and the XDG dirs into $work, so editors
#                    write their state and logs there; the Go caches stay.
#
# Both print "FAIL prerequisites: ..." and exit 1 when they cannot.

e2e_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

e2e_die() {
  echo "FAIL prerequisites: $*"
  exit 1
}

e2e_need() {
  local hint=$1 tool
  shift
  for tool; do
    command -v "$tool" >/dev/null || e2e_die "$tool not found${hint:+ ($hint)}"
  done
}

e2e_cleanup() {
  if [[ "${KEEP_WORK:-}" == 1 || ${failed:-0} != 0 ]]; then
    echo "work dir kept: $work"
  else
    rm -rf "$work"
  fi
}

e2e_setup() {
  if [[ -n "${REVIEWLS:-}" && ( "$REVIEWLS" != /* || ! -x "$REVIEWLS" ) ]]; then
    e2e_die "REVIEWLS=$REVIEWLS is not an absolute path to an executable file"
  fi
  if [[ -z "${REVIEWLS:-}" ]] && ! command -v go >/dev/null; then
    e2e_die "REVIEWLS is not set and go is not installed to build it"
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/reviewls-$1-e2e.XXXXXX")
  failed=0
  trap e2e_cleanup EXIT
  if [[ -z "${REVIEWLS:-}" ]]; then
    if ! (cd "$e2e_root" && timeout 300 go build -o "$work/reviewls" ./cmd/reviewls); then
      failed=1
      e2e_die "go build ./cmd/reviewls failed"
    fi
    REVIEWLS=$work/reviewls
  fi
  export REVIEWLS
}

e2e_home() {
  if command -v go >/dev/null; then
    export GOCACHE=${GOCACHE:-$(go env GOCACHE)} GOMODCACHE=${GOMODCACHE:-$(go env GOMODCACHE)}
  fi
  export HOME=$work/home XDG_CONFIG_HOME=$work/xdg/config XDG_DATA_HOME=$work/xdg/data \
    XDG_CACHE_HOME=$work/xdg/cache XDG_STATE_HOME=$work/xdg/state
  mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME"
}
