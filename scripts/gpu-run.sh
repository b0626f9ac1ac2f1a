#!/usr/bin/env bash
# Runs the phpt suite and the benchmarks on a GPU machine reached with the workplace's device
# tool (no PHP there: ../shared/gpu/prepare.sh packs Debian's PHP CLI into .gpu/). Build here
# first (scripts/setup.sh && make bench-c), then run with carry
# [".gpu", "modules", "run-tests.php", "bench/device_bench"]:
#   bash scripts/gpu-run.sh tests|bench|batch|all
# Logs go to $OUT (the device tool's output folder) or ./gpu-out.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
source .gpu/env.sh
ext="-n -d memory_limit=-1 -d extension=$PWD/modules/gpupost.so"
what=${1:-all}
{
	date -u +"%Y-%m-%d %H:%M UTC"
	nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
	clinfo -l 2>&1
	php $ext -r 'print_r(gpu_info());'
} 2>&1 | tee "$out/device.txt"
if [ "$what" = tests ] || [ "$what" = all ]; then
	NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir="$PWD/modules" -d extension=gpupost.so \
		--show-diff tests/ 2>&1 | tee "$out/phpt.log" | grep -E "^(PASS|FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken"
fi
if [ "$what" = batch ]; then
	php $ext bench/batch_bench.php 2>&1 | tee "$out/batch_bench.txt"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
	./bench/device_bench "${BENCH_VALUES:-67108864}" 5 2>&1 | tee "$out/device_bench.txt"
	php $ext bench/decode_bench.php 2>&1 | tee "$out/decode_bench.txt"
	php $ext bench/batch_bench.php 2>&1 | tee "$out/batch_bench.txt"
	php $ext bench/wah_bench.php 2>&1 | tee "$out/wah_bench.txt"
	php $ext bench/compression.php 2>&1 | tee "$out/compression.txt"
fi
