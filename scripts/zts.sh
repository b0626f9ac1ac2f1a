#!/usr/bin/env bash
# gpupost on a thread-safe PHP (ZTS). PHP 8.2 is built from Debian's own php8.2 source package
# (`apt-get source`; configure --enable-zts with the CLI, the embed SAPI, pcntl and sqlite3, the
# extensions the suite uses), once, under $GPUPOST_ZTS_DIR (default /var/tmp/gpupost-zts: kept
# between runs, outside the clone). Then, against it: the extension's test build and the phpt
# suite; the threaded test (tests/zts/threads.c embeds PHP and runs tests/zts/threads.php on 8
# threads at once, decodes and index queries on the host and the device, answers checked); and the
# same threaded test on a build without the extension's lock (GP_ZTS_UNLOCKED), which must fail.
#   bash scripts/zts.sh [threads, default 8]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
threads=${1:-8}
zts=${GPUPOST_ZTS_DIR:-/var/tmp/gpupost-zts}
prefix=$zts/php
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
need=()
for pkg in dpkg-dev libsqlite3-dev gcc make pkg-config pocl-opencl-icd ocl-icd-opencl-dev opencl-headers; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] || { $sudo apt-get update -qq; DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null; }

if [ ! -x "$prefix/bin/php" ] || [ ! -f "$prefix/lib/libphp.so" ]; then
	echo "zts: building PHP from Debian's php8.2 source package (once, into $zts)"
	mkdir -p "$zts"
	(
		cd "$zts"
		if ! ls php8.2_*.orig.tar.xz >/dev/null 2>&1; then
			grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/ ||
				$sudo sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
			$sudo apt-get update -qq
			# the newest source the mirror has (a security update's may be missing from it)
			for v in $(apt-cache showsrc php8.2 | sed -n 's/^Version: //p' | sort -rV); do
				apt-get source -qq --download-only "php8.2=$v" >/dev/null 2>&1 && break
			done
		fi
		rm -rf src && mkdir src && tar xf php8.2_*.orig.tar.xz -C src --strip-components=1
		cd src
		./configure -q --prefix="$prefix" --enable-zts --disable-all --enable-cli --enable-embed=shared \
			--enable-pcntl --with-sqlite3 --disable-cgi --disable-phpdbg --without-pear --without-libxml >/dev/null
		make -s -j"$(nproc)" >/dev/null 2>&1 || make -s >/dev/null
		make -s install >/dev/null
	)
fi
"$prefix/bin/php" -r 'echo "zts: PHP ", PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS", "\n"; exit(PHP_ZTS ? 0 : 1);'

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the extension built against it, in a copy of the tree: locked (the real one) and unlocked
build() {
	local dir=$1 cflags=$2
	mkdir -p "$dir"
	git ls-files -co --exclude-standard | grep -v '^\.gpu/\|^debian/' | tar cf - -T - | tar xf - -C "$dir"
	(cd "$dir" && "$prefix/bin/phpize" >/dev/null 2>&1 && CFLAGS="-O2 $cflags" ./configure -q --with-php-config="$prefix/bin/php-config" \
		--enable-gpupost-test-hooks >/dev/null && make -s -j"$(nproc)" >/dev/null 2>&1 || make -s >/dev/null)
}
build "$work/locked" ""
echo "zts: the suite on the ZTS PHP"
(cd "$work/locked" && NO_INTERACTION=1 "$prefix/bin/php" -n "$prefix/lib/php/build/run-tests.php" -q -j"$(nproc)" --set-timeout 300 -n \
	-p "$prefix/bin/php" -d extension_dir="$work/locked/modules" -d extension=gpupost.so --show-diff tests/ 2>&1 |
	sed 's/\x1b\[[0-9;]*m//g' > "$work/suite.log") || true
grep -E "^(FAIL|Tests (passed|failed|skipped|leaked))" "$work/suite.log" || true
if ! grep -qE "^Tests failed +: +0 " "$work/suite.log" || ! grep -qE "^Tests passed +: +[1-9]" "$work/suite.log"; then
	grep -A30 "^========DIFF========" "$work/suite.log" | head -60
	echo "zts: FAILED: the suite on the ZTS PHP"
	exit 1
fi

cc -O1 -g -o "$work/threads" tests/zts/threads.c $("$prefix/bin/php-config" --includes) -L"$prefix/lib" -lphp \
	-Wl,-rpath,"$prefix/lib" -lpthread
threaded() {   # runs the threaded test with extension build $1; prints its lines; its exit status
	mkdir -p "$work/ini-$2"
	printf 'extension=%s/modules/gpupost.so\nmemory_limit=512M\ngpupost.device=%s\n' "$1" "${GPUPOST_ZTS_DEVICE:-auto}" > "$work/ini-$2/php.ini"
	PHPRC="$work/ini-$2" GPUPOST_ZTS_WORK="$work" timeout 600 "$work/threads" "$root/tests/zts/setup.php" \
		"$root/tests/zts/threads.php" "$threads"
}
echo "zts: $threads threads at once, the extension's lock in place"
set +e
threaded "$work/locked" locked > "$work/locked.out" 2>&1
locked=$?
set -e
cat "$work/locked.out"
ok_lines=$(grep -c ": ok," "$work/locked.out" || true)
if [ "$locked" -ne 0 ] || [ "$ok_lines" -ne "$threads" ] || grep -q MISMATCH "$work/locked.out"; then
	echo "zts: FAILED: the threaded test (exit $locked, $ok_lines of $threads threads ok)"
	exit 1
fi
echo "zts: threaded test passed"

build "$work/unlocked" "-DGP_ZTS_UNLOCKED"
echo "zts: the same without the lock (GP_ZTS_UNLOCKED), which must fail"
set +e
threaded "$work/unlocked" unlocked > "$work/unlocked.out" 2>&1
unlocked=$?
set -e
head -20 "$work/unlocked.out"
if [ "$unlocked" -eq 0 ] && ! grep -q MISMATCH "$work/unlocked.out"; then
	echo "zts: FAILED: without the lock the threaded test still passed: it does not test the lock"
	exit 1
fi
echo "zts: without the lock the threaded test fails (exit $unlocked), as it must"
