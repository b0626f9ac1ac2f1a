<?php
/* Benchmark (not a test): how long GpuPost\Index takes to build (validate, decode, count its docs)
 * an index of arithmetic runs of docs on the host (bench/s9_runs.inc's lists, as
 * bench/index_beyond_one_device.php makes them), median of --reps builds, with the build's
 * workers as GPUPOST_BUILD_THREADS says (default: the host's cores, at most 16), or each of
 * --threads=1,4,16 in turn. --mod9: MOD9 postings instead (1 to 3 positions a doc, encoded 10,000
 * postings at a time: slower to make).
 *
 *   php -d memory_limit=-1 -d gpupost.max_result_bytes=100G -d extension=modules/gpupost.so \
 *       bench/index_build.php [--postings=300000000] [--docs=2147483648] [--min-step=257] [--max-step=311] [--reps=3]
 *       [--threads=1,16] [--mod9]
 * Few long lists (steps near 300) or many shorter ones (--min-step=14000 --max-step=14100).
 */
$opts = getopt('', ['postings:', 'docs:', 'min-step:', 'max-step:', 'reps:', 'threads:', 'mod9']);
$mod9 = isset($opts['mod9']);
$want = (int)($opts['postings'] ?? 300000000);
$docs = (int)($opts['docs'] ?? ($mod9 ? (1 << 27) - 1 : 1 << 31));   /* MOD9 docs are below 2^27 - 1 */
$min_step = (int)($opts['min-step'] ?? 257);
$max_step = (int)($opts['max-step'] ?? 311);
$reps = (int)($opts['reps'] ?? 3);
require __DIR__ . '/s9_runs.inc';

mt_srand(21);
$primes = array_values(array_filter(range($min_step, $max_step), 'is_prime'));
$lists = [];
for ($t = 0, $total = 0; $total < $want; $t++) {
    $step = $primes[mt_rand(0, count($primes) - 1)];
    $from = mt_rand(0, $step - 1);
    $n = intdiv($docs - 1 - $from, $step) + 1;
    $lists["t$t"] = $mod9 ? mod9_run($from, $step, $n) : s9_run($from, $step, $n);
    $total += $n;
}
function mod9_run(int $from, int $step, int $n): string
{
    $blob = '';
    for ($i = 0; $i < $n; $i += 10000) {
        $chunk = [];
        for ($k = $i, $d = $from + $step * $i; $k < min($n, $i + 10000); $k++, $d += $step) $chunk[$d] = range(1 + $d % 7, 1 + $d % 7 + $d % 3);
        $blob .= gpu_encode_postings($chunk, GPUPOST_MOD9, GPUPOST_POSTINGS);
    }
    return $blob;
}
foreach (isset($opts['threads']) ? explode(',', $opts['threads']) : [getenv('GPUPOST_BUILD_THREADS') ?: 'default'] as $threads) {
    putenv($threads === 'default' ? 'GPUPOST_BUILD_THREADS' : "GPUPOST_BUILD_THREADS=$threads");
    $times = [];
    for ($r = 0; $r < $reps; $r++) {
        $t0 = hrtime(true);
        $ix = new GpuPost\Index($lists, $mod9 ? GPUPOST_MOD9 : GPUPOST_S9, ['device' => 'host']);
        $times[] = (hrtime(true) - $t0) / 1e9;
        $info = $ix->info();
        unset($ix);
    }
    sort($times);
    printf("%s: %d lists (steps %d-%d), %.2fG postings, %.2fG positions, %d docs, %s threads: built in %.2f s (median of %d; %.0fM postings/s)\n",
        $mod9 ? 'MOD9' : 'S9', count($lists), $min_step, $max_step, $info['postings'] / 1e9, $info['positions'] / 1e9, $info['docs'],
        $threads, $times[intdiv($reps, 2)], $reps, $info['postings'] / $times[intdiv($reps, 2)] / 1e6);
}
