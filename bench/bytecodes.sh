#!/usr/bin/env bash
# The byte-aligned codes on the host, one core, beside Stream VByte (bench/bytecodes_host.c).
# Installs Debian's libstreamvbyte-dev when it is missing. Not a test.
#   bash bench/bytecodes.sh [VALUES] [REPS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! dpkg-query -W -f='${Status}' libstreamvbyte-dev 2>/dev/null | grep -q "install ok installed"; then
	sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libstreamvbyte-dev >/dev/null
fi
mkdir -p bench-out
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o bench-out/bytecodes_host bench/bytecodes_host.c \
	codec/gp_vbyte.c codec/gp_gvarint.c codec/gp_common.c codec/gp_budget.c -lstreamvbyte
taskset -c "$(($(nproc) - 1))" ./bench-out/bytecodes_host "$@"   # one core, the last (the first takes interrupts on a VM)
