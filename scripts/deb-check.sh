#!/usr/bin/env bash
# The Debian package as an operator meets it, on a fresh Debian 12 root: debootstrap's minimal
# bookworm (made once, kept as a pristine copy under $DEB_BASE, default /var/tmp/gpupost-deb12,
# and copied afresh for every run), the build dependencies debian/control declares installed there
# (apt-get build-dep), `dpkg-buildpackage -us -uc -b` from a copy of this tree, the two packages
# installed with apt (which brings what they depend on), then: `php --ri gpupost` enabled for the
# cli, a request to php-fpm (a pool of Debian's own configuration) that decodes through it,
# gpupostd's package (its user, unit and configuration) and a query answered through it, and
# the packages removed again (the extension gone from both SAPIs). Needs root (chroot, mount).
#   bash scripts/deb-check.sh        (DEB_KEEP=1 leaves the run's root for a look)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ "$(id -u)" -eq 0 ] || exec sudo -E bash "$0" "$@"   # debootstrap, chroot and mount need root
base=${DEB_BASE:-/var/tmp/gpupost-deb12}
run=$base-run
mirror=${DEB_MIRROR:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
if [ ! -x "$base/usr/bin/apt-get" ]; then
	rm -rf "$base"
	debootstrap --variant=minbase bookworm "$base" "$mirror" >/dev/null
	echo "deb http://deb.debian.org/debian bookworm main" > "$base/etc/apt/sources.list"
	echo "deb http://deb.debian.org/debian-security bookworm-security main" >> "$base/etc/apt/sources.list"
fi
cleanup() {
	umount "$run/proc" 2>/dev/null || true
	[ -n "${DEB_KEEP:-}" ] || rm -rf "$run"
}
trap cleanup EXIT
umount "$run/proc" 2>/dev/null || true
rm -rf "$run"
cp -a "$base" "$run"
mount -t proc proc "$run/proc"
cp /etc/resolv.conf "$run/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' > "$run/usr/sbin/policy-rc.d"   # no service started by a package's scripts
chmod +x "$run/usr/sbin/policy-rc.d"
mkdir -p "$run/build/gpupost"
git ls-files -co --exclude-standard | grep -v '^\.gpu/' | tar cf - -T - | tar xf - -C "$run/build/gpupost"
in_root() { chroot "$run" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive bash -euo pipefail -c "$1"; }

echo "deb: build dependencies"
in_root 'apt-get update -qq && apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null &&
         apt-get build-dep -y -qq /build/gpupost >/dev/null'
echo "deb: dpkg-buildpackage -us -uc -b"
in_root 'cd /build/gpupost && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b >/build/dpkg-buildpackage.log 2>&1' ||
	{ tail -40 "$run/build/dpkg-buildpackage.log"; exit 1; }
ls "$run"/build/*.deb | sed 's|.*/|deb: built |'
echo "deb: installed with php8.2-fpm"
in_root 'apt-get install -y -qq --no-install-recommends /build/php8.2-gpupost_*_amd64.deb /build/php-gpupost_*_all.deb \
         php8.2-fpm libfcgi-bin >/dev/null 2>>/build/apt.log'
in_root 'php --ri gpupost | grep -q "gpupost support => enabled" && echo "deb: php --ri gpupost: enabled (cli)"'
in_root 'test -L /etc/php/8.2/cli/conf.d/20-gpupost.ini && test -L /etc/php/8.2/fpm/conf.d/20-gpupost.ini &&
         echo "deb: enabled for cli and fpm (mods-available/gpupost.ini linked)"'
cat > "$run/srv/decode.php" <<'PHP'
<?php
$blob = gpu_encode_postings([3, 9, 27, 81], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
echo PHP_SAPI, ' ', json_encode(gpu_decode_postings($blob, GPUPOST_S9) === [3, 9, 27, 81]), ' ',
    gpu_info()['last_backend'], "\n";
PHP
in_root 'mkdir -p /run/php && php-fpm8.2 -D && sleep 1 &&
         out=$(SCRIPT_FILENAME=/srv/decode.php REQUEST_METHOD=GET cgi-fcgi -bind -connect /run/php/php8.2-fpm.sock | tail -1) &&
         kill "$(cat /run/php/php8.2-fpm.pid)" && echo "deb: php-fpm request: $out" && test "${out%% *}" = fpm-fcgi &&
         case "$out" in *" true "*) ;; *) exit 1 ;; esac'
# gpupostd: its package (user, configuration, unit), then a PHP script answered through it
in_root 'apt-get install -y -qq --no-install-recommends /build/gpupostd_*_amd64.deb >/dev/null 2>>/build/apt.log &&
         id gpupost >/dev/null && test -f /lib/systemd/system/gpupostd.service && test -d /var/lib/gpupost &&
         gpupostd --check && echo "deb: gpupostd installed (user gpupost, unit, /etc/gpupost/gpupostd.conf valid)"'
cat > "$run/srv/server.php" <<'PHP'
<?php
$ix = new GpuPost\Index(['a' => gpu_encode_postings([1, 5, 9], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]),
                         'b' => gpu_encode_postings([5, 9, 12], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1])], GPUPOST_S9);
$ix->save('/var/lib/gpupost/demo.gpix');
$served = GpuPost\Index::open('/var/lib/gpupost/demo.gpix', ['server' => 'required', 'device' => 'gpu']);
echo json_encode($served->search(['a', 'b'])), ' ', $served->info()['answered_by'], "\n";
PHP
in_root 'mkdir -p /run/gpupost && { gpupostd --foreground --set placement=host > /build/gpupostd.log 2>&1 & pid=$!; } && sleep 1 &&
         out=$(php -d gpupost.server=unix:/run/gpupost/gpupost.sock /srv/server.php) && kill $pid &&
         echo "deb: a query through gpupostd: $out" && test "$out" = "[5,9] server"'
in_root 'apt-get remove -y -qq gpupostd >/dev/null 2>>/build/apt.log && test ! -e /usr/sbin/gpupostd && echo "deb: gpupostd removed"'
in_root 'apt-get remove -y -qq php8.2-gpupost php-gpupost >/dev/null 2>>/build/apt.log &&
         ! php -m | grep -qx gpupost && test ! -e /etc/php/8.2/fpm/conf.d/20-gpupost.ini &&
         echo "deb: removed: the extension is gone from cli and fpm"'
echo "deb: ok"
