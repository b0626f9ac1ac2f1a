#!/usr/bin/env bash
# Issue 23's measurement in one command: the floor of a small device call and what each kind of
# command adds to it (bench/call_floor.c, plain OpenCL), then in the same run what
# gpu_decode_postings costs for 1 to 1,000 values on the device and on the host, and the steps of
# one device call of 100 values (bench/call_cost.php, GPUPOST_TRACE=1). Not a test.
#   bash bench/call_overhead.sh [REPS] [EXTENSION (default modules/gpupost.so)]
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v php > /dev/null || source .gpu/env.sh
set -euo pipefail
reps=${1:-2000}
ext=${2:-$PWD/modules/gpupost.so}
[ -x bench/call_floor ] || cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o bench/call_floor bench/call_floor.c -lOpenCL
out=$(./bench/call_floor 4096 "$reps")
echo "$out"
floor=$(echo "$out" | sed -n 's/.*read 4096 B: \([0-9.]*\) us.*/\1/p')
php -n -d memory_limit=-1 -d extension="$ext" bench/call_cost.php "$floor" "$reps"
GPUPOST_TRACE=1 php -n -d memory_limit=-1 -d extension="$ext" bench/call_cost.php breakdown "$reps" 100
