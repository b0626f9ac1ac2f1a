#!/usr/bin/env bash
# Installs what gpupost needs on Debian 12 when it is missing, then builds the extension
# (phpize && ./configure && make). Run by scripts/demo.sh and scripts/test.sh.
# GPUPOST_CONFIGURE: extra ./configure options (scripts/test.sh passes --enable-gpupost-test-hooks);
# the build is configured again whenever they change.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need=()
for pkg in php-dev php-cli php-sqlite3 pocl-opencl-icd ocl-icd-opencl-dev opencl-headers zlib1g-dev pkg-config gcc make; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "gpupost: installing ${need[*]}" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

flags=${GPUPOST_CONFIGURE:-}
if [ ! -f Makefile ] || [ config.m4 -nt Makefile ] || [ Makefile.frag -nt Makefile ] ||
   [ sources.list -nt Makefile ] || [ "$(cat .configure-flags 2>/dev/null)" != "$flags" ]; then
	phpize >/dev/null
	# shellcheck disable=SC2086
	./configure -q $flags >/dev/null
	echo "$flags" > .configure-flags
	# objects built with other flags, and what they depended on (a header that moved would stop
	# make); make clean would also delete every .so below here
	rm -rf ./*.lo ./*.la ./*.dep .libs modules/*
	for d in engine query codec index opencl; do rm -rf "$d"/*.lo "$d"/*.dep "$d"/.libs; done
fi
make -s -j"$(nproc)" >/dev/null
