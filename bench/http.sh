#!/usr/bin/env bash
# Single search queries served over HTTP, as a PHP site serves them: nginx + php-fpm on loopback,
# load by wrk at several concurrencies, one query of the log a request (/q.php?e=ENGINE&k=KIND&id=N,
# N drawn at random by wrk's Lua script; bench/http_q.php). Rows, in one run, on the same documents
# and the same queries:
#   gpupost server  php-fpm workers with gpupost.server naming a gpupostd started here, a
#                   persistent GpuPost\Index::open($file, ['persistent' => true, 'server' => 'auto'])
#   gpupost worker  the same without the server: each worker answers on its mapped file (host path)
#   SQLite FTS5     one database file opened per request (ext/sqlite3)
#   Sphinx          searchd 2.2 on an index of the same documents, SphinxQL through mysqli
# Kinds: "and" (2-4 terms, every match: count and doc sum) and "or10" (OR of the terms, the 10 best
# by BM25). Before anything is timed, every query id the load uses is fetched through nginx from
# every engine and the answers compared (bench/http_check.php; a mismatch names the engine and query
# and ends the run, exit 1); every response of the timed runs must be HTTP 200 (a row with any
# non-2xx or socket error is marked FAILED and the exit status is 1). Table (markdown) on stdout and
# in OUT/http.md: requests/s, p50 and p99 ms, non-2xx, and the PSS of the php-fpm pool and of
# gpupostd or searchd after each run. Not a test.
#
#   bash bench/http.sh [OPTIONS]                           the demo corpus (bench/index_bench.php's)
#   bash bench/http.sh [OPTIONS] INDEX.gpix QUERIES TEXT   a corpus of bench/gen_corpus (its 3 outputs)
#
#   --out=DIR             where http.md goes (bench-out)
#   --seconds=S           each timed run (10); --warmup=S before each engine and kind (2)
#   --concurrency=LIST    wrk's connections, one row each (1,4,16,64,256)
#   --queries=N           the log's first N AND queries, ids 0..N-1, every one checked (1000)
#   --engines=LIST        server,worker,fts5,sphinx;  --kinds=LIST: and,or10
#   --workers=N           php-fpm workers of each pool, pm = static (4 x cores)
#   --device=SPEC         gpupostd's device (cpu: PoCL, with placement=device; gpu; host; auto) (cpu)
#   --server-set=N=V      another gpupostd setting, after those above (repeatable; docs/SERVER.md)
#   --server-min-values=N gpupost.min_device_values of the server row's workers (0: every query
#                         goes to gpupostd; 40000, the extension's default: only the large ones)
#   --sphinx-ranker=R     SphinxQL's ranker for or10 (expr('10000*bm25f(1.2,0.75)'))
#   --keep                keep the work dir (configs, logs, wrk's output)
#
# Binaries: PHP, PHP_FPM, NGINX_BIN (nginx reads NGINX itself), WRK, SEARCHD, INDEXER, GPUPOSTD from the environment where set,
# and PHP_EXT_DIR for sqlite3.so, mysqlnd.so, mysqli.so, opcache.so (on a machine without a
# package registry: the .debs of bench/http-debs.sh unpacked with dpkg -x). One that is missing
# with its variable unset is installed with apt-get. Nothing under /etc is read: every config is
# written into a work dir under /tmp (nginx -p -c, php-fpm -y -c), ports are chosen free at run
# time, and every process started here is stopped on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
cmdline="bash bench/http.sh"
for a in "$@"; do
	if [[ $a =~ ^[A-Za-z0-9_,=./:+-]+$ ]]; then cmdline+=" $a"; else cmdline+=" $(printf '%q' "$a")"; fi
done
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }

