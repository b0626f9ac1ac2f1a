#!/usr/bin/env bash
# The suite as a packager or a PIE user runs it: a release build (phpize && ./configure && make,
# no test hooks) and make test, on the device where there is one (PoCL here). The tests that need
# the test build's hooks skip and say why; the others, device comparisons included, must pass.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
# the kernels built once before the tests run side by side (as scripts/test.sh does)
php -n -d extension_dir="$PWD/modules" -d extension=gpupost.so -d gpupost.min_device_values=0 \
	-r 'gpu_decode_postings(gpu_encode_postings([1, 2, 3]));' >/dev/null 2>&1 || true
NO_INTERACTION=1 TEST_PHP_ARGS="-q --show-diff --set-timeout 300 -j$(nproc)" make test
