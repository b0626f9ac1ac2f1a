<?php
/* N worker processes, as php-fpm runs them, each opening one index file and asking single
 * queries on the host path: what a pool serves in total and what it costs in memory. Rows, in
 * one run, for each N: the file mapped (open() of the local path: a version 2 file's lists walked
 * where they lie, shared through the page cache) against the same lists in a version 1 file
 * (--v1=FILE, made by gen_corpus with GEN_FILE_VERSION=1) read into each worker (open() through
 * compress.zlib://, which passes a plain file through and is read whole, then decodes every
 * list: a worker's own copy of every list, as every open() did before version 2). Per row: open() and first query (the slowest worker),
 * total q/s and p50/p99 over all workers for each kind of query (AND of 2-4 terms, phrase, AND top
 * 10, OR top 10, from the query log), and memory from /proc/PID/smaps_rollup (PSS of the pool, a
 * worker's private bytes). Every worker's answers are checked: the count and doc sum over the
 * queries it ran equal the parent's for the same queries. A row whose workers would not fit the
 * machine's available memory (measured from one worker) is skipped, saying so. Mode "server": the
 * same mapped file, opened with 'server' => 'required' under a gpupostd (run with
 * -d gpupost.server=unix:SOCKET, a server allowed the file's directory): the PHP face routes each
 * query (its host work against gpupost.min_device_values) to the server or the worker; the
 * server's share of the queries and its PSS (gpu_info()['server'], same host) are printed beside
 * the row, and every answer is checked against the parent's own host path. Not a test.
 *
 *   php bench/workers.php INDEX.gpix QUERIES OUT [--workers=1,4,16,64] [--seconds=3]
 *                         [--v1=INDEX-V1.gpix] [--modes=mapped,decoded,server] [--warm=0|1] [--queries=N]
 *
 * INDEX and QUERIES as bench/gen_corpus writes them (bench/index.sh), or the demo's. */
$args = [];
$pos = [];
foreach (array_slice($_SERVER['argv'], 1) as $a) {
    if (preg_match('/^--([a-z0-9]+)=(.*)$/', $a, $m)) $args[$m[1]] = $m[2];
    else $pos[] = $a;
}
if (count($pos) < 3) {
    fwrite(STDERR, "usage: php bench/workers.php INDEX.gpix QUERIES OUT [--workers=1,4,16,64] [--seconds=3] [--v1=INDEX-V1.gpix] [--modes=mapped,decoded]\n");
    exit(2);
}
[$ixfile, $qfile, $out] = $pos;
$ixfile = realpath($ixfile);
$ns = array_map('intval', explode(',', $args['workers'] ?? '1,4,16,64'));
$seconds = (float)($args['seconds'] ?? 3);
$warm = (int)($args['warm'] ?? 0);
$v1file = isset($args['v1']) ? realpath($args['v1']) : null;
$modes = explode(',', $args['modes'] ?? ($v1file ? 'mapped,decoded' : 'mapped'));
if (in_array('server', $modes, true) && ini_get('gpupost.server') === '') {
    fwrite(STDERR, "mode server: run with -d gpupost.server=unix:SOCKET (a gpupostd serving the file's directory)\n");
    exit(2);
}
@mkdir($out, 0777, true);
if (!function_exists('pcntl_fork')) { fwrite(STDERR, "needs pcntl (Debian's php-cli has it)\n"); exit(2); }

