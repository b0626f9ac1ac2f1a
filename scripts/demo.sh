#!/usr/bin/env bash
# The README's first command: sets up (scripts/setup.sh), then indexes the license texts every
# Debian machine has into Yioop-format posting lists and answers queries through gpupost.
# Extra arguments go to demo/search.php (for example --format=qs or --query="free software").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
exec php -n -d memory_limit=1G -d extension=sqlite3 -d extension="$PWD/modules/gpupost.so" demo/search.php "$@"
