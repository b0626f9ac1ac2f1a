# after2 = release build of 03dc850, after3 = of db30b89 (a node that decides its parent ends its subtree)
set -uo pipefail
source .gpu/env.sh
nvidia-smi -L; date -u
taskset -c 4-15 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1; cat $OUT/gen.txt; date -u
for b in after2 after3 after2 after3; do
  php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/$b/gpupost.so"
  timeout 150 taskset -c 0-3 $php bench/tree_batch.php /tmp/syn2m.gpix /tmp/q2m.txt --batch=10000 --trees=10000 --seconds=1 "--shapes=8 terms,a b NOT c,(a OR b) AND c" > $OUT/sc-$b.md 2> $OUT/sc-$b.err
  echo "== $b"; grep "^| [a(8]" $OUT/sc-$b.md; tail -2 $OUT/sc-$b.err
done
date -u
