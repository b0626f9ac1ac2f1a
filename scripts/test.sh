#!/usr/bin/env bash
# The README's second command: sets up (scripts/setup.sh) a test build (the test hooks compiled in:
# fault injection and forced staging, which tests/035, 038, 059, 065 and 068 use), then runs the
# phpt suite with run-tests.php (make test), a test a core at once; builds gpupostd first. Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
GPUPOST_CONFIGURE=--enable-gpupost-test-hooks bash scripts/setup.sh
# gpupostd, which tests/095 starts and asks through the extension
make -s gpupostd
# The device's kernels built once before the tests run side by side (a test a core): PoCL's
# kernel cache is then written by one process, not by every test at once.
php -n -d extension_dir="$PWD/modules" -d extension=gpupost.so -d gpupost.min_device_values=0 \
	-r 'gpu_decode_postings(gpu_encode_postings([1, 2, 3]));' >/dev/null 2>&1 || true
# 300 s a test: the heaviest device tests (064) need more than run-tests' 60 s while PoCL's kernel
# cache is empty
NO_INTERACTION=1 TEST_PHP_ARGS="${TEST_PHP_ARGS:--q --show-diff --set-timeout 300 -j$(nproc)}" make test
