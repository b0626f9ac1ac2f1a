#!/usr/bin/env bash
# php-fpm under load, on loopback only: starts Debian's php8.2-fpm with the extension behind
# nginx, serves tests/fpm/decode.php (posting lists decoded through gpupost and checked against
# the host path in every request) and sends a bounded load of concurrent requests with ab, for
# gpupost.device=cpu (PoCL) and gpupost.device=host. Fails on any non-200 or differing response,
# a worker that died on a signal, a master process that opened the device (it must be opened
# in the workers only, after the fork), or a worker whose resident memory grew past its bound:
# every request makes one large call, and a worker's RSS after the run may exceed its RSS after
# the first requests by at most gpupost.max_cached_bytes (2M here) and 32 MiB of PHP's own
# caches, and what a worker says it keeps (gpu_info()['cached']) stays under that cap. Then a
# persistent GpuPost\Index (tests/fpm/index.php): every request opens it with 'persistent' and
# checks its answers against the CLI's; each worker must load the file once (the rest reuse it),
# its resident bytes stay under gpupost.max_resident_bytes (16M here), and the workers' RSS may
# grow by at most 32 MiB after the warm-up. Prints one line of figures per run.
#   bash scripts/fpm-load.sh [requests per run, default 2000] [concurrency, default 16]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
requests=${1:-2000}
concurrency=${2:-16}
bash scripts/setup.sh
need=()
for pkg in php8.2-fpm nginx-light apache2-utils curl; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
	sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
