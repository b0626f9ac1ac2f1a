#!/usr/bin/env bash
# Every benchmark of issue 5 in one command: tables on stdout and in OUT/*.txt, the plotted
# columns in OUT/*.dat, and PNG plots (bench/plot.sh) where gnuplot is installed. Not a test.
#   bash bench/run.sh [OUT]              (default OUT: bench-out; the GPU helper passes $OUT)
# BENCH_SIZES: values per list for the device-resident sweep (default 1M..256M on a GPU; up to
# 16M on a CPU OpenCL device, where 256M values would take minutes). Needs the extension built
# (scripts/setup.sh) and bench/device_bench (make bench-c). On the GPU machine, which has no PHP
# of its own, .gpu/env.sh (../shared/gpu/prepare.sh) provides it.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v php > /dev/null || source .gpu/env.sh
set -euo pipefail
out=${1:-bench-out}
mkdir -p "$out"
# The benchmarks decode lists far past the default caps, and time repeated calls of one size:
# gpupost.max_result_bytes and gpupost.max_cached_bytes are raised (BENCH_INI) so that the
# buffers stay between repetitions; BENCH_INI= runs them with the shipped defaults instead.
bench_ini=${BENCH_INI--d gpupost.max_result_bytes=64G -d gpupost.max_cached_bytes=8G}
php="php -n -d memory_limit=-1 $bench_ini -d extension=$PWD/modules/gpupost.so"
type=$($php -r 'echo gpu_info()["device"]["type"] ?? "none";')
if [ -z "${BENCH_SIZES:-}" ]; then
	if [ "$type" = gpu ]; then BENCH_SIZES="1048576 4194304 16777216 67108864 268435456"
	else BENCH_SIZES="1048576 4194304 16777216"; fi
fi

# (a) device-resident kernels beside a copy kernel, per size; (d) uploads (printed by each run)
: > "$out/device.txt"
echo "# size fmt host_Mvps device_Mvps kernels_Mvps kernels_GBps of_copy" > "$out/device.dat"
for n in $BENCH_SIZES; do
	./bench/device_bench "$n" 3 | tee -a "$out/device.txt" |
		awk -v n="$n" '$1 ~ /^(MOD9|MOD9d|MOD9p|S9|QS|VB|GV|WAHb)$/ { print n, $1, $4, $5, $8, $9, $10 }' >> "$out/device.dat"
done
grep -h "^# upload" -A5 "$out/device.txt" | tail -6
# (b) end to end into PHP arrays against range(), the host path, the default dispatch and PHP
$php bench/decode_bench.php | tee "$out/decode.txt"
awk '!/^#/ && $1 ~ /^[0-9]+$/ { print $1, $2, $3, $4, $5 }' "$out/decode.txt" > "$out/decode.dat"
# (c) a batch of 10,000 lists against 10,000 single calls
$php bench/batch_bench.php | tee "$out/batch.txt"
# (e) WAH decompression and queries
$php bench/wah_bench.php | tee "$out/wah.txt"
awk '!/^#/ && $2 ~ /^(OR|AND)$/ { print $1, $2, $3, $4 }' "$out/wah.txt" > "$out/wah.dat"
if command -v gnuplot > /dev/null; then
	bash bench/plot.sh "$out"
else
	echo "# gnuplot not installed: plot later with bash bench/plot.sh $out" >&2
fi
