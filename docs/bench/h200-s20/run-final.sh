set -uo pipefail
source .gpu/env.sh
for f in .gpu/debs/php8.2-sqlite3_*.deb .gpu/debs/libsqlite3-0_*.deb; do dpkg -x $f /tmp/gpuroot; done
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
nvidia-smi -L; date -u
NO_INTERACTION=1 timeout 300 php -n run-tests.php -q -n -d extension_dir=$PWD/modules -d extension=gpupost.so -j8 --show-diff tests/ > $OUT/phpt.log 2>&1
grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" $OUT/phpt.log
./bench/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt | tee $OUT/gen.txt
timeout 330 php -n -d memory_limit=-1 -d extension=$PWD/modules/gpupost.so bench/workers.php /tmp/syn2m.gpix /tmp/q2m.txt $OUT/w --workers=64 --modes=mapped --seconds=2 --queries=1000 --warm=1 2>&1 | tee $OUT/workers64.txt