cores=$(nproc)
out=bench-out seconds=10 warmup=2 conc_list=1,4,16,64,256 nq=1000 engines=server,worker,fts5,sphinx
kinds=and,or10 workers=$((4 * cores)) device=cpu min_values=0 keep=0
ranker="expr('10000*bm25f(1.2,0.75)')"
server_set=() corpus=()
for a in "$@"; do
	case $a in
		--out=*) out=${a#*=} ;;
		--seconds=*) seconds=${a#*=} ;;
		--warmup=*) warmup=${a#*=} ;;
		--concurrency=*) conc_list=${a#*=} ;;
		--queries=*) nq=${a#*=} ;;
		--engines=*) engines=${a#*=} ;;
		--kinds=*) kinds=${a#*=} ;;
		--workers=*) workers=${a#*=} ;;
		--device=*) device=${a#*=} ;;
		--server-set=*) server_set+=(--set "${a#*=}") ;;
		--server-min-values=*) min_values=${a#*=} ;;
		--sphinx-ranker=*) ranker=${a#*=} ;;
		--keep) keep=1 ;;
		-*) usage ;;
		*) corpus+=("$a") ;;
	esac
done
[ ${#corpus[@]} -eq 0 ] || [ ${#corpus[@]} -eq 3 ] || usage
has() { [[ ",$engines," == *",$1,"* ]]; }
IFS=, read -r -a engine_list <<< "$engines"
IFS=, read -r -a kind_list <<< "$kinds"
IFS=, read -r -a concs <<< "$conc_list"
for e in "${engine_list[@]}"; do
	case $e in server|worker|fts5|sphinx) ;; *) echo "http.sh: unknown engine $e" >&2; exit 2 ;; esac
done
for k in "${kind_list[@]}"; do
	case $k in and|or10) ;; *) echo "http.sh: unknown kind $k" >&2; exit 2 ;; esac
done

