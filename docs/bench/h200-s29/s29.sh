#!/bin/bash
# session 29: the suite on the GPU (test build of the session's HEAD), and through a GPU gpupostd
set -u
source .gpu/env.sh
for d in .gpujob/debs/*.deb; do dpkg -x "$d" /tmp/gpuroot; done
SQL=/tmp/gpuroot/usr/lib/php/20220829/sqlite3.so
out=${OUT:-/tmp/out}; mkdir -p "$out"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; git log --oneline -1 2>/dev/null; } | tee "$out/device.txt"
php -n -d extension=$PWD/modules/gpupost.so -r '$i = gpu_info(); echo $i["backend"], " ", $i["device"]["name"] ?? "none", "\n";' | tee -a "$out/device.txt"
export GPUPOSTD=$PWD/server/gpupostd
export GPUPOST_TEST_SQLITE3=$SQL   # the tests' children load ext/sqlite3 from here
NO_INTERACTION=1 timeout 420 php -n run-tests.php -q -j12 -n -d extension_dir=$PWD/modules -d extension=gpupost.so \
	--show-diff tests/ > "$out/phpt.log" 2>&1
grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" "$out/phpt.log" | cut -c1-160
