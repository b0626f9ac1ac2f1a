set -uo pipefail
source .gpu/env.sh
nvidia-smi -L; date -u
taskset -c 10-13 .gpujob/bin/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1; cat $OUT/gen.txt; date -u
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/after/gpupost.so"
timeout 420 taskset -c 0-3 $php bench/tree_batch.php /tmp/syn2m.gpix /tmp/q2m.txt --batch=10000 --trees=10000 --seconds=2 > $OUT/trees.md 2> $OUT/trees.err; cat $OUT/trees.md; tail -3 $OUT/trees.err
date -u
