#!/bin/bash
# Real shapes: a command string run through eval, a helper that evals a
# function name with its arguments, eval "$@" in a wrapper, and eval of a
# command with options built from configuration.
files=$(eval $FIND_COMMAND 2>&1 | grep -v loop || true) # want "eval \$FIND_COMMAND"
run() {
  eval "$script_or_function ${arguments[*]}" # want "eval"
}
if [ -n "$1" ]; then eval "$@"; fi # want "eval \"\$@\""
eval swtpm_cert $options --out "$out" # want "eval swtpm_cert"

# Near misses: tool bootstraps, constant text, the word in strings.
eval "$(ssh-agent -s)"
eval "$(pyenv init -)"
eval "$(/opt/homebrew/bin/brew shellenv)"
eval 'set -- a b'
echo "do not eval $x"
evaluate "$x"
eval set -- "$args"
eval $(printf '%q ' "$@")
eval "HACKING_DIR=\$(dirname \"\${BASH_SOURCE}\")"
