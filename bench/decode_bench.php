<?php
/* Benchmark (not a test): decodes lists of 100 to 10M values through the host path, the device
 * path, the default dispatch ("auto") and (MOD9 VALUES) a plain PHP decoder, and prints values/s
 * for each beside range() of the same length (the cost of building a PHP array at all). Best of
 * --reps samples of each, taken in turn. --format: MOD9 (VALUES, the default), MOD9d (DOCS),
 * MOD9p (POSTINGS), S9, QS, VB (VBYTE) or GV (GROUP_VARINT): where the host/device crossover
 * lies for each.
 *
 *   php -d extension=modules/gpupost.so bench/decode_bench.php [--sizes=1000,1000000] [--reps=5] [--format=MOD9]
 */
$opts = getopt('', ['sizes:', 'reps:', 'no-php', 'format:']);
$format = $opts['format'] ?? 'MOD9';
if (!in_array($format, ['MOD9', 'MOD9d', 'MOD9p', 'S9', 'QS', 'VB', 'GV'], true)) exit("--format: MOD9, MOD9d, MOD9p, S9, QS, VB or GV\n");
if ($format !== 'MOD9') $opts['no-php'] = true;
$sizes = array_map('intval', explode(',', $opts['sizes'] ?? '100,1000,10000,30000,65536,100000,300000,1000000,10000000'));
$reps = (int)($opts['reps'] ?? 5);

/* A plain PHP decoder, as a PHP search engine decodes today (Yioop's unpackListModified9 logic
 * with unpack('N*')): the baseline gpupost replaces. */
function php_mod9_values(string $blob): array
{
    $out = [];
    foreach (unpack('N*', $blob) as $w) {
        switch ($w & 0x30000000) {
            case 0: $out[] = $w & 0x0FFFFFFF; continue 2;
            case 0x10000000: $bits = 14; $n = 2; break;
            case 0x20000000: $bits = 9; $n = 3; break;
            default:
                $s = ($w >> 24) & 63;
                [$bits, $n] = $s === 63 ? [1, 24] : ($s >= 62 ? [2, 12] : ($s >= 60 ? [3, 7] :
                    ($s >= 56 ? [4, 6] : ($s >= 52 ? [5, 5] : [6, 4]))));
        }
        $mask = (1 << $bits) - 1;
        $vals = [];
        for ($i = 0; $i < $n; $i++) {
            $v = ($w >> ($i * $bits)) & $mask;
            if ($v === 0) break;
            $vals[] = $v;
        }
        array_push($out, ...array_reverse($vals));
    }
    return $out;
}

/* One sample of $fn: repeated until it has run 20 ms (the repetitions found once per $fn), so
 * that lists of 100 values are timed over thousands of calls, not one. Seconds a call. */
function sample(callable $fn, int &$calls): float
{
    while (true) {
        $t0 = hrtime(true);
        for ($c = 0; $c < $calls; $c++) {
            $x = $fn();
            unset($x);
        }
        $t = (hrtime(true) - $t0) / 1e9;
        if ($t >= 0.02) return $t / $calls;
        $calls = (int)min($calls * max(2, ceil(0.02 / max($t, 1e-6))), 1e6);
    }
}

/* Best of $reps samples of each of $fns ([setup, fn] pairs), the samples taken in turn (one of
 * each, $reps times, the order turned each time), so that the machine's drift over the run falls
 * on all of them alike; with $medians, the median sample of each too. */
function best_of(int $reps, array $fns, ?array &$medians = null): array
{
    $best = $calls = $all = [];
    foreach ($fns as $k => $f) {
        $best[$k] = INF;
        $calls[$k] = 1;
        $all[$k] = [];
    }
    $keys = array_keys($fns);
    for ($r = 0; $r < $reps; $r++) {
        $order = $r % 2 ? array_reverse($keys) : $keys;
        foreach ($order as $k) {
            [$setup, $fn] = $fns[$k];
            $setup();
            $all[$k][] = $t = sample($fn, $calls[$k]);
            $best[$k] = min($best[$k], $t);
        }
    }
    $medians = array_map(function (array $ts) {
        sort($ts);
        $c = count($ts);
        return $c % 2 ? $ts[intdiv($c, 2)] : ($ts[$c / 2 - 1] + $ts[$c / 2]) / 2;
    }, $all);
    return $best;
}

$info = gpu_info();
printf("# gpupost decode benchmark, %s, PHP %s\n", date('Y-m-d'), PHP_VERSION);
printf("# device: %s\n", $info['device'] ? "{$info['device']['name']} ({$info['platform']['name']})" : 'none');
printf("# input: %s, best of %d\n", [
    'MOD9' => 'MOD9 VALUES of docID gaps, values 1..255 (typical d-gaps)',
    'MOD9d' => 'MOD9 DOCS of postings of 4 positions (values: docs)', 'MOD9p' => 'MOD9 POSTINGS of postings of 4 positions (values: positions)',
    'S9' => 'S9 of docID gaps 1..255 (delta 1)', 'QS' => 'QS of increasing docIDs, gaps 1..255',
    'VB' => 'VBYTE of docIDs, gaps 1..255 (delta 1)', 'GV' => 'GROUP_VARINT of docIDs, gaps 1..255 (delta 1)'][$format], $reps);
