set -uo pipefail
source .gpu/env.sh
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
date -u
NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir=$PWD/modules -d extension=gpupost.so --show-diff tests/074_index_fts5.phpt tests/076_index_bm25_fts5.phpt > $OUT/phpt-fts5.log 2>&1
grep -E "^(FAIL|PASS|SKIP)|Tests (passed|failed|skipped)" $OUT/phpt-fts5.log
if [ ! -f /tmp/syn2m-v1.gpix ]; then
  ./bench/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt
  GEN_FILE_VERSION=1 ./bench/gen_corpus 2000000 100 1000000 /tmp/syn2m-v1.gpix /tmp/q2m-v1.txt
fi
ls -la /tmp/syn2m*.gpix
timeout 480 php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/modules/gpupost.so bench/workers.php /tmp/syn2m.gpix /tmp/q2m.txt $OUT/w --workers=1,4,16,64 --seconds=2 --queries=2000 --warm=1 --v1=/tmp/syn2m-v1.gpix 2>&1 | tee $OUT/workers.txt
