#!/usr/bin/env bash
# The Debian 12 .debs that bench/http.sh needs on a machine without a package registry that already
# has the PHP CLI (the GPU machine: .gpu/debs unpacked into /tmp/gpuroot by .gpu/env.sh):
# php8.2-fpm, nginx, wrk, sphinxsearch, php8.2-mysql and the libraries they load, downloaded with
# `apt-get download` into DIR; prints each with its size, the total, and what was left out.
#
#   bash bench/http-debs.sh [--with-base] DIR
#
# The closure follows Depends and Pre-Depends (the first of alternatives, a virtual package's
# first provider), but not the packages only their maintainer scripts or services use (adduser,
# systemd, procps, ucf, tzdata, nginx-common's /etc files, ...): http.sh runs the binaries from a
# `dpkg -x` root with its own configs. Left out: Debian's base system (priority required or
# important, with their closure; --with-base keeps them, for a host that is not Debian) and what
# the PHP CLI (php8.2-cli, php8.2-sqlite3) already brings. Then, there:
#   for f in DIR/*.deb; do dpkg -x "$f" /tmp/gpuroot; done
#   PHP=/tmp/gpuroot/usr/bin/php8.2 PHP_FPM=/tmp/gpuroot/usr/sbin/php-fpm8.2 NGINX_BIN=/tmp/gpuroot/usr/sbin/nginx \
#   WRK=/tmp/gpuroot/usr/bin/wrk SEARCHD=/tmp/gpuroot/usr/bin/searchd INDEXER=/tmp/gpuroot/usr/bin/indexer \
#   PHP_EXT_DIR=/tmp/gpuroot/usr/lib/php/20220829 bash bench/http.sh --device=gpu
# (with LD_LIBRARY_PATH=/tmp/gpuroot/usr/lib/x86_64-linux-gnu, as .gpu/env.sh sets it).
set -euo pipefail
with_base=0
[ "${1:-}" = --with-base ] && { with_base=1; shift; }
[ $# -eq 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
dir=$1
mkdir -p "$dir"
roots=(php8.2-fpm nginx wrk sphinxsearch php8.2-mysql)
# packages whose files the binaries do not load (scripts, services, configs under /etc)
skip_loaded=" adduser debconf systemd systemd-sysv systemd-standalone-tmpfiles procps ucf tzdata media-types mime-support
 iproute2 sysvinit-utils init-system-helpers lsb-base nginx-common php-common libnginx-mod-http-echo sensible-utils "
skip=$skip_loaded

# the closure of packages from $@, less $skip: a level at a time, one apt-cache call a level
closure() {
	local -A seen=()
	local level=("$@") next p
	while [ ${#level[@]} -gt 0 ]; do
		next=()
		for p in "${level[@]}"; do
			[ -n "${seen[$p]:-}" ] && continue
			seen[$p]=1
			echo "$p"
		done
		# "  Depends: x"; " |Depends: x" (alternatives follow: only the first taken); a virtual
		# "<v>" followed by its providers, indented by 4 (the first taken)
		while read -r p; do
			[ -z "${seen[$p]:-}" ] && [[ $skip != *" $p "* ]] && next+=("$p")
		done < <(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
			"${level[@]}" 2> /dev/null | awk '
			/^[^ ]/ { alt = 0; virt = 0; next }
			/^    / { if (virt) { print $1; virt = 0 } next }
			/^ [ |](Pre)?Depends: / {
				skipping = alt; alt = ($0 ~ /^ \|/); if (skipping) next
				d = $2; if (d ~ /^</) { virt = 1; next }
				if (d !~ /:/) print d
			}' | sort -u)
		level=("${next[@]}")
	done
}

mapfile -t want < <(closure "${roots[@]}" | sort -u)
mapfile -t have < <(closure php8.2-cli php8.2-sqlite3 | sort -u)
# Debian's base system (what debootstrap installs): the essential, required and important
# packages and their closure (Debian 12 gives most libraries priority optional)
mapfile -t seeds < <(apt-cache dumpavail | awk '/^Package:/ {p = $2} /^(Priority: (required|important)|Essential: yes)/ {print p}' | sort -u)
declare -A base=()
skip=" "   # the base's own closure is taken whole
while read -r p; do base[$p]=1; done < <(closure "${seeds[@]}")
skip=$skip_loaded
get=() left_base=()
for p in "${want[@]}"; do
	if [ -n "${base[$p]:-}" ] && [ "$with_base" = 0 ]; then left_base+=("$p"); continue; fi
	printf '%s\n' "${have[@]}" | grep -qx "$p" && continue
	get+=("$p")
done
(cd "$dir" && apt-get download -qq -o APT::Sandbox::User=root "${get[@]}")
total=0
for p in "${get[@]}"; do
	f=$(ls "$dir/${p}_"*.deb | head -1)
	s=$(stat -c %s "$f")
	total=$((total + s))
	printf '%8.1f KiB  %s\n' "$(awk -v s="$s" 'BEGIN {print s / 1024}')" "$(basename "$f")"
done
echo "${#get[@]} packages, $(awk -v s="$total" 'BEGIN {printf "%.1f MiB", s / 1048576}') in $dir"
echo "left out, Debian's base system: ${left_base[*]:-none}"
echo "left out, the PHP CLI's own: $(printf '%s\n' "${want[@]}" | grep -Fx -f <(printf '%s\n' "${have[@]}") | tr '\n' ' ')"
echo "left out, not loaded by the binaries: $(echo "$skip_loaded" | xargs)"