printf("# auto = the default dispatch (gpupost.min_device_values=%s); auto/best = its time over the\n"
       . "# better of host and device (issue 5: at most 1.10); dev/range = device throughput over range()'s;\n"
       . "# chose = the path auto took (gpu_info()['last_backend']), chose/best = that path's median sample\n"
       . "# over the better path's median (issue 23: at most 1.10), from the host and device columns' samples\n",
       ini_get('gpupost.min_device_values'));
printf("%10s %12s %12s %12s %12s %12s %10s %10s %10s %9s %7s %10s\n", 'values', 'range() M/s', 'host M/s', 'device M/s',
       'auto M/s', 'php M/s', 'host/range', 'dev/range', 'auto/best', 'host/php', 'chose', 'chose/best');
$default_min = ini_get('gpupost.min_device_values');
mt_srand(1);
foreach ($sizes as $n) {
    $list = [];
    if ($format === 'MOD9d' || $format === 'MOD9p') {   /* n values: postings of 4 positions (DOCS: n docs) */
        $np = $format === 'MOD9d' ? $n : max(1, intdiv($n, 4));
        $gap = max(1, min(255, intdiv((1 << 27) - 2, $np)));   /* docs below 2^27 - 1 */
        for ($d = 0, $i = 0; $i < $np; $i++) $list[$d += mt_rand(1, $gap)] = [1, 5, 9, 14];
        $blob = gpu_encode_postings($list, GPUPOST_MOD9, GPUPOST_POSTINGS);
        $mode = $format === 'MOD9d' ? GPUPOST_DOCS : GPUPOST_POSTINGS;
        $fmt = GPUPOST_MOD9;
    } else {
        $sorted = $format === 'QS' || $format === 'VB' || $format === 'GV';
        for ($v = 0, $i = 0; $i < $n; $i++) $list[] = $sorted ? $v += mt_rand(1, 255) : mt_rand(1, 255);
        $fmt = ['MOD9' => GPUPOST_MOD9, 'S9' => GPUPOST_S9, 'QS' => GPUPOST_QS, 'VB' => GPUPOST_VBYTE, 'GV' => GPUPOST_GROUP_VARINT][$format];
        $blob = $format === 'S9' ? gpu_encode_postings($list, GPUPOST_S9, GPUPOST_VALUES)
            : gpu_encode_postings($list, $fmt, GPUPOST_VALUES, $format === 'VB' || $format === 'GV' ? ['delta' => 1] : []);
        $mode = GPUPOST_VALUES;
    }
    unset($list);
    $none = function () {};
    $on = fn(string $min) => function () use ($min) { ini_set('gpupost.min_device_values', $min); };
    $decode = fn() => gpu_decode_postings($blob, $fmt, $mode);
    $fns = ['range' => [$none, fn() => range(1, $n)], 'host' => [$on((string)PHP_INT_MAX), $decode]];
    if ($info['backend'] === 'opencl') {
        ini_set('gpupost.min_device_values', '0');
        gpu_decode_postings($blob, $fmt, $mode); /* grows the device buffers once */
        $fns['device'] = [$on('0'), $decode];
    }
    $fns['auto'] = [$on($default_min), $decode];
    $t = best_of($reps, $fns, $med);
    ini_set('gpupost.min_device_values', $default_min);
    gpu_decode_postings($blob, $fmt, $mode);
    $chose = gpu_info()['last_backend'] === 'host' ? 'host' : 'device';
    $med_best = isset($med['device']) ? min($med['host'], $med['device']) : $med['host'];
    $chose_best = ($med[$chose] ?? $med['host']) / $med_best;
    [$t_range, $t_host, $t_dev, $t_auto] = [$t['range'], $t['host'], $t['device'] ?? NAN, $t['auto']];
    $t_php = isset($opts['no-php']) || $n > 1000000 ? NAN :
        best_of(max(1, intdiv($reps, 2)), ['php' => [$none, fn() => php_mod9_values($blob)]])['php'];
    $m = fn($t) => is_nan($t) ? '-' : sprintf('%.1f', $n / $t / 1e6);
    $t_best = is_nan($t_dev) ? $t_host : min($t_host, $t_dev);
    printf("%10d %12s %12s %12s %12s %12s %10.2f %10s %10.2f %9s %7s %10.2f\n", $n, $m($t_range), $m($t_host), $m($t_dev),
           $m($t_auto), $m($t_php), $t_range / $t_host, is_nan($t_dev) ? '-' : sprintf('%.2f', $t_range / $t_dev),
           $t_auto / $t_best, is_nan($t_php) ? '-' : sprintf('%.1f', $t_php / $t_host), $chose, $chose_best);
}
