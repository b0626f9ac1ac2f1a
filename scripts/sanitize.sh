#!/usr/bin/env bash
# Builds the extension with AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ and runs
# the whole phpt suite against it on the host path (gpupost.device=host, USE_ZEND_ALLOC=0 so that
# PHP's allocations go through ASan). PHP itself is not instrumented, so the ASan runtime is
# preloaded. Leaks are left to the valgrind run (scripts/valgrind.sh): LeakSanitizer would report
# PHP's own start-up allocations. PHP dlopens extensions with RTLD_DEEPBIND, which the sanitizer
# runtimes refuse: scripts/no_deepbind.c, preloaded first, drops the flag. A test a core at once;
# the heaviest (055, 064) then pass run-tests' 60 s, so the limit is 600 s.
#
# Excluded: nothing runs PoCL here. PoCL's JIT (LLVM) and the device path are not run under a
# sanitizer: gpupost.device=host keeps OpenCL closed, and the tests that need a device skip.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
build=build-asan
rm -rf "$build"
mkdir -p "$build"
git ls-files -z | xargs -0 cp --parents -t "$build"
cd "$build"
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
phpize >/dev/null
CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" ./configure -q >/dev/null
make -s -j"$(nproc)" >/dev/null 2>&1 || make
gcc -shared -fPIC -o no_deepbind.so ../scripts/no_deepbind.c -ldl
preload="$PWD/no_deepbind.so:$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1:verify_asan_link_order=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LD_PRELOAD="$preload"
NO_INTERACTION=1 php -n run-tests.php -q -j"$(nproc)" --set-timeout 600 -n -d extension_dir="$PWD/modules" -d extension=gpupost.so \
	-d gpupost.device=host --show-diff tests/
