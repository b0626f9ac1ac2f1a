#!/usr/bin/env bash
# The README's second command: sets up (scripts/setup.sh) a test build (the test hooks compiled in:
# fault injection and forced staging, which tests/035, 038, 059, 065 and 068 use), then runs the
# phpt suite with run-tests.php (make test). Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
GPUPOST_CONFIGURE=--enable-gpupost-test-hooks bash scripts/setup.sh
NO_INTERACTION=1 TEST_PHP_ARGS="${TEST_PHP_ARGS:--q --show-diff}" make test
