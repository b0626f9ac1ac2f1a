<?php
/* Benchmark (not a test): a GpuPost\Index larger than one device's memory, held in shards over
 * the devices gpupost.device names (gpupost.multi_device=all) and queried. Its lists are
 * arithmetic runs of docs (from + k step, step a prime, every doc below --docs), each S9 blob made
 * from a short one by repeating its run of equal words (a run's gaps are equal), so that tens of
 * billions of postings are made in seconds; the index decodes and checks every blob as it is
 * built. Each AND answer is checked against the Chinese remainder theorem (the docs of two or
 * three runs are the solutions of their congruences), not against the index.
 *
 *   php -d memory_limit=-1 -d gpupost.max_result_bytes=1024G -d gpupost.multi_device=all \
 *       -d gpupost.device=0:0,0:0,0:1,0:1 -d extension=modules/gpupost.so \
 *       bench/index_beyond_one_device.php [--postings=24000000000] [--docs=2147483648]
 *       [--min-step=257] [--max-step=509] [--queries=2000] [--reps=3]
 * A device listed twice holds two shards (a context each): a shard's lists must fit one buffer of
 * the device's largest allocation and a device copy's 32-bit offsets.
 */
$opts = getopt('', ['postings:', 'docs:', 'min-step:', 'max-step:', 'queries:', 'reps:']);
$want = (int)($opts['postings'] ?? 24000000000);
$docs = (int)($opts['docs'] ?? 1 << 31);
$min_step = (int)($opts['min-step'] ?? 257);
$max_step = (int)($opts['max-step'] ?? 509);
$n_queries = (int)($opts['queries'] ?? 2000);
$reps = (int)($opts['reps'] ?? 3);

require __DIR__ . '/s9_runs.inc';

$info = gpu_info();
$one = max(array_map(fn($d) => $d['global_mem'] ?? 0, $info['devices'] ?: [$info['device']]));
printf("# %s; devices: %s (gpupost.device=%s)\n", date('Y-m-d H:i T'),
    implode(', ', array_map(fn($d) => $d['name'], $info['devices'])), ini_get('gpupost.device'));

mt_srand(21);
$primes = array_values(array_filter(range($min_step, $max_step), 'is_prime'));
$lists = $runs = [];
$total = $blob_bytes = 0;
$t0 = hrtime(true);
for ($t = 0; $total < $want; $t++) {
    $step = $primes[mt_rand(0, count($primes) - 1)];
    $from = mt_rand(0, $step - 1);
    $n = intdiv($docs - 1 - $from, $step) + 1;
    $lists["t$t"] = s9_run($from, $step, $n);
    $blob_bytes += strlen($lists["t$t"]);
    $runs[] = [$from, $step];
    $total += $n;
}
$made = (hrtime(true) - $t0) / 1e9;
$t0 = hrtime(true);
$ix = new GpuPost\Index($lists, GPUPOST_S9, ['device' => 'all', 'device_lists' => 'decoded']);
$built = (hrtime(true) - $t0) / 1e9;
unset($lists);

/* queries of two or three runs, and what the remainder theorem says they match */
$queries = $expect = [];
for ($q = 0; $q < $n_queries; $q++) {
    $terms = [];
    for ($j = 0, $k = mt_rand(2, 3); $j < $k; $j++) $terms[mt_rand(0, count($runs) - 1)] = true;
    $x = 0;
    $m = 1;
    $none = false;
    foreach (array_keys($terms) as $i) {   /* x = from (mod step) joined to x (mod m) */
        [$f, $p] = $runs[$i];
        if ($m % $p === 0) {   /* the same step: the same run, or none */
            if ($x % $p !== $f) $none = true;
            continue;
        }
        while ($x % $p !== $f) $x += $m;   /* at most p - 1 steps: m and p are coprime */
        $m *= $p;
    }
    $queries["q$q"] = array_map(fn($i) => "t$i", array_keys($terms));
    $expect["q$q"] = [];
    for ($d = $x; !$none && $d < $docs; $d += $m) $expect["q$q"][] = $d;
}

$t0 = hrtime(true);
$got = $ix->searchBatch($queries);   /* the first: the shards cut and uploaded */
$first = (hrtime(true) - $t0) / 1e9;
$times = [];
for ($r = 0; $r < $reps; $r++) {
    $t0 = hrtime(true);
    $got = $ix->searchBatch($queries);
    $times[] = (hrtime(true) - $t0) / 1e6;
}
sort($times);
$i = $ix->info();
$answers = array_sum(array_map('count', $got));
printf("index: %d lists of %d-%d docs (S9, steps %d-%d, docs below %d), %.2fG postings, %.1f GB of blobs; made in %.1f s, built in %.1f s\n",
    count($runs), intdiv($docs, $max_step), intdiv($docs, $min_step), $min_step, $max_step, $docs, $i['postings'] / 1e9,
    $blob_bytes / 1e9, $made, $built);
printf("device: %d shards, %.1f GB on the devices, the largest device's memory %.1f GB: %s\n", $i['device_shards'],
    $i['bytes_device'] / 1e9, $one / 1e9, $i['bytes_device'] > $one ? 'the index is larger than one device' : 'the index fits one device');
printf("first batch (cut and upload included) %.1f s; %d AND queries of 2-3 terms: median %.1f ms of %d (backend %s), %d answers, %s\n",
    $first, $n_queries, $times[intdiv($reps, 2)], $reps, $i['last_backend'], $answers,
    $got === $expect ? 'every answer as the remainder theorem gives it' : 'ANSWERS DIFFER from the remainder theorem');
