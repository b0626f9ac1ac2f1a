#!/bin/sh
# The host's worker pool (codec/gp_pool.c) under stress: built with ThreadSanitizer (no fork:
# TSan cannot follow one), then plainly with a fork in the middle; then the index build's workers
# (index/gp_index.c) under ThreadSanitizer, every build checked against one worker's
# (scripts/index_build_stress.c). Exits non-zero on a race report, a wrong sum or another index.
set -eu
cd "$(dirname "$0")/.."
out=${TMPDIR:-/tmp}/gpupost-pool-stress
mkdir -p "$out"
cc=${CC:-gcc}
$cc -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -o "$out/tsan" scripts/pool_stress.c codec/gp_pool.c -lpthread
NOFORK=1 TSAN_OPTIONS=halt_on_error=1 "$out/tsan"
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -o "$out/plain" scripts/pool_stress.c codec/gp_pool.c -lpthread
"$out/plain"
sh scripts/host-objects.sh "$out/obj" "$cc" -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread
$cc -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -Wall -Wextra -o "$out/index-tsan" scripts/index_build_stress.c \
	"$out"/obj/*.o -lpthread -lz -lm
TSAN_OPTIONS=halt_on_error=1 "$out/index-tsan"
