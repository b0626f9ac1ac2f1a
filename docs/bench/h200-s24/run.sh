set -uo pipefail
source .gpu/env.sh
for f in .gpu/debs/php8.2-sqlite3_*.deb .gpu/debs/libsqlite3-0_*.deb; do dpkg -x $f /tmp/gpuroot; done
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
nvidia-smi -L; date -u
B=$PWD/.gpujob/bin   # gen_corpus, gpupostd (make gpupostd, -O2) and bench/server_load built here
( $B/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1 ) &
gen=$!
NO_INTERACTION=1 GPUPOSTD=$B/gpupostd timeout 240 php -n run-tests.php -q -n -d extension_dir=$PWD/modules -d extension=gpupost.so -j8 --show-diff tests/ > $OUT/phpt.log 2>&1
grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" $OUT/phpt.log
wait $gen; date -u
PHPX="php -n -d memory_limit=-1 -d gpupost.min_device_values=0 -d gpupost.max_result_bytes=64G -d extension=$PWD/modules/gpupost.so"
GPUPOST_PROFILE=2 timeout 120 $PHPX docs/bench/h200-s24/trace_or.php /tmp/syn2m.gpix /tmp/q2m.txt 2>&1 | grep -E "^batch|top_k" | tee $OUT/profile.txt
GPUPOST_SO=$PWD/modules/gpupost.so timeout 200 php -n -d gpupost.max_result_bytes=64G -d extension=$PWD/modules/gpupost.so bench/ranked_device.php /tmp/syn2m.gpix /tmp/q2m.txt 1024 1,4,16,64,256,1024 2>&1 | tee $OUT/ranked-batches.txt
date -u
$B/gpupostd --foreground --set socket=/tmp/b.sock --set allow_dir=/tmp --set device=gpu --set host_threads=16 > $OUT/server.log 2>&1 &
sleep 1
for i in 1 2 3 4 5 6 7 8 9 10; do [ -S /tmp/b.sock ] && break; sleep 1; done
timeout 120 $B/server_load /tmp/b.sock /tmp/syn2m.gpix /tmp/q2m.txt or10 1 1 server > /dev/null
for run in "or10 1 server" "or10 16 server" "or10 64 server" "or10 128 server" "and10 16 auto" "and10 64 auto" "and10 128 auto" "and 64 auto" "or10 64 worker" "and10 64 worker"; do
  set -- $run
  $B/gpupostd --socket /tmp/b.sock --stats > $OUT/st0.txt
  timeout 60 $B/server_load /tmp/b.sock /tmp/syn2m.gpix /tmp/q2m.txt $1 $2 4 $3 2>&1 | tee -a $OUT/load.txt
  $B/gpupostd --socket /tmp/b.sock --stats > $OUT/st1.txt
  awk 'NR==FNR{a[$1]=$2;next} $1=="device_batches"||$1=="device_queries"||$1=="device_ns"||$1=="host_queries"{d[$1]=$2-a[$1]} END{printf "    device batches %d, queries %d (%.1f a batch, %.3f ms a batch), host queries %d\n", d["device_batches"], d["device_queries"], d["device_queries"]/(d["device_batches"]+1e-9), d["device_ns"]/1e6/(d["device_batches"]+1e-9), d["host_queries"]}' $OUT/st0.txt $OUT/st1.txt | tee -a $OUT/load.txt
done
$B/gpupostd --socket /tmp/b.sock --stats > $OUT/stats-end.txt
pkill gpupostd
date -u
