#!/bin/sh
set -eu
chmod 777 "$HOME/.cache" # want "chmod with mode 777"
chmod --recursive 766 /srv/www # want "766"
# Near misses: none of these is reported.
chmod 775 /srv/shared
echo "chmod 777 is bad"
