set -uo pipefail
source .gpu/env.sh
date -u
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/.gpujob/after/gpupost.so"
timeout 120 $php bench/workers.php /tmp/syn2m.gpix /tmp/q2m.txt $OUT/w64 --workers=1,64 --modes=mapped --seconds=2 --queries=1000 --warm=1 2>&1 | tee $OUT/workers-1-64.txt
date -u
timeout 300 $php bench/workers.php /tmp/syn2m.gpix /tmp/q2m.txt $OUT/w16 --workers=16 --seconds=2 --queries=1000 --warm=1 --v1=/tmp/syn2m-v1.gpix 2>&1 | tee $OUT/workers-16.txt
date -u
