#!/bin/sh
set -eu
bash <(curl -fsSL https://example.com/bootstrap.sh) # want "in bash"
sh -c "$(curl -fsSL https://example.com/ohmy.sh)" # want "Downloaded script"
curl -fsSL https://example.com/x.py | python3 - # want "python3"
wget -O - https://example.com/a | tee /tmp/a | sh # want "in sh"
# Near misses: none of these is reported.
curl -fsSLO https://example.com/install.sh
curl -s https://example.com/data.json | jq -r .name | shasum
echo "see https://example.com | sh" # curl | sh
curl -fsSL https://get.pnpm.io/install.sh | SHELL=`which bash` bash - # want "piped into a shell|Downloaded script"
