set -uo pipefail
source .gpu/env.sh
for f in .gpu/debs/php8.2-sqlite3_*.deb .gpu/debs/libsqlite3-0_*.deb; do dpkg -x $f /tmp/gpuroot; done
mkdir -p /usr/lib/php/20220829 && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so /usr/lib/php/20220829/ && cp /tmp/gpuroot/usr/lib/php/20220829/sqlite3.so modules/
nvidia-smi -L; date -u
NO_INTERACTION=1 timeout 200 php -n run-tests.php -q -n -d extension_dir=$PWD/.gpujob/suite -d extension=gpupost.so -j12 --show-diff tests/ > $OUT/phpt.log 2>&1
sed 's/\x1b\[[0-9;]*m//g' $OUT/phpt.log | grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken|FAIL |SKIP "
php -n -d extension=$PWD/.gpujob/suite/gpupost.so -r '$i = gpu_info(); echo $i["device"]["name"] ?? "none", " ", $i["backend"], "\n";'
date -u