work=$(mktemp -d)
port_http=18080
port_fcgi=19000
cleanup() {
	[ -f "$work/fpm.pid" ] && kill "$(cat "$work/fpm.pid")" 2>/dev/null || true
	[ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
	sleep 0.5
	rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/www" "$work/nginx"
cp tests/fpm/decode.php tests/fpm/index.php "$work/www/"
# the index the workers keep, and the answers its queries must get (computed here on the host)
php -n -d extension="$PWD/modules/gpupost.so" -d gpupost.device=host -r '
mt_srand(16);
$lists = [];
for ($t = 0; $t < 400; $t++) {
    $l = [];
    for ($i = mt_rand(1, 2000); $i > 0; $i--) $l[mt_rand(0, 50000)] = [mt_rand(1, 20), mt_rand(21, 40)];
    ksort($l);
    $lists["t$t"] = $l;
}
$ix = new GpuPost\Index($lists, GPUPOST_POSTINGS);
$ix->save($argv[1] . "/ix.gpix");
$ref = [];
foreach ([GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] as $op) {
    $q = [];
    for ($i = 0; $i < 40; $i++) $q[] = ["t" . mt_rand(0, 399), "t" . mt_rand(0, 399)];
    $ref[] = ["op" => $op, "queries" => $q, "answers" => $ix->searchBatch($q, ["op" => $op])];
}
file_put_contents($argv[1] . "/ix-ref.json", json_encode($ref));
' "$work/www"
cat > "$work/nginx.conf" <<CONF
daemon on;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
worker_processes 1;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path $work/nginx;
	fastcgi_temp_path $work/nginx;
	proxy_temp_path $work/nginx;
	server {
		listen 127.0.0.1:$port_http;
		root $work/www;
		location ~ \.php\$ {
			include /etc/nginx/fastcgi_params;
			fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
			fastcgi_pass 127.0.0.1:$port_fcgi;
		}
	}
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
# "pid KiB" of each worker of master $1
rss_snapshot() {
	for w in $(pgrep -P "$1"); do echo "$w $(awk '/^VmRSS/ {print $2}' "/proc/$w/status")"; done
}
# A load run of page $1 on $master: a warm-up (every worker serves a few requests), each worker's
# resident memory taken, $requests requests with ab (output in $3), and the figures in run_*:
# the workers grown past $2 KiB and each one's MiB before->after, ab's counts and rate.
load_run() {
	ab -q -n 64 -c 4 "http://127.0.0.1:$port_http/$1" > /dev/null 2>&1 || true
	rss_snapshot "$master" > "$work/rss-warm"
	ab -q -n "$requests" -c "$concurrency" "http://127.0.0.1:$port_http/$1" > "$3" 2>&1 || true
	read -r run_grown run_report <<< "$(rss_growth "$master" "$work/rss-warm" "$2")"
	run_complete=$(sed -n 's/^Complete requests: *//p' "$3")
	run_failed=$(sed -n 's/^Failed requests: *//p' "$3")
	run_non2xx=$(sed -n 's/^Non-2xx responses: *//p' "$3")
	run_rps=$(sed -n 's/^Requests per second: *\([0-9.]*\).*/\1/p' "$3")
}
# against a snapshot: how many workers grew past $3 KiB, then each one's MiB before->now
rss_growth() {
	local grown=0 report="" w warm now
	for w in $(pgrep -P "$1"); do
		now=$(awk '/^VmRSS/ {print $2}' "/proc/$w/status")
		warm=$(awk -v w="$w" '$1 == w {print $2}' "$2")
		warm=${warm:-0}
		report+=" $((warm / 1024))->$((now / 1024))"
		[ "$warm" -gt 0 ] && [ "$now" -gt $((warm + $3)) ] && grown=$((grown + 1))
	done
	echo "$grown$report"
}
status=0
for device in cpu host; do
	cat > "$work/fpm.conf" <<CONF
[global]
pid = $work/fpm.pid
error_log = $work/fpm-$device.log
daemonize = yes
[gpupost]
user = $(id -un)
listen = 127.0.0.1:$port_fcgi
pm = static
pm.max_children = 4
catch_workers_output = yes
php_admin_value[memory_limit] = 256M
php_admin_value[gpupost.max_cached_bytes] = 2M
; PoCL links the kernels it compiles with ld, and php-fpm clears the workers' environment
env[PATH] = /usr/local/bin:/usr/bin:/bin
CONF
	php-fpm8.2 -n -y "$work/fpm.conf" -R -d extension="$PWD/modules/gpupost.so" -d gpupost.device=$device \
		-d gpupost.max_resident_bytes=16M
	sleep 1
	master=$(cat "$work/fpm.pid")
	info=$(curl -fsS "http://127.0.0.1:$port_http/decode.php?info=1")
	load_run "decode.php?seed=7" $(((2 + 32) * 1024)) "$work/ab.txt"
	rss_grown=$run_grown rss_report=$run_report complete=$run_complete failed=$run_failed non2xx=$run_non2xx rps=$run_rps
	body=$(curl -fsS "http://127.0.0.1:$port_http/decode.php?seed=7")
	# what the worker that served it keeps between requests
	cached=$(curl -fsS "http://127.0.0.1:$port_http/decode.php?info=1" | sed -n 's/.*"cached":{"host_scratch":\([0-9]*\),"pinned":\([0-9]*\),"device":\([0-9]*\)}.*/\1 \2 \3/p')
	read -r kept_host kept_pinned kept_device <<< "${cached:-x x x}"
	cache_ok=no
	[ "$kept_host" != x ] && [ $((kept_host + kept_pinned)) -le $((2 << 20)) ] && [ "$kept_device" -le $((2 << 20)) ] && cache_ok=yes
	other=$(curl -fsS "http://127.0.0.1:$port_http/decode.php?seed=8")
	# every response of the run had the length of the first (ab counts differing lengths as failed)
	opened_in_master=no
	grep -q -e libpocl -e libnvidia-opencl "/proc/$master/maps" 2>/dev/null && opened_in_master=yes
	# the same look finds the device in the workers that served requests (so the check can fail)
	workers_with_device=0
	for w in $(pgrep -P "$master"); do
		grep -q -e libpocl -e libnvidia-opencl "/proc/$w/maps" 2>/dev/null && workers_with_device=$((workers_with_device + 1))
	done
	signals=$(grep -c -i "signal" "$work/fpm-$device.log" || true)
	echo "fpm device=$device: $info; requests ${complete:-0}/$requests, failed ${failed:-?}, non-2xx ${non2xx:-0}, ${rps:-?} req/s, workers killed by a signal ${signals}, device opened in master: $opened_in_master, in $workers_with_device workers, worker RSS MiB after warm-up->after run: $rss_report (bound: +34), over the bound: $rss_grown, kept between requests: host ${kept_host} B, pinned ${kept_pinned} B, device ${kept_device} B (cap 2M: $cache_ok)"
	if [ "${complete:-0}" != "$requests" ] || [ "${failed:-1}" != "0" ] || [ -n "$non2xx" ] || [ "$rss_grown" != 0 ] || [ "$cache_ok" != yes ] ||
	   [ "$signals" != "0" ] || [ "$opened_in_master" != no ] || [ "${body:0:3}" != "OK " ] ||
	   [ "${other:0:3}" != "OK " ] || [ "$body" = "$other" ]; then
		echo "fpm device=$device: FAILED"; cat "$work/ab.txt"; cat "$work/fpm-$device.log"; status=1
	fi
	case "$device:$workers_with_device:$info" in
		cpu:[1-9]*'"backend":"opencl"'*|host:0:*'"backend":"host"'*) ;;
		*) echo "fpm device=$device: unexpected backend: $info"; status=1 ;;
	esac
	# the persistent index: opened once per worker, answers checked in every request
	rm -f "$work/www/opens.log"
	load_run "index.php" $((32 * 1024)) "$work/ab-index.txt"
	ix_grown=$run_grown ix_report=$run_report ix_complete=$run_complete ix_failed=$run_failed ix_rps=$run_rps
	ix_body=$(curl -fsS "http://127.0.0.1:$port_http/index.php")
	opens=$(wc -l < "$work/www/opens.log" 2>/dev/null || echo 0)
	opener_pids=$(sort -u "$work/www/opens.log" 2>/dev/null | wc -l)
	resident=$(echo "$ix_body" | awk '{print $4 + 0}')
	echo "fpm device=$device, persistent index: requests ${ix_complete:-0}/$requests, failed ${ix_failed:-?}, ${ix_rps:-?} req/s, file loaded $opens times by $opener_pids workers (4 workers), resident $resident B (cap 16M), worker RSS MiB after warm-up->after run: $ix_report (bound: +32), over the bound: $ix_grown; last response: $ix_body"
	if [ "${ix_complete:-0}" != "$requests" ] || [ "${ix_failed:-1}" != "0" ] || [ "${ix_body:0:10}" != "OK reused " ] ||
	   [ "$opens" -lt 1 ] || [ "$opens" -gt 4 ] || [ "$opens" != "$opener_pids" ] || [ "$resident" -le 0 ] ||
	   [ "$resident" -gt $((16 << 20)) ] || [ "$ix_grown" != 0 ]; then
		echo "fpm device=$device, persistent index: FAILED"; cat "$work/ab-index.txt"; cat "$work/fpm-$device.log"; status=1
	fi
	kill "$master"; sleep 1; rm -f "$work/fpm.pid"
done
exit $status
