<?php
/* Benchmark (not a test): the same work on one, two, ... all devices of a kind in one process
 * (gpupost.device = the first k of them as P:D,P:D,..., gpupost.multi_device=all), each k in a
 * PHP of its own: a batch decode (S9 and MOD9 lists, --values values in all, into PHP arrays; the
 * device part, from the call's trace, beside the whole call) and a batch of --queries AND queries
 * on a GpuPost\Index sharded over the k devices (its device part, from the trace, beside the
 * whole call). Median of --reps; scaling efficiency of the device parts, t(1) / (k t(k)).
 * With --limit=K the AND queries are ranked (BM25 over doc lengths given to every doc, the K best
 * a query): every match is scored on the devices and few answers come back, a device-bound batch
 * where the plain one is bound by its answers' arrays; --values=0 skips the decode. --specs runs
 * the sets of devices named instead of the first k (as gpupost.device, separated by '/': a device
 * listed twice holds two shards and takes them in turn, which tells what the split itself does
 * from what the second device adds).
 *
 *   php -d extension=modules/gpupost.so bench/multi_device.php [--kind=gpu|cpu] [--values=67108864]
 *       [--lists=256] [--terms=2000] [--postings=200000000] [--min-len=1000] [--max-len=1000000]
 *       [--queries=20000] [--limit=0] [--reps=5] [--max=N] [--specs=0:0/0:0,0:0/0:0,0:1]
 * The buffers a call uses are kept between calls (gpupost.max_cached_bytes=8G), as a server
 * running such batches would set it.
 */
$opts = getopt('', ['kind:', 'values:', 'lists:', 'terms:', 'postings:', 'queries:', 'reps:', 'child:', 'max:', 'min-len:', 'max-len:',
                    'limit:', 'specs:']);
$kind = $opts['kind'] ?? 'gpu';
$cfg = [
    'values' => (int)($opts['values'] ?? 64 << 20),
    'lists' => (int)($opts['lists'] ?? 256),
    'terms' => (int)($opts['terms'] ?? 2000),
    'postings' => (int)($opts['postings'] ?? 200000000),
    'queries' => (int)($opts['queries'] ?? 20000),
    'reps' => (int)($opts['reps'] ?? 5),
    'min-len' => (int)($opts['min-len'] ?? 1000),
    'max-len' => (int)($opts['max-len'] ?? 1000000),
    'limit' => (int)($opts['limit'] ?? 0),
];

function median(array $t): float
{
    sort($t);
    return $t[intdiv(count($t), 2)];
}

require __DIR__ . '/s9_runs.inc';   /* is_prime */

/* The device part of the last call, from its trace (GPUPOST_TRACE=1): a decode from the glue's
 * "call context" to dispatch's "decoded", a query batch from "terms to ids" to "answered". */
function traced_ms(string $from = 'call context', string $to = 'decoded'): float
{
    $at = [];
    foreach (gpu_info()['trace'] ?? [] as [$step, $us]) $at[$step] ??= $us;
    return isset($at[$from], $at[$to]) ? ($at[$to] - $at[$from]) / 1e3 : NAN;
}

