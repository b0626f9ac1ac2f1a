<?php
/* A batch on the host path against the single calls it replaces (issue 18: a batch must never be
 * slower): MOD9 postings lists of four mixes of sizes, in VALUES, DOCS and POSTINGS modes, each
 * decoded as one gpu_decode_postings_batch call and as one gpu_decode_postings call a list (the
 * results kept in an array, as a caller keeps them), the two timed in turns, best of ROUNDS.
 * With `demo`, the demo corpus's lists (demo/corpus.php: every term of Debian's license texts)
 * instead. Not a test.
 *   php -d extension=modules/gpupost.so -d memory_limit=-1 -d gpupost.max_result_bytes=16G \
 *       bench/batch_host.php [demo] [ROUNDS] */
ini_set('gpupost.min_device_values', (string)PHP_INT_MAX);   /* the host path */
$demo = ($argv[1] ?? '') === 'demo';
$rounds = max(1, (int)($argv[$demo ? 2 : 1] ?? 5));
mt_srand(18);
function postings_blob(int $n): string
{
    $d = [];
    $doc = 0;
    for ($i = 0; $i < $n; $i++) {
        $doc += mt_rand(1, 30);
        $p = mt_rand(1, 50);
        $d[$doc] = [$p, $p + mt_rand(1, 9)];
    }
    return gpu_encode_postings($d, GPUPOST_MOD9, GPUPOST_POSTINGS);
}
if ($demo) {
    require __DIR__ . '/../demo/corpus.php';
    [, $index] = demo_corpus();
    $mixes = ['demo corpus, every term' => array_map(fn($docs) => gpu_encode_postings($docs, GPUPOST_MOD9, GPUPOST_POSTINGS), $index)];
} else {
    $mixes = [
        '30000 lists of 1-20 postings' => array_map(fn() => postings_blob(mt_rand(1, 20)), range(1, 30000)),
        '2000 lists of 1000-5000' => array_map(fn() => postings_blob(mt_rand(1000, 5000)), range(1, 2000)),
        '8 lists of 500000' => array_map(fn() => postings_blob(500000), range(1, 8)),
    ];
    $mixes['all three mixed'] = array_merge(...array_values($mixes));
    shuffle($mixes['all three mixed']);
}
printf("# host path, PHP %s, best of %d rounds (batch and single calls in turns)\n", PHP_VERSION, $rounds);
printf("%-28s %-9s %10s %10s %8s\n", 'lists', 'mode', 'singles s', 'batch s', 'ratio');
foreach ($mixes as $name => $blobs) {
    foreach (['VALUES' => GPUPOST_VALUES, 'DOCS' => GPUPOST_DOCS, 'POSTINGS' => GPUPOST_POSTINGS] as $mn => $mode) {
        $single = $batch = INF;
        $a = [];
        foreach ($blobs as $k => $b) $a[$k] = gpu_decode_postings($b, GPUPOST_MOD9, $mode);
        if ($a !== gpu_decode_postings_batch($blobs, GPUPOST_MOD9, $mode)) {
            fwrite(STDERR, "$name $mn: the batch differs from the single calls\n");
            exit(1);
        }
        unset($a);
        for ($r = 0; $r < $rounds; $r++) {
            $t = hrtime(true);
            $a = [];
            foreach ($blobs as $k => $b) $a[$k] = gpu_decode_postings($b, GPUPOST_MOD9, $mode);
            $single = min($single, hrtime(true) - $t);
            unset($a);
            $t = hrtime(true);
            $c = gpu_decode_postings_batch($blobs, GPUPOST_MOD9, $mode);
            $batch = min($batch, hrtime(true) - $t);
            unset($c);
        }
        printf("%-28s %-9s %10.4f %10.4f %8.2f\n", $name, $mn, $single / 1e9, $batch / 1e9, $batch / $single);
    }
}
