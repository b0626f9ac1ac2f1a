#!/usr/bin/env bash
# Runs the phpt suite under valgrind (run-tests.php -m: memcheck with leak checking) on the host
# path, with USE_ZEND_ALLOC=0 so that every allocation is seen, a test a core at once (each may
# take up to 20 minutes). A leak or an invalid access fails
# the test ("LEAK" in the summary). PCRE's JIT is off (valgrind cannot follow the code it writes). Excluded: the device path (gpupost.device=host) - PoCL's JIT
# generates code at run time that valgrind cannot follow usefully, and the tests that need a
# device skip.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
command -v valgrind >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -qq valgrind >/dev/null; }
export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
NO_INTERACTION=1 php -n run-tests.php -q -m -j"$(nproc)" --set-timeout 1200 -n -d extension_dir="$PWD/modules" -d extension=gpupost.so \
	-d gpupost.device=host -d pcre.jit=0 --show-diff tests/