if (isset($opts['child'])) {   /* one configuration: the work, timed, as JSON */
    $reps = $cfg['reps'];
    mt_srand(21);
    $out = ['devices' => count(gpu_info()['devices'])];
    /* the decode batch: lists of small gaps (S9, delta rule 1) and the same values in MOD9 */
    $per = intdiv($cfg['values'], $cfg['lists']);
    $s9 = $mod9 = [];
    for ($l = 0; $per > 0 && $l < $cfg['lists']; $l++) {
        $vals = [];
        for ($i = 0, $v = 0; $i < $per; $i++) $vals[] = $v += mt_rand(1, 64);
        $s9[] = gpu_encode_postings($vals, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
        foreach ($vals as $i => $_) $vals[$i] = mt_rand(1, 4095);
        $mod9[] = gpu_encode_postings($vals, GPUPOST_MOD9);
        unset($vals);
    }
    foreach (['S9' => [$s9, GPUPOST_S9], 'MOD9' => [$mod9, GPUPOST_MOD9]] as $name => [$blobs, $f]) {
        $whole = $part = [];
        if (!$blobs) {
            $out["decode $name"] = [0.0, 0.0, '-'];
            continue;
        }
        for ($r = 0; $r <= $reps; $r++) {
            $t = hrtime(true);
            $res = gpu_decode_postings_batch($blobs, $f);
            $ms = (hrtime(true) - $t) / 1e6;
            unset($res);
            if ($r === 0) continue;   /* the first builds the buffers and measures the speeds */
            $whole[] = $ms;
            $part[] = traced_ms();
        }
        $out["decode $name"] = [median($whole), median($part), gpu_info()['last_backend']];
    }
    unset($s9, $mod9);

    /* the index: lists of log-uniform lengths over 20M docs, each an arithmetic run from a random
     * start (--min-len to --max-len docs; cheap to make, and every shard holds part of every long list) whose step is a prime,
     * so that two lists meet once in the product of their steps: answers stay few */
    $docs = 20000000;
    $lists = [];
    $total = 0;
    for ($t = 0; $t < $cfg['terms'] && $total < $cfg['postings']; $t++) {
        $len = (int)round($cfg['min-len'] * ($cfg['max-len'] / $cfg['min-len']) ** (mt_rand() / mt_getrandmax()));
        for ($step = max(2, intdiv($docs, $len)); !is_prime($step); $step++);
        $from = mt_rand(0, $step - 1);
        $lists["t$t"] = gpu_encode_postings(range($from, $docs - 1, $step), GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
        $total += intdiv($docs - 1 - $from, $step) + 1;
    }
    $options = ['device' => 'all', 'device_lists' => 'decoded'];
    if ($cfg['limit'] > 0) {   /* every doc a length, so that every match is scored */
        $options['doc_lengths'] = [];
        for ($d = 0; $d < $docs; $d++) $options['doc_lengths'][] = 50 + ($d * 7919) % 200;
    }
    $ix = new GpuPost\Index($lists, GPUPOST_S9, $options);
    unset($lists, $options);
    $search = $cfg['limit'] > 0 ? ['limit' => $cfg['limit']] : [];
    $queries = [];
    $n_terms = count($ix);
    for ($q = 0; $q < $cfg['queries']; $q++) {
        $terms = [];
        for ($j = 0, $k = mt_rand(2, 3); $j < $k; $j++) $terms[] = 't' . mt_rand(0, $n_terms - 1);
        $queries[] = $terms;
    }
    $first = hrtime(true);
    $ix->searchBatch($queries, $search);   /* uploads the lists (sharded over the devices) */
    $upload = (hrtime(true) - $first) / 1e6;
    $times = $parts = [];
    for ($r = 0; $r < $reps; $r++) {
        $t = hrtime(true);
        $a = $ix->searchBatch($queries, $search);
        $times[] = (hrtime(true) - $t) / 1e6;
        $parts[] = traced_ms('terms to ids', 'answered');
    }
    $info = $ix->info();
    $out['and'] = [median($times), $info['last_backend'], $info['postings'], $info['device_shards'],
                   $info['bytes_device'], $upload, array_sum(array_map('count', $a)), median($parts)];
    echo json_encode($out, JSON_PARTIAL_OUTPUT_ON_ERROR);   /* a step the trace lacks: NAN, written as 0 */
    exit;
}

/* the parent: which devices, then one child per k */
$php = PHP_BINARY;
$ext = getenv('GPUPOST_SO') ?: dirname(__DIR__) . '/modules/gpupost.so';   /* the build's, unless named */
$base = [$php, '-n', '-d', "extension=$ext", '-d', 'memory_limit=-1', '-d', 'gpupost.max_result_bytes=64G', '-d', 'gpupost.max_cached_bytes=8G', '-d', 'gpupost.multi_device=all',
         '-d', 'gpupost.min_device_values=0'];
$probe = array_merge($base, ['-d', "gpupost.device=$kind:all", '-r',
    'echo json_encode(array_map(fn($d) => [$d["platform_index"], $d["index"], $d["name"]], gpu_info()["devices"]));']);
$p = proc_open($probe, [1 => ['pipe', 'w']], $pipes);
$devices = json_decode(stream_get_contents($pipes[1]), true) ?: [];
proc_close($p);
if (!$devices) exit("no $kind device\n");
$max = min(count($devices), (int)($opts['max'] ?? count($devices)));
printf("# gpupost on several devices, %s; %d %s device(s): %s\n", date('Y-m-d'), count($devices), $kind,
    implode(', ', array_unique(array_column($devices, 2))));
printf("# decode: %d lists, %d values (S9 gaps 1-64, MOD9 values 1-4095); index: up to %d terms of %d to %d docs, %d postings, %d AND queries of 2-3 terms%s; median of %d\n",
    $cfg['lists'], $cfg['values'], $cfg['terms'], $cfg['min-len'], $cfg['max-len'], $cfg['postings'], $cfg['queries'],
    $cfg['limit'] > 0 ? sprintf(', ranked (BM25, the %d best)', $cfg['limit']) : '', $cfg['reps']);
printf("%-3s %-14s %10s %10s %6s %10s %10s %6s %10s %10s %6s %7s %10s\n", 'k', 'device', 'S9 ms', 'S9 dev ms', 'eff',
    'MOD9 ms', 'MOD9 dev', 'eff', 'AND ms', 'AND dev', 'eff', 'shards', 'upload ms');
$one = null;
$specs = [];
for ($k = 1; $k <= $max; $k++) $specs[] = implode(',', array_map(fn($d) => "$d[0]:$d[1]", array_slice($devices, 0, $k)));
if (isset($opts['specs'])) $specs = explode('/', $opts['specs']);
foreach ($specs as $spec) {
    $k = count(explode(',', $spec));
    $cmd = array_merge($base, ['-d', "gpupost.device=$spec", __FILE__, '--child=1']);
    foreach ($cfg as $key => $v) $cmd[] = "--$key=$v";
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['GPUPOST_TRACE' => '1'] + getenv());
    $json = stream_get_contents($pipes[1]);
    $errs = stream_get_contents($pipes[2]);
    $rc = proc_close($p);
    $r = json_decode($json, true);
    if (!$r) {
        echo "k=$k: child failed (exit $rc): $json $errs\n";
        continue;
    }
    $one ??= $r;
    $eff = fn($a, $b) => $b > 0 ? sprintf('%.2f', $a / ($k * $b)) : '-';
    printf("%-3d %-14s %10.1f %10.1f %6s %10.1f %10.1f %6s %10.1f %10.1f %6s %7d %10.1f\n", $k, $spec,
        $r['decode S9'][0], $r['decode S9'][1], $eff($one['decode S9'][1], $r['decode S9'][1]),
        $r['decode MOD9'][0], $r['decode MOD9'][1], $eff($one['decode MOD9'][1], $r['decode MOD9'][1]),
        $r['and'][0], $r['and'][7], $eff($one['and'][7], $r['and'][7]), $r['and'][3], $r['and'][5]);
    printf("    (backends: %s %s %s; index %d postings, %.1f MB on the devices, %d answers)\n",
        $r['decode S9'][2], $r['decode MOD9'][2], $r['and'][1], $r['and'][2], $r['and'][4] / 1e6, $r['and'][6]);
}
