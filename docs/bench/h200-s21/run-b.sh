set -uo pipefail
source .gpu/env.sh
date -u
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d extension=$PWD/modules/gpupost.so"
timeout 150 $php bench/workers.php /tmp/syn2m.gpix /tmp/q2m.txt $OUT/w64 --workers=64 --modes=mapped --seconds=2 --queries=1000 --warm=1 2>&1 | tee $OUT/workers64.txt
date -u
timeout 400 $php bench/workers.php /tmp/syn2m.gpix /tmp/q2m.txt $OUT/w --workers=1,16 --seconds=2 --queries=2000 --warm=1 --v1=/tmp/syn2m-v1.gpix 2>&1 | tee $OUT/workers.txt
date -u
