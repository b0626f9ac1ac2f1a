# before = release build of 1eb068c, after = of 3c3fc31; suite = test build of 3c3fc31
set -uo pipefail
source .gpu/env.sh
for f in .gpu/debs/php8.2-sqlite3_*.deb .gpu/debs/libsqlite3-0_*.deb; do dpkg -x $f /tmp/gpuroot; done
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
nvidia-smi -L; date -u
( taskset -c 10-15 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1 ) &
gen=$!
GPUPOSTD=$PWD/.gpujob/bin/gpupostd NO_INTERACTION=1 timeout 240 taskset -c 0-9 php -n run-tests.php -q -n -d extension_dir=$PWD/.gpujob/suite -d extension=gpupost.so -j10 --show-diff tests/ > $OUT/phpt.log 2>&1
sed 's/\x1b\[[0-9;]*m//g' $OUT/phpt.log | grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken|FAIL |SKIP "
php -n -d extension=$PWD/.gpujob/suite/gpupost.so .gpujob/sel.php | tail -3
php -n -d extension=$PWD/.gpujob/suite/gpupost.so .gpujob/pre.php | tail -3
date -u
wait $gen; cat $OUT/gen.txt; date -u
for b in before after; do
  php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/$b/gpupost.so"
  shapes="a b NOT c,(a OR b) AND c,\"phrase\" OR a,NEAR(a b, 5),8 terms"
  [ $b = after ] && shapes="$shapes,a* b"
  timeout 200 taskset -c 0-3 $php bench/tree_batch.php /tmp/syn2m.gpix /tmp/q2m.txt --batch=10000 --trees=10000 --seconds=1.5 "--shapes=$shapes" > $OUT/trees-$b.md 2> $OUT/trees-$b.err; tail -14 $OUT/trees-$b.md; tail -3 $OUT/trees-$b.err
  date -u
done
