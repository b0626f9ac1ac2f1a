#!/usr/bin/env bash
# GPU session runs for issue 16 (not committed): ix1 = suite (test build) + demo-corpus index bench;
# ix2 = synthetic 5M-doc corpus index bench.
set -uo pipefail
source .gpu/env.sh
export GPUPOST_TEST_SQLITE3=/tmp/gpuroot/usr/lib/php/20220829/sqlite3.so
out=${OUT:-/tmp/out}
mkdir -p "$out"
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d gpupost.min_device_values=0 -d extension=$PWD/modules/gpupost.so"
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } | tee "$out/device.txt"
if [ "$1" = ix1 ]; then
	mkdir -p /tmp/testmod && cp .gpu-old/test/gpupost.so /tmp/testmod/
	ls /usr/share/common-licenses | wc -l; ls /usr/share/doc/*/copyright 2>/dev/null | wc -l
	NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir=/tmp/testmod -d extension=gpupost.so \
		--show-diff tests/ > "$out/phpt.log" 2>&1
	grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" "$out/phpt.log"
	$php bench/index_bench.php .gpu-old/demo.gpix .gpu-old/demo-queries.txt "$out" 10 2>&1 | tee "$out/index-demo.txt"
fi
if [ "$1" = ix3 ]; then
	mkdir -p /tmp/testmod && cp .gpu-old/test/gpupost.so /tmp/testmod/
	NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir=/tmp/testmod -d extension=gpupost.so \
		--show-diff tests/ > "$out/phpt.log" 2>&1
	grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" "$out/phpt.log"
	$php -d extension=$GPUPOST_TEST_SQLITE3 bench/index_bench.php demo "$out" ${SECS:-10} 2>&1 | tee "$out/index-demo.txt"
	rm -f "$out/demo-text.txt"
fi
if [ "$1" = ix6 ]; then
	mkdir -p /tmp/testmod && cp .gpu-old/test/gpupost.so /tmp/testmod/
	NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir=/tmp/testmod -d extension=gpupost.so \
		--show-diff tests/ > "$out/phpt.log" 2>&1
	grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" "$out/phpt.log"
	t0=$(date +%s)
	./bench/gen_corpus ${SYN:-5000000 130 2000000} /tmp/synthetic.gpix /tmp/synthetic-queries.txt
	cp /tmp/synthetic-queries.txt "$out/"
	echo "generated in $(( $(date +%s) - t0 )) s"
	for b in 10000 1000; do $php bench/ranked_device.php /tmp/synthetic.gpix /tmp/synthetic-queries.txt 10000 $b; done 2>&1 | tee "$out/ranked-device.txt"
	echo "total $(( $(date +%s) - t0 )) s"
fi
if [ "$1" = ix7 ]; then
	for b in 10000 1000; do $php bench/ranked_device.php /tmp/synthetic.gpix /tmp/synthetic-queries.txt 10000 $b; done 2>&1 | tee "$out/ranked-device.txt"
fi
if [ "$1" = ix2 ]; then
	t0=$(date +%s)
	if [ -f /tmp/synthetic.gpix ] && [ -f /tmp/synthetic-queries.txt ]; then
		cp /tmp/synthetic-queries.txt "$out/synthetic-queries.txt"
	else
		./bench/gen_corpus ${SYN:-5000000 130 2000000} /tmp/synthetic.gpix "$out/synthetic-queries.txt"
	fi
	echo "generated in $(( $(date +%s) - t0 )) s"; ls -la /tmp/synthetic.gpix
	$php bench/index_bench.php /tmp/synthetic.gpix "$out/synthetic-queries.txt" "$out" ${SECS:-10} 2>&1 | tee "$out/index-synthetic.txt"
	echo "total $(( $(date +%s) - t0 )) s"
fi
if [ "$1" = ix4 ]; then
	mkdir -p /tmp/testmod && cp .gpu-old/test/gpupost.so /tmp/testmod/
	NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir=/tmp/testmod -d extension=gpupost.so \
		--show-diff tests/ > "$out/phpt.log" 2>&1
	grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" "$out/phpt.log"
	bash bench/call_overhead.sh 2000 2>&1 | tee "$out/call_overhead.txt"
fi
if [ "$1" = ix5 ]; then
	mkdir -p /tmp/testmod && cp .gpu-old/test/gpupost.so /tmp/testmod/
	NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir=/tmp/testmod -d extension=gpupost.so \
		--show-diff tests/ > "$out/phpt.log" 2>&1
	grep -E "^(FAIL|SKIP)|Tests (passed|failed|skipped)|Time taken" "$out/phpt.log"
fi
