set -uo pipefail
source .gpu/env.sh
nproc; nvidia-smi -L; date -u
php -n -d extension=$PWD/modules/gpupost.so -r 'print_r(gpu_info()["device"]["name"] ?? "none"); echo "\n";'
NO_INTERACTION=1 timeout 500 php -n run-tests.php -q -n -d extension_dir=$PWD/modules -d extension=gpupost.so -j8 --show-diff tests/ > $OUT/phpt.log 2>&1
grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" $OUT/phpt.log