/* the query log: AND lines and phrase lines; ranked rows take the AND lines */
$log = ['and' => [], 'phrase' => []];
foreach (file($qfile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $w = explode(' ', $line);
    $kind = array_shift($w);
    if (isset($log[$kind])) $log[$kind][] = $w;
}
/* --queries=N: the log's first N of each kind */
if (isset($args['queries'])) foreach ($log as &$l) $l = array_slice($l, 0, (int)$args['queries']);
unset($l);
$kinds = [
    'and' => [$log['and'], ['op' => GPUPOST_AND]],
    'phrase' => [$log['phrase'], ['op' => GPUPOST_PHRASE]],
    'and10' => [$log['and'], ['op' => GPUPOST_AND, 'limit' => 10]],
    'or10' => [$log['and'], ['op' => GPUPOST_OR, 'limit' => 10]],
];

function open_index(string $mode, string $file): GpuPost\Index
{
    global $v1file;
    $server = ini_get('gpupost.server') !== '' ? ['server' => false] : [];   /* the worker's own path */
    if ($mode === 'server') return GpuPost\Index::open($file, ['device' => 'auto', 'server' => 'required']);
    return GpuPost\Index::open($mode === 'mapped' ? $file : "compress.zlib://$v1file", ['device' => 'host'] + $server);
}

/* gpupostd's statistics (gpu_info()['server']['stats']): its queries and pid */
function server_stats(): array
{
    return gpu_info()['server']['stats'] ?? [];
}

/* count and doc sum of the answers, ranked answers by their docs */
function digest(array $r): array
{
    $docs = array_is_list($r) ? $r : array_keys($r);
    return [count($docs), array_sum($docs)];
}

/* [Pss, Private (clean + dirty), Rss] bytes of a process */
function memory_of(int $pid): array
{
    $m = ['Pss' => 0, 'Private_Clean' => 0, 'Private_Dirty' => 0, 'Rss' => 0];
    foreach (@file("/proc/$pid/smaps_rollup") ?: [] as $line) {
        if (preg_match('/^(\w+):\s+(\d+) kB/', $line, $x) && isset($m[$x[1]])) $m[$x[1]] = (int)$x[2] * 1024;
    }
    return [$m['Pss'], $m['Private_Clean'] + $m['Private_Dirty'], $m['Rss']];
}

function percentile(array $lat, float $p): float
{
    sort($lat);
    return $lat ? $lat[min(count($lat) - 1, (int)floor(count($lat) * $p))] : 0.0;
}

function mem_available(): int
{
    foreach (file('/proc/meminfo') as $line) {
        if (preg_match('/^MemAvailable:\s+(\d+) kB/', $line, $m)) return (int)$m[1] * 1024;
    }
    return PHP_INT_MAX;
}

/* One worker: opens, waits for the start, runs each kind for $seconds from its own place in the
 * log, writes [open s, first query s, per kind [n, latencies ms (sampled), digest], memory]. */
function worker(int $w, string $mode, string $file, array $kinds, float $seconds, string $dir): void
{
    $t = hrtime(true);
    $ix = open_index($mode, $file);
    $open = (hrtime(true) - $t) / 1e9;
    $first_q = $kinds['and'][0][($w * 7919) % count($kinds['and'][0])];
    $t = hrtime(true);
    $ix->search($first_q);
    $first = (hrtime(true) - $t) / 1e9;
    /* --warm=1: every list of the log read once before the clock starts (a version 2 list is
     * checked at its first use in a process: what a long-running worker has long since paid) */
    if ($GLOBALS['warm']) foreach ($kinds as [$qs, $opt]) foreach ($qs as $q) $ix->search($q, $opt);
    touch("$dir/ready.$w");
    while (!file_exists("$dir/go")) usleep(500);
    $res = [];
    foreach ($kinds as $name => [$qs, $opt]) {
        $n = count($qs);
        $i = ($w * 7919) % $n;
        $start = $i;
        $lat = [];
        $ran = 0;
        $sum = [0, 0];
        $end = hrtime(true) + (int)($seconds * 1e9);
        do {
            $t = hrtime(true);
            $r = $ix->search($qs[$i], $opt);
            $t2 = hrtime(true);
            if ($ran < 200000) $lat[] = ($t2 - $t) / 1e6;
            $d = digest($r);
            $sum[0] += $d[0];
            $sum[1] += $d[1];
            $ran++;
            $i = ($i + 1) % $n;
        } while ($t2 < $end);
        $res[$name] = [$ran, $lat, $sum, $start];
    }
    $mem = memory_of(getmypid());
    file_put_contents("$dir/result.$w", serialize([$open, $first, $res, $mem, $ix->info()['bytes_host'], $ix->info()['bytes_mapped']]));
}

$info = open_index('mapped', $ixfile)->info();
$head = sprintf("# %s: %d docs, %d terms, %d postings, %d positions; file %.1f MB; host %s, %d cores; %s",
    basename($ixfile), $info['docs'], $info['terms'], $info['postings'], $info['positions'], filesize($ixfile) / 1e6,
    php_uname('n'), (int)shell_exec('nproc'), date('Y-m-d H:i'));
echo $head, "\n";
$table = fopen("$out/workers.txt", 'w');
fwrite($table, "$head\n");
$cols = sprintf("%-7s %4s %8s %8s | %-6s %10s %8s %8s | %9s %9s %9s", 'mode', 'N', 'open_s', 'first_ms', 'kind', 'q/s', 'p50_ms', 'p99_ms', 'pss_MB', 'priv_MB/w', 'host_MB/w');
echo "$cols\n";
fwrite($table, "$cols\n");
$dat = fopen("$out/workers.dat", 'w');
fwrite($dat, "# mode N kind qps p50_ms p99_ms pss_MB priv_MB_per_worker open_s\n");

/* the reference digests: the parent's answers for every query of the log, by kind */
$ref_ix = open_index('mapped', $ixfile);
$refs = [];
foreach ($kinds as $name => [$qs, $opt]) {
    foreach ($qs as $i => $q) $refs[$name][$i] = digest($ref_ix->search($q, $opt));
}
unset($ref_ix);

$per_worker = [];
foreach ($ns as $n) {
    foreach ($modes as $mode) {
        /* a worker's own memory (measured from the first run of the mode) times N must fit */
        if (isset($per_worker[$mode]) && $per_worker[$mode] * $n > 0.8 * mem_available()) {
            $line = sprintf("%-7s %4d   skipped: %d workers of %.0f MB each would pass 80%% of the %.0f MB available",
                $mode, $n, $n, $per_worker[$mode] / 1e6, mem_available() / 1e6);
            echo "$line\n";
            fwrite($table, "$line\n");
            continue;
        }
        $dir = sys_get_temp_dir() . "/gpupost-workers-" . getmypid();
        @mkdir($dir);
        array_map('unlink', glob("$dir/*"));
        $pids = [];
        for ($w = 0; $w < $n; $w++) {
            $pid = pcntl_fork();
            if ($pid === 0) {
                try {
                    worker($w, $mode, $ixfile, $kinds, $seconds, $dir);
                } catch (Throwable $e) {
                    file_put_contents("$dir/error.$w", $e->getMessage());
                }
                exit(0);
            }
            $pids[] = $pid;
        }
        while (count(glob("$dir/ready.*")) + count(glob("$dir/error.*")) < $n) usleep(2000);
        /* the pool's memory once every worker has opened and asked its first query */
        $pss = 0;
        foreach ($pids as $pid) $pss += memory_of($pid)[0];
        $before = $mode === 'server' ? server_stats() : [];
        touch("$dir/go");
        foreach ($pids as $pid) pcntl_waitpid($pid, $status);
        $server_note = '';
        if ($mode === 'server') {   /* how many the server answered, and its memory */
            $after = server_stats();
            $server_note = sprintf("  (server: %d of the queries, %d in device batches; its PSS %.1f MB)",
                ($after['queries'] ?? 0) - ($before['queries'] ?? 0), ($after['device_queries'] ?? 0) - ($before['device_queries'] ?? 0),
                memory_of((int)($after['pid'] ?? 0))[0] / 1e6);
        }
        if ($errs = glob("$dir/error.*")) {
            echo "$mode N=$n: ", file_get_contents($errs[0]), "\n";
            continue;
        }
        $rows = [];
        $open = $first = 0;
        $priv = $host = 0;
        $wrong = 0;
        foreach ($pids as $w => $_) {
            [$o, $f, $res, $mem, $bh] = unserialize(file_get_contents("$dir/result.$w"));
            $open = max($open, $o);
            $first = max($first, $f);
            $priv += $mem[1];
            $host += $bh;
            foreach ($res as $kind => [$ran, $lat, $sum, $start]) {
                $rows[$kind][0] = ($rows[$kind][0] ?? 0) + $ran;
                $rows[$kind][1] = array_merge($rows[$kind][1] ?? [], $lat);
                /* the same queries' answers from the parent */
                $want = [0, 0];
                $nq = count($refs[$kind]);
                for ($k = 0, $i = $start; $k < $ran; $k++, $i = ($i + 1) % $nq) {
                    $want[0] += $refs[$kind][$i][0];
                    $want[1] += $refs[$kind][$i][1];
                }
                if ($want !== $sum) $wrong++;
            }
        }
        $per_worker[$mode] = $priv / $n;
        foreach ($rows as $kind => [$ran, $lat]) {
            $line = sprintf("%-7s %4d %8.3f %8.3f | %-6s %10.0f %8.3f %8.3f | %9.1f %9.1f %9.1f",
                $mode, $n, $open, $first * 1e3, $kind, $ran / $seconds, percentile($lat, 0.5), percentile($lat, 0.99),
                $pss / 1e6, $priv / $n / 1e6, $host / $n / 1e6);
            echo "$line\n";
            fwrite($table, "$line\n");
            fprintf($dat, "%s %d %s %.0f %.4f %.4f %.1f %.1f %.4f\n", $mode, $n, $kind, $ran / $seconds,
                percentile($lat, 0.5), percentile($lat, 0.99), $pss / 1e6, $priv / $n / 1e6, $open);
        }
        if ($server_note !== '') {
            echo "$mode N=$n$server_note\n";
            fwrite($table, "$mode N=$n$server_note\n");
        }
        if ($wrong) {
            echo "$mode N=$n: $wrong worker rows answered other than the parent: WRONG\n";
            fwrite($table, "WRONG answers in $mode N=$n\n");
        }
        array_map('unlink', glob("$dir/*"));
        rmdir($dir);
    }
}
echo "answers: every worker's count and doc sum equal to the parent's, unless WRONG is printed above\n";
