# before = release build of 1eb068c, after2 = of 03dc850 (bench/tree_batch.php of the working tree)
set -uo pipefail
source .gpu/env.sh
nvidia-smi -L; date -u
taskset -c 4-15 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1; cat $OUT/gen.txt; date -u
for b in before after2 before after2; do
  php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/$b/gpupost.so"
  timeout 120 taskset -c 0-3 $php bench/tree_batch.php /tmp/syn2m.gpix /tmp/q2m.txt --batch=10000 --trees=10000 --seconds=1 "--shapes=a b NOT c,(a OR b) AND c" > $OUT/ab-$b.md 2> $OUT/ab-$b.err
  echo "== $b"; grep "^| [a(]" $OUT/ab-$b.md; tail -2 $OUT/ab-$b.err
done
date -u
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/after2/gpupost.so"
timeout 250 taskset -c 0-3 $php bench/tree_batch.php /tmp/syn2m.gpix /tmp/q2m.txt --batch=10000 --trees=10000 --seconds=1.5 > $OUT/trees-after2.md 2> $OUT/trees-after2.err; tail -16 $OUT/trees-after2.md; tail -3 $OUT/trees-after2.err
date -u
