set -uo pipefail
source .gpu/env.sh
for f in .gpu/debs/php8.2-sqlite3_*.deb .gpu/debs/libsqlite3-0_*.deb; do dpkg -x $f /tmp/gpuroot; done
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
nvidia-smi -L; date -u
( taskset -c 10-11 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1 ) &
gen=$!
( GEN_FILE_VERSION=1 taskset -c 12-13 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m-v1.gpix /tmp/q2m-v1.txt >> $OUT/gen1.txt 2>&1 ) &
gen1=$!
NO_INTERACTION=1 timeout 200 taskset -c 1-8 php -n run-tests.php -q -n -d extension_dir=$PWD/.gpujob/suite -d extension=gpupost.so -j8 --show-diff tests/ > $OUT/phpt.log 2>&1
sed 's/\x1b\[[0-9;]*m//g' $OUT/phpt.log | grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken|FAIL |SKIP "
date -u
wait $gen; cat $OUT/gen.txt; date -u
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/after/gpupost.so"
timeout 300 taskset -c 0-3 $php bench/tree_batch.php /tmp/syn2m.gpix /tmp/q2m.txt --batch=10000 --trees=10000 --seconds=2 > $OUT/trees.md 2> $OUT/trees.err; tail -14 $OUT/trees.md; tail -3 $OUT/trees.err
date -u
wait $gen1; cat $OUT/gen1.txt
timeout 100 taskset -c 5 $php bench/query_kinds.php /tmp/q2m.txt phrase /tmp/syn2m-v1.gpix /tmp/syn2m.gpix --reps=1 --rounds=1 --queries=100 2>&1 | tee $OUT/kinds-phrase.txt
date -u
