set -uo pipefail
source .gpu/env.sh
for f in .gpu/debs/php8.2-sqlite3_*.deb .gpu/debs/libsqlite3-0_*.deb .gpujob/libxapian30_*.deb; do dpkg -x $f /tmp/gpuroot; done
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
cp .gpujob/bin/xapian_match bench/
nproc; nvidia-smi -L; grep -m1 "model name" /proc/cpuinfo; grep -o -m1 -w avx2 /proc/cpuinfo; date -u
( taskset -c 10-11 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1; GEN_FILE_VERSION=1 taskset -c 10-11 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m-v1.gpix /tmp/q2m-v1.txt >> $OUT/gen.txt 2>&1 ) &
gen=$!
NO_INTERACTION=1 timeout 220 taskset -c 1-8 php -n run-tests.php -q -n -d extension_dir=$PWD/.gpujob/suite -d extension=gpupost.so -j8 --show-diff tests/ > $OUT/phpt.log 2>&1
grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" $OUT/phpt.log
date -u
timeout 200 taskset -c 0 php -n -d memory_limit=4G -d extension_dir=$PWD/.gpujob/after -d extension=gpupost.so -d extension=/tmp/gpuroot/usr/lib/php/20220829/sqlite3.so bench/match_bench.php $OUT/match 2 > $OUT/match.txt 2>&1; tail -22 $OUT/match.txt
rm -f $OUT/match/demo.gpix $OUT/match/demo-text.txt; rm -rf $OUT/match/xapian-db
date -u
wait $gen; cat $OUT/gen.txt; ls -la /tmp/syn2m*.gpix; date -u
# the build before this session (21b9511) and this one (both release builds), in turn, one core
for round in 1 2; do
for b in before after; do
  php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/$b/gpupost.so"
  timeout 60 taskset -c 5 $php bench/query_kinds.php /tmp/q2m.txt and,and10,or10 /tmp/syn2m-v1.gpix /tmp/syn2m.gpix --reps=3 --rounds=1 --queries=1000 2>&1 | sed "s/^/$b round $round: /" | tee -a $OUT/kinds.txt
  timeout 50 taskset -c 5 $php bench/query_kinds.php /tmp/q2m.txt phrase /tmp/syn2m-v1.gpix /tmp/syn2m.gpix --reps=1 --rounds=1 --queries=300 2>&1 | sed "s/^/$b round $round: /" | tee -a $OUT/kinds.txt
done
done
date -u
