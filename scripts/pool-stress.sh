#!/bin/sh
# The upload worker pool (opencl/gp_pool.c) under stress: built with ThreadSanitizer (no fork:
# TSan cannot follow one), then plainly with a fork in the middle. Exits non-zero on a race
# report or a wrong sum.
set -eu
cd "$(dirname "$0")/.."
out=${TMPDIR:-/tmp}/gpupost-pool-stress
mkdir -p "$out"
cc=${CC:-gcc}
$cc -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -Iopencl -o "$out/tsan" scripts/pool_stress.c opencl/gp_pool.c -lpthread
NOFORK=1 TSAN_OPTIONS=halt_on_error=1 "$out/tsan"
$cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Iopencl -o "$out/plain" scripts/pool_stress.c opencl/gp_pool.c -lpthread
"$out/plain"
