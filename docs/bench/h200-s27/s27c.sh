# suite = test build of 85b7f73, .gpujob/bin/gpupostd = its gpupostd
set -uo pipefail
source .gpu/env.sh
for f in .gpu/debs/php8.2-sqlite3_*.deb .gpu/debs/libsqlite3-0_*.deb; do dpkg -x $f /tmp/gpuroot; done
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
nvidia-smi -L; date -u
GPUPOSTD=$PWD/.gpujob/bin/gpupostd NO_INTERACTION=1 timeout 240 php -n run-tests.php -q -n -d extension_dir=$PWD/.gpujob/suite -d extension=gpupost.so -j12 --show-diff tests/ > $OUT/phpt.log 2>&1
sed 's/\x1b\[[0-9;]*m//g' $OUT/phpt.log | grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped|warned)|Time taken|FAIL |SKIP "
date -u
# the suite through gpupostd batching for the GPU (scripts/server-suite.sh's steps, its binaries prebuilt)
sock=/tmp/gpupost-suite-gpu.sock
.gpujob/bin/gpupostd --foreground --set socket=$sock --set allow_dir=/ --set placement=device --set device=gpu --set host_max_work=0 > $OUT/server.log 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
NO_INTERACTION=1 timeout 300 php -n run-tests.php -q -n -d extension_dir=$PWD/.gpujob/suite -d extension=gpupost.so -d gpupost.server=unix:$sock --set-timeout 300 -j12 tests/ > $OUT/server-suite.log 2>&1
sed 's/\x1b\[[0-9;]*m//g' $OUT/server-suite.log | grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped|warned)|Time taken|FAIL |SKIP "
.gpujob/bin/gpupostd --socket $sock --stats > $OUT/server-stats.txt 2>&1; grep -E "^(queries|device_queries|device_batches|device_batch_max|host_queries|errors) " $OUT/server-stats.txt
kill -TERM $pid; wait $pid; echo "server exit $?"
date -u
