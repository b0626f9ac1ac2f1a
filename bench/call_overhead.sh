#!/usr/bin/env bash
# Issue 23's measurement in one command: the floor of a small device call (bench/call_floor.c,
# plain OpenCL) and, in the same run, what gpu_decode_postings costs for 1 to 1,000 values on the
# device and on the host (bench/call_cost.php). Not a test.
#   bash bench/call_overhead.sh [REPS]
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v php > /dev/null || source .gpu/env.sh
set -euo pipefail
reps=${1:-2000}
[ -x bench/call_floor ] || cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o bench/call_floor bench/call_floor.c -lOpenCL
line=$(./bench/call_floor 4096 "$reps")
echo "$line"
floor=$(echo "$line" | sed -n 's/.*read 4096 B: \([0-9.]*\) us.*/\1/p')
php -n -d memory_limit=-1 -d extension="$PWD/modules/gpupost.so" bench/call_cost.php "$floor" "$reps"
