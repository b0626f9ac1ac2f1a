#!/usr/bin/env bash
# Installs what gpupost needs on Debian 12 when it is missing, then builds the extension
# (phpize && ./configure && make). Sourced by scripts/demo.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need=()
for pkg in php-dev php-cli pocl-opencl-icd ocl-icd-opencl-dev opencl-headers pkg-config gcc make; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "gpupost: installing ${need[*]}" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ ! -f Makefile ] || [ config.m4 -nt Makefile ] || [ Makefile.frag -nt Makefile ]; then
	phpize >/dev/null
	./configure -q >/dev/null
fi
make -s -j"$(nproc)" >/dev/null
