<?php
/* Issue 23's per-term run on our own postings (the equivalent of Yioop's 145,666 calls): every
 * term of the demo corpus (demo/corpus.php: real license texts, most lists short) encoded as one
 * MOD9 postings blob, then decoded one call per term in VALUES, DOCS and POSTINGS modes on the
 * device (gpupost.min_device_values=0), on the host path, and with the default dispatch. Prints
 * the total and the time a call. Not a test. Run it with two builds to compare them.
 *   php -d extension=modules/gpupost.so bench/per_term.php [FILES (0: all)] [ROUNDS] */
require __DIR__ . '/../demo/corpus.php';
[$files, $index] = demo_corpus((int)($argv[1] ?? 0));
$rounds = max(1, (int)($argv[2] ?? 3));
$blobs = $sizes = [];
foreach ($index as $term => $docs) {
    $blobs[] = gpu_encode_postings($docs, GPUPOST_MOD9, GPUPOST_POSTINGS);
    $sizes[] = array_sum(array_map('count', $docs)) + count($docs);
}
sort($sizes);
$default = ini_get('gpupost.min_device_values');
$info = gpu_info();
printf("# %s, %s: %d files, %d terms, %d values (median %d a term, 99th percentile %d); best of %d rounds\n",
    $info['device'] ? $info['device']['name'] : 'no device', basename((string)ini_get('extension')) ?: 'gpupost',
    count($files), count($blobs), array_sum($sizes), $sizes[intdiv(count($sizes), 2)],
    $sizes[(int)(count($sizes) * 0.99)], $rounds);
printf("%-9s %-7s %10s %10s\n", 'mode', 'path', 'total s', 'us a call');
foreach (['VALUES' => GPUPOST_VALUES, 'DOCS' => GPUPOST_DOCS, 'POSTINGS' => GPUPOST_POSTINGS] as $name => $mode) {
    foreach (['device' => '0', 'host' => (string)PHP_INT_MAX, 'auto' => $default] as $path => $min) {
        ini_set('gpupost.min_device_values', $min);
        $best = INF;
        for ($r = 0; $r < $rounds; $r++) {
            $t = hrtime(true);
            foreach ($blobs as $blob) gpu_decode_postings($blob, GPUPOST_MOD9, $mode);
            $best = min($best, (hrtime(true) - $t) / 1e9);
        }
        printf("%-9s %-7s %10.3f %10.1f%s\n", $name, $path, $best, $best / count($blobs) * 1e6,
            $path === 'device' && gpu_info()['last_backend'] !== 'opencl' ? ' (ran on ' . gpu_info()['last_backend'] . ')' : '');
    }
}
ini_set('gpupost.min_device_values', $default);
