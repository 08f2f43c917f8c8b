# lib.sh: sourced by the editor end-to-end scripts (editors/e2e/*/run.sh)
# and by the scripts that install what they need (deps.sh, vscode/install.sh).
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
#
#   e2e_quietly LABEL CMD...  runs CMD with its output in a log file, shown
#                    (its last 40 lines, and where it is) only when CMD
#                    fails; sets e2e_took to the seconds it took.
#   e2e_debs LABEL [--no-recommends] PKG[:CHECK]...
#                    installs the Debian packages that are missing, quietly,
#                    and prints one line: "LABEL: git vim already installed;
#                    installed strace (3 s)". A package is there when dpkg
#                    has it installed, or when CHECK (a command name, or a
#                    path glob from /) finds it installed another way. A
#                    package that is there is never given to apt-get, which
#                    would upgrade it.

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

e2e_quietly() {
  local label=$1 log code start=$SECONDS
  shift
  log=$(mktemp "${TMPDIR:-/tmp}/reviewls-$label.XXXXXX.log")
  if "$@" >"$log" 2>&1; then
    e2e_took=$((SECONDS - start))
    rm -f "$log"
    return 0
  else
    code=$?
  fi
  echo "$label: failed (exit $code): $*" >&2
  tail -n 40 "$log" >&2
  echo "$label: its whole output is in $log" >&2
  return "$code"
}

e2e_debs() {
  local label=$1 recommends=() have=() need=() p pkg check sudo=()
  shift
  if [[ ${1:-} == --no-recommends ]]; then
    recommends=(--no-install-recommends)
    shift
  fi
  for p; do
    pkg=${p%%:*} check=${p#*:}
    [[ $check == "$p" ]] && check=
    if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$' ||
      { [[ $check == /* ]] && compgen -G "$check" >/dev/null; } ||
      { [[ -n $check && $check != /* ]] && command -v "$check" >/dev/null 2>&1; }; then
      have+=("$pkg")
    else
      need+=("$pkg")
    fi
  done
  local said=${have[*]:+${have[*]} already installed}
  if ((${#need[@]} == 0)); then
    echo "$label: $said"
    return 0
  fi
  if [[ $(id -u) != 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "$label: missing ${need[*]}: install them (apt-get install -y ${need[*]}) or run as root" >&2
      return 1
    fi
    sudo=(sudo -n)
  fi
  local start=$SECONDS
  e2e_quietly "$label" "${sudo[@]}" apt-get update -qq
  e2e_quietly "$label" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq "${recommends[@]}" "${need[@]}"
  echo "$label: ${said:+$said; }installed ${need[*]} ($((SECONDS - start)) s)"
}