# --- binaries: the environment's, else PATH's (with sbin), else installed ---
need=()
resolve() {   # VAR NAME PACKAGE
	local path
	[ -n "${!1:-}" ] && return 0
	path=$(PATH=$PATH:/usr/sbin:/sbin command -v "$2" || true)
	if [ -n "$path" ]; then printf -v "$1" %s "$path"; else need+=("$3"); fi
}
resolve_all() {
	need=()
	resolve PHP php php8.2-cli
	resolve PHP_FPM php-fpm8.2 php8.2-fpm
	resolve NGINX_BIN nginx nginx-light
	resolve WRK wrk wrk
	if has sphinx; then resolve SEARCHD searchd sphinxsearch; resolve INDEXER indexer sphinxsearch; fi
	if [ -z "${PHP_EXT_DIR:-}" ] && [ -n "${PHP:-}" ]; then
		# the CLI's compiled-in directory; under a PHP unpacked into a root (dpkg -x), that root's
		ext_dir=$("$PHP" -n -r 'echo ini_get("extension_dir");')
		local php_root
		php_root=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v "$PHP")")")")")
		[ -d "$ext_dir" ] || ext_dir=$php_root$ext_dir
		[ -f "$ext_dir/sqlite3.so" ] || need+=(php8.2-sqlite3)
		if has sphinx; then [ -f "$ext_dir/mysqli.so" ] || need+=(php8.2-mysql); fi
	else
		ext_dir=${PHP_EXT_DIR:-}
	fi
}
resolve_all
if [ ${#need[@]} -gt 0 ]; then
	if ! command -v apt-get > /dev/null; then
		echo "http.sh: missing ${need[*]}, and no apt-get: set PHP, PHP_FPM, NGINX_BIN, WRK, SEARCHD, INDEXER, PHP_EXT_DIR (bench/http-debs.sh)" >&2
		exit 1
	fi
	sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
	# no daemon started by the packages' scripts (nginx would take port 80): a policy-rc.d while
	# installing, where there is none
	policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d > /dev/null && $sudo chmod 755 /usr/sbin/policy-rc.d && policy=1
	fi
	$sudo apt-get update -qq
	mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" > /dev/null
	[ -z "$policy" ] || $sudo rm -f /usr/sbin/policy-rc.d
	resolve_all
	[ ${#need[@]} -eq 0 ] || { echo "http.sh: still missing: ${need[*]}" >&2; exit 1; }
fi
# the extension and the server: copied into the work dir below, so that a rebuild of the tree
# during the run does not change (or truncate) what the running processes map
so=$root/modules/gpupost.so
for _ in $(seq 24); do [ -f "$so" ] && break; echo "http.sh: waiting for $so (being rebuilt?)" >&2; sleep 5; done
[ -f "$so" ] || { echo "http.sh: no $so: bash scripts/setup.sh && make -j2" >&2; exit 1; }
if [ -z "${GPUPOSTD:-}" ]; then
	GPUPOSTD=$root/server/gpupostd
	[ -x "$GPUPOSTD" ] || ! has server || make -s gpupostd
fi

t_start=$SECONDS
work=$(mktemp -d /tmp/gphttp.XXXXXX)
pids=()
# stops processes started here: TERM, then KILL after 5 s
stop_pids() {
	local p
	for p in "$@"; do kill "$p" 2> /dev/null || true; done
	for p in "$@"; do
		for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
		kill -9 "$p" 2> /dev/null || true
		wait "$p" 2> /dev/null || true
	done
}
cleanup() {
	stop_pids "${pids[@]}"
	if [ "$keep" = 1 ]; then echo "http.sh: work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/bin" "$work/www" "$work/data" "$work/nginx" "$work/sphinx" "$out"
cp "$so" "$work/bin/gpupost.so"
has server && cp "$GPUPOSTD" "$work/bin/gpupostd"
log() { echo "http.sh: $*" >&2; }
ext() { [ -f "$ext_dir/$1.so" ] && echo "-d extension=$ext_dir/$1.so" || true; }

# ports, both held at once so that they differ
ports=$("$PHP" -n -r '$a = stream_socket_server("tcp://127.0.0.1:0"); $b = stream_socket_server("tcp://127.0.0.1:0");
	echo explode(":", stream_socket_get_name($a, false))[1], " ", explode(":", stream_socket_get_name($b, false))[1];')
read -r port sphinx_port <<< "$ports"

# --- the documents and queries, for every engine ---
log "preparing the corpus in $work/data"
# shellcheck disable=SC2046
prep=$("$PHP" -n -d memory_limit=-1 $(ext sqlite3) -d extension="$work/bin/gpupost.so" \
	-d gpupost.device=host bench/http_prep.php "$work/data" "$nq" "${corpus[@]:-demo}")
read -r docs terms postings nq width ixfile <<< "$prep"
corpus_name=demo
[ ${#corpus[@]} -eq 0 ] || corpus_name=$(basename "${corpus[0]}" .gpix)
cp bench/http_q.php "$work/www/q.php"
cat > "$work/www/conf.php" <<PHP
<?php return ['ix' => '$ixfile', 'fts' => '$work/data/fts5.db', 'queries' => '$work/data/queries.dat', 'width' => $width,
    'n' => $nq, 'docs' => $docs, 'sphinx_port' => $sphinx_port, 'sphinx_ranker' => "$ranker"];
PHP
if has sphinx; then
	cat > "$work/sphinx.conf" <<CONF
# the documents as one field; Sphinx's tokens are gpupost's (the text is lowercase [a-z0-9] runs
# joined by spaces): letters and digits only, every length, no stop words, no morphology
source src
{
	type = tsvpipe
	tsvpipe_command = cat $work/data/sphinx.tsv
	tsvpipe_field = body
}
index docs
{
	source = src
	path = $work/sphinx/docs
	dict = keywords
	charset_table = 0..9, a..z, A..Z->a..z
	min_word_len = 1
	index_field_lengths = 1
}
indexer
{
	mem_limit = 512M
}
searchd
{
	listen = 127.0.0.1:$sphinx_port:mysql41
	log = $work/searchd.log
	pid_file = $work/searchd.pid
	binlog_path =
	workers = threads
	listen_backlog = 4096
	watchdog = 0
}
CONF
	log "sphinx: indexing"
	"$INDEXER" --config "$work/sphinx.conf" --all > "$work/indexer.log" 2>&1 || { cat "$work/indexer.log" >&2; exit 1; }
fi

# --- the servers: gpupostd and searchd (backends), a php-fpm pool per engine, one nginx ---
declare -A started
wait_for() {   # WHAT TEST...: up to 60 s
	local what=$1
	shift
	for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done
	log "$what did not start"; tail -20 "$work"/*.log >&2 || true; exit 1
}
tcp_open() { (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
sock=$work/gpupostd.sock
start_backend() {
	case $1 in
		server)
			local where=()
			rm -f "$sock"
			[ "$device" = cpu ] && where=(--set placement=device)   # a CPU device is used only when asked
			"$work/bin/gpupostd" --foreground --set socket="$sock" --set allow_dir="$(dirname "$ixfile")" \
				--set device="$device" "${where[@]}" "${server_set[@]}" >> "$work/gpupostd.log" 2>&1 &
			started[gpupostd]=$!; pids+=($!)
			wait_for gpupostd test -S "$sock"
			# gpupostd opens the index before the workers ask (its device copy, and on a GPU the
			# kernels' build, can take longer than a worker's gpupost.server_timeout)
			"$PHP" -n -d extension="$work/bin/gpupost.so" -d gpupost.device=host -d gpupost.server="unix:$sock" \
				-d gpupost.server_timeout=300000 -r 'GpuPost\Index::open($argv[1], ["server" => "required"]);' "$ixfile" ;;
		sphinx)
			"$SEARCHD" --config "$work/sphinx.conf" --nodetach >> "$work/searchd.out" 2>&1 &
			started[searchd]=$!; pids+=($!)
			wait_for searchd tcp_open "$sphinx_port" ;;
	esac
}
start_pool() {
	local e=$1 ini=$work/php-$1.ini
	{
		echo "; bench/http.sh, pool $e: the only php.ini read (PHP_INI_SCAN_DIR is empty)"
		echo "extension_dir = \"$ext_dir\""
		echo "memory_limit = 1G"
		echo "display_errors = Off"
		echo "log_errors = On"
		echo "error_log = $work/php-$e.log"
		if [ -f "$ext_dir/opcache.so" ]; then
			echo "zend_extension = $ext_dir/opcache.so"
			echo "opcache.enable = 1"
		fi
		case $e in
			server|worker)
				echo "extension = $work/bin/gpupost.so"
				echo "gpupost.device = host                 ; the workers' copy stays on the host"
				echo "gpupost.max_resident_bytes = 64G      ; a large corpus is kept, not refused"
				if [ "$e" = server ]; then
					echo "gpupost.server = unix:$sock"
					echo "gpupost.min_device_values = $min_values"
				fi ;;
			fts5) [ -f "$ext_dir/sqlite3.so" ] && echo "extension = $ext_dir/sqlite3.so" ;;
			sphinx)
				[ -f "$ext_dir/mysqlnd.so" ] && echo "extension = $ext_dir/mysqlnd.so"
				[ -f "$ext_dir/mysqli.so" ] && echo "extension = $ext_dir/mysqli.so" ;;
		esac
	} > "$ini"
	cat > "$work/fpm-$e.conf" <<CONF
[global]
pid = $work/fpm-$e.pid
error_log = $work/fpm-$e.log
daemonize = no
[$e]
$([ "$(id -u)" -eq 0 ] && echo "user = $(id -un)")
listen = $work/fpm-$e.sock
listen.backlog = 4096
pm = static
pm.max_children = $workers
catch_workers_output = yes
clear_env = no
CONF
	PHP_INI_SCAN_DIR="" "$PHP_FPM" -c "$ini" -y "$work/fpm-$e.conf" -R -F >> "$work/fpm-$e.log" 2>&1 &
	started[fpm-$e]=$!; pids+=($!)
	wait_for "php-fpm ($e)" test -S "$work/fpm-$e.sock"
}
stop_started() {   # NAME...
	local n
	for n in "$@"; do
		[ -n "${started[$n]:-}" ] || continue
		stop_pids "${started[$n]}"
		unset "started[$n]"
		rm -f "$work/$n.sock"   # a socket left by a pool killed stays no sign of a new one
	done
}
start_engine() { start_backend "$1"; start_pool "$1"; }
stop_engine() { stop_started "fpm-$1"; case $1 in server) stop_started gpupostd ;; sphinx) stop_started searchd ;; esac; }

cat > "$work/nginx.conf" <<CONF
daemon off;
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
$([ "$(id -u)" -eq 0 ] && echo "user $(id -un) $(id -gn);")
events { worker_connections 8192; }
http {
	access_log off;
	default_type application/octet-stream;
	keepalive_requests 100000000;   # wrk's connections kept for the whole run
	client_body_temp_path $work/nginx/body;
	fastcgi_temp_path $work/nginx/fastcgi;
	proxy_temp_path $work/nginx/proxy;
	scgi_temp_path $work/nginx/scgi;
	uwsgi_temp_path $work/nginx/uwsgi;
	map \$arg_e \$pool {
		server unix:$work/fpm-server.sock;
		worker unix:$work/fpm-worker.sock;
		fts5 unix:$work/fpm-fts5.sock;
		sphinx unix:$work/fpm-sphinx.sock;
	}
	server {
		listen 127.0.0.1:$port backlog=4096;
		root $work/www;
		location = /q.php {
			fastcgi_pass \$pool;
			fastcgi_param SCRIPT_FILENAME \$document_root/q.php;
			fastcgi_param SCRIPT_NAME /q.php;
			fastcgi_param QUERY_STRING \$query_string;
			fastcgi_param REQUEST_METHOD \$request_method;
			fastcgi_param CONTENT_TYPE \$content_type;
			fastcgi_param CONTENT_LENGTH \$content_length;
			fastcgi_param REQUEST_URI \$request_uri;
			fastcgi_param DOCUMENT_URI \$document_uri;
			fastcgi_param DOCUMENT_ROOT \$document_root;
			fastcgi_param SERVER_PROTOCOL \$server_protocol;
			fastcgi_param GATEWAY_INTERFACE CGI/1.1;
			fastcgi_param SERVER_SOFTWARE nginx;
			fastcgi_param REMOTE_ADDR \$remote_addr;
			fastcgi_param REMOTE_PORT \$remote_port;
			fastcgi_param SERVER_ADDR \$server_addr;
			fastcgi_param SERVER_PORT \$server_port;
			fastcgi_param SERVER_NAME \$server_name;
			fastcgi_param REDIRECT_STATUS 200;
		}
	}
}
CONF
"$NGINX_BIN" -p "$work/" -c "$work/nginx.conf" -e "$work/nginx-error.log" &
pids+=($!)
wait_for nginx tcp_open "$port"

# --- the answers, every engine up at once ---
for e in "${engine_list[@]}"; do start_engine "$e"; done
log "checking the answers of ${nq} queries x ${kinds} x ${engines}"
routed=0; [ "$min_values" = 0 ] && routed=1
check=$("$PHP" -n bench/http_check.php "http://127.0.0.1:$port" "$engines" "$kinds" "$nq" "$routed") || {
	log "answers differ (above): nothing timed"; exit 1; }
echo "$check" >&2
server_log=""
has server && server_log=$(grep -m1 'device:' "$work/gpupostd.log" | sed 's/^.*gpupostd: //')
for e in "${engine_list[@]}"; do stop_engine "$e"; done

# --- the timed runs: one engine up at a time, so that its memory is its own ---
cat > "$work/q.lua" <<'LUA'
-- bench/http.sh: each request one query id of 0..N-1 at random; each thread seeded by its number,
-- so that every row draws the same ids; done() prints the figures for the script
local threads = 0
function setup(thread)
	threads = threads + 1
	thread:set("seed", threads)
end
function init(args)
	math.randomseed(seed)
	n = tonumber(args[3])
	prefix = "/q.php?e=" .. args[1] .. "&k=" .. args[2] .. "&id="
end
function request()
	return wrk.format("GET", prefix .. math.random(0, n - 1))
end
function done(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("RESULT %d %d %d %d %d %d %d %.3f %.3f\n", summary.requests, summary.duration,
		e.status, e.connect, e.read, e.write, e.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
LUA
wrk_run() {   # ENGINE KIND CONNECTIONS SECONDS: wrk's output in $work/wrk.txt
	local t=$(($3 < cores ? $3 : cores))
	"$WRK" -t "$t" -c "$3" -d "${4}s" --timeout 30s --latency -s "$work/q.lua" "http://127.0.0.1:$port/" -- "$1" "$2" "$nq" \
		> "$work/wrk.txt" 2>&1 || true
}
children() {   # PID: its children's pids
	local parent=$1 s l f
	if [ -e "/proc/$parent/task/$parent/children" ]; then
		cat "/proc/$parent/task/"*/children 2> /dev/null || true
		return
	fi
	for s in /proc/[0-9]*/stat; do   # a kernel without that file: each process's parent (after its name)
		read -r l < "$s" 2> /dev/null || continue
		read -r -a f <<< "${l##*) }"
		[ "${f[1]}" = "$parent" ] && echo "${s//[^0-9]/}"
	done
}
pss_kib() { awk '/^Pss:/ {print $2; exit}' "/proc/$1/smaps_rollup" 2> /dev/null || echo 0; }
tree_pss_mib() {   # PID: it and its children, MiB
	local total=0 p
	for p in "$1" $(children "$1"); do total=$((total + $(pss_kib "$p"))); done
	awk -v k="$total" 'BEGIN {printf "%.1f", k / 1024}'
}
declare -A label=([server]="gpupost server" [worker]="gpupost worker" [fts5]="SQLite FTS5" [sphinx]="Sphinx")
rows=()
failed=0
server_stats=""
server_reqs=0   # requests of the server rows (and their warm-ups): gpupostd must have answered as many
t_timed=$SECONDS
for e in "${engine_list[@]}"; do
	start_engine "$e"
	for k in "${kind_list[@]}"; do
		# every worker serves a few requests first (opens its index, fills its caches)
		wrk_run "$e" "$k" "$((workers * 2))" "$warmup"
		[ "$e" = server ] && server_reqs=$((server_reqs + $(awk '/^RESULT / {print $2}' "$work/wrk.txt")))
		for c in "${concs[@]}"; do
			log "$e $k c=$c: ${seconds} s"
			wrk_run "$e" "$k" "$c" "$seconds"
			read -r _ reqs dur non2xx econn eread ewrite etime p50 p99 <<< "$(grep '^RESULT ' "$work/wrk.txt" || echo "RESULT 0 1 0 0 0 0 0 0 0")"
			cp "$work/wrk.txt" "$work/wrk-$e-$k-$c.txt"
			sockerr=$((econn + eread + ewrite + etime))
			pool_mem=$(tree_pss_mib "${started[fpm-$e]}")
			srv_mem="-"
			case $e in
				server) srv_mem=$(tree_pss_mib "${started[gpupostd]}") ;;
				sphinx) srv_mem=$(tree_pss_mib "${started[searchd]}") ;;
			esac
			rps=$(awk -v r="$reqs" -v d="$dur" 'BEGIN {printf "%.0f", (d > 0 ? r * 1e6 / d : 0)}')
			status=ok
			if [ "$reqs" = 0 ] || [ "$non2xx" != 0 ] || [ "$sockerr" != 0 ]; then status=FAILED; failed=1; fi
			[ "$e" = server ] && server_reqs=$((server_reqs + reqs))
			rows+=("| ${label[$e]} | $k | $c | $rps | $p50 | $p99 | $non2xx | $sockerr | $pool_mem | $srv_mem | $status |")
			echo "${rows[-1]}" >&2
		done
	done
	if [ "$e" = server ]; then
		stats=$("$work/bin/gpupostd" --socket "$sock" --stats 2> /dev/null || true)
		server_stats=$(echo "$stats" | awk '$1 ~ /^(queries|host_queries|device_queries|device_batches|device_batch_max)$/ {printf "%s%s %s", sep, $1, $2; sep = ", "}')
		answered=$(echo "$stats" | awk '$1 == "queries" {print $2}')
		# under 'server' => 'auto' a worker answers itself when gpupostd is down or busy: then the
		# row would not be the server's
		if [ "$routed" = 1 ] && [ "${answered:-0}" -lt "$server_reqs" ]; then
			server_stats+=" (FAILED: fewer than the $server_reqs timed requests: workers answered on their own)"
			failed=1
		fi
		if command -v nvidia-smi > /dev/null; then
			gpu_mem=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader 2> /dev/null | awk -F', ' -v p="${started[gpupostd]}" '$1 == p {print $2}')
			[ -z "$gpu_mem" ] || server_stats+="; its device memory (nvidia-smi): $gpu_mem"
		fi
	fi
	stop_engine "$e"
done

# --- the report ---
version() { "$@" 2>&1 | head -1 || true; }
{
	echo "# HTTP search benchmark: $corpus_name corpus"
	echo
	echo "\`$cmdline\`, $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(uname -n): $cores cores ($(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)), $(uname -r)."
	echo
	echo "- corpus: $docs docs, $terms terms, $postings postings; index $(du -h "$ixfile" | cut -f1), FTS5 database $(du -h "$work/data/fts5.db" | cut -f1)$(has sphinx && echo ", Sphinx index $(du -sh "$work/sphinx" | cut -f1)"); queries: the log's first $nq AND queries (2-4 terms), a random id a request"
	echo "- serving: nginx ($(version "$NGINX_BIN" -v | sed 's/.*version: //'), worker_processes auto) -> php-fpm ($(version "$PHP_FPM" -n -v | cut -d' ' -f1-2), a pool of $workers static workers per engine, opcache $([ -f "$ext_dir/opcache.so" ] && echo on || echo off)) over a Unix socket; load: $(version "$WRK" -v | cut -d' ' -f1-2), min(connections, $cores) threads, ${seconds} s a row after ${warmup} s of warm-up per engine and kind; one engine's processes up at a time"
	has server && echo "- gpupost server: gpupostd device=$device$([ "$device" = cpu ] && echo " placement=device")${server_set[*]:+ ${server_set[*]}} ($server_log); workers' gpupost.min_device_values=$min_values ($([ "$routed" = 1 ] && echo "every query asked of gpupostd" || echo "only queries reading that many postings asked of gpupostd")); gpupostd's counters after its rows: $server_stats"
	has worker && echo "- gpupost worker: the same PHP, gpupost.server empty: each worker answers on its own mapping of the file (gpupost.device=host)"
	has fts5 && echo "- SQLite FTS5: new SQLite3(file, read-only) each request; and: \`SELECT rowid FROM docs WHERE docs MATCH ?\` (terms quoted, AND); or10: \`... ORDER BY bm25(docs), rowid LIMIT 10\` (OR)"
	has sphinx && echo "- Sphinx: $(version "$SEARCHD" -h | cut -d' ' -f1-2), workers=threads; a mysqli connection each request; and: every match (LIMIT and max_matches = $docs, ranker=none) and SHOW META's total_found (checked equal to the rows); or10: \`ORDER BY WEIGHT() DESC, id ASC LIMIT 10 OPTION ranker=$ranker\`"
	echo "- answers checked before timing, through nginx, every query id used:"
	echo "$check" | sed 's/^/  /'
	echo "- time: preparing and checking $((t_timed - t_start)) s, the timed runs $((SECONDS - t_timed)) s"
	echo "- memory: PSS (/proc/PID/smaps_rollup) after each run, MiB: the php-fpm pool (master and workers) and the engine's server (gpupostd or searchd); an index file's pages count where mapped, not where read into the page cache (FTS5's database, Sphinx's lists)"
	echo
	echo "| engine | kind | concurrency | requests/s | p50 ms | p99 ms | non-2xx | socket errors | php-fpm PSS MiB | server PSS MiB | status |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
} | tee "$out/http.md"
[ "$failed" = 0 ] || { log "some rows had non-2xx responses or socket errors (FAILED)"; exit 1; }
