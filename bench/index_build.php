<?php
/* Benchmark (not a test): how long GpuPost\Index takes to build (validate, decode, count its docs)
 * an index of arithmetic runs of docs on the host (bench/s9_runs.inc's lists, as
 * bench/index_beyond_one_device.php makes them), median of --reps builds.
 *
 *   php -d memory_limit=-1 -d gpupost.max_result_bytes=100G -d extension=modules/gpupost.so \
 *       bench/index_build.php [--postings=300000000] [--docs=2147483648] [--min-step=257] [--max-step=311] [--reps=3]
 * Few long lists (steps near 300) or many shorter ones (--min-step=14000 --max-step=14100).
 */
$opts = getopt('', ['postings:', 'docs:', 'min-step:', 'max-step:', 'reps:']);
$want = (int)($opts['postings'] ?? 300000000);
$docs = (int)($opts['docs'] ?? 1 << 31);
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
    $lists["t$t"] = s9_run($from, $step, $n);
    $total += $n;
}
$times = [];
for ($r = 0; $r < $reps; $r++) {
    $t0 = hrtime(true);
    $ix = new GpuPost\Index($lists, GPUPOST_S9, ['device' => 'host']);
    $times[] = (hrtime(true) - $t0) / 1e9;
    $info = $ix->info();
    unset($ix);
}
sort($times);
printf("%d lists (steps %d-%d), %.2fG postings, %d docs: built in %.2f s (median of %d; %.0fM postings/s)\n", count($lists),
    $min_step, $max_step, $info['postings'] / 1e9, $info['docs'], $times[intdiv($reps, 2)], $reps,
    $info['postings'] / $times[intdiv($reps, 2)] / 1e6);
